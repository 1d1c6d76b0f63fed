// Storing a new revision of a space and moving the space to it by compare-and-swap: the one place
// that does it for changes, templates, website imports and Git sync imports.
import { ConflictError } from "@docshelf/errors";
import { newId, op, type Collection } from "@docshelf/store";
import type { DocumentDoc, RevisionDoc, SpaceDoc } from "../models";
import { storeDocuments } from "./documents";
import { applyChangesInTurns, type AppliedChanges, type Change } from "./tree";

/** What committing needs of the content service. */
export interface RevisionStore {
  spaces: Collection<SpaceDoc>;
  revisions: Collection<RevisionDoc>;
  documents: Collection<DocumentDoc>;
  nowIso(): string;
  /** Announces the space's new current revision (`content.revision.changed`). */
  revisionChanged(spaceId: string, revisionId: string): Promise<void>;
}

export interface CommitOptions {
  /** Move the space's revision pointer to the new revision (compare-and-swap from the base). */
  move: boolean;
  /** Adjusts the applied content before it is stored (Git sync sets page and file Git metadata). */
  amend?: (applied: AppliedChanges) => void;
  /** Git sync's record of the commit the revision was imported from. */
  git?: RevisionDoc["git"];
}

/**
 * Moves the live space from revision `from` to `to` and announces it; false (nothing moved) when the
 * space is deleted or no longer at `from`.
 */
export async function moveSpace(store: RevisionStore, spaceId: string, from: string, to: string): Promise<boolean> {
  const moved = (await store.spaces.updateOne({ id: spaceId, revision: from, deletedAt: op.exists(false) }, { $set: { revision: to, updatedAt: store.nowIso() } })) !== null;
  if (moved) await store.revisionChanged(spaceId, to);
  return moved;
}

/**
 * Stores the revision made of `base` and `changes` (and its new page bodies) as a child of `base`;
 * with `move` the space moves to it by compare-and-swap, and when someone moved the space first the
 * new revision is removed again and a ConflictError (409) thrown. Returns the revision and the ids of
 * inserted pages.
 *
 * All or nothing, in turns: the changes are applied to a copy in chunks that give the event loop a turn
 * between them (applyChangesInTurns: an import's megabytes of Markdown never hold the process), the
 * bodies are stored one write at a time (content-addressed: one stored for a commit that then fails is
 * shared or unused, never shown), and only the revision's compare-and-swap makes any of it the space's.
 */
export async function commitChanges(
  store: RevisionStore,
  space: Pick<SpaceDoc, "id">,
  base: RevisionDoc,
  changes: Change[],
  options: CommitOptions,
): Promise<{ revision: RevisionDoc; inserted: string[] }> {
  const now = store.nowIso();
  const applied = await applyChangesInTurns(base, changes, now);
  options.amend?.(applied);
  await storeDocuments(store.documents, applied.documents, now);
  const revision: RevisionDoc = {
    id: newId(),
    spaceId: space.id,
    parents: [base.id],
    type: "edits",
    pages: applied.pages,
    files: applied.files,
    reusableContents: applied.reusableContents,
    variables: applied.variables,
    createdAt: now,
  };
  if (options.git) revision.git = options.git;
  await store.revisions.insert(revision);
  if (options.move && !(await moveSpace(store, space.id, base.id, revision.id))) {
    await store.revisions.deleteOne({ id: revision.id });
    throw new ConflictError(`The space's revision is no longer ${base.id}; apply the changes to its current revision.`);
  }
  return { revision, inserted: applied.inserted };
}
