// The revisions collection as content's actions see it: storing a revision also stores its head (id, space,
// parents, time: RevisionHeadDoc) in `revision_heads`, and removing revisions removes their heads, so that
// `content.revisionLog` walks a space's history without reading any revision's pages (the store reads whole
// documents only; a revision of a 3,000-page space is hundreds of kilobytes of JSON). It is done here, under
// every action, so that no path that stores a revision can forget it. Revisions are never updated.
import { ConflictError } from "@docshelf/errors";
import { op, type Collection, type Filter } from "@docshelf/store";
import type { RevisionDoc, RevisionHeadDoc } from "./models";

/** The head of a revision: what its log needs of it. */
export function headOf(revision: RevisionDoc): RevisionHeadDoc {
  return { id: revision.id, spaceId: revision.spaceId, parents: [...revision.parents], type: revision.type, createdAt: revision.createdAt };
}

/** Stores `head` unless it is stored already (a walk may have written it first: heads never change). */
export async function storeHead(heads: Collection<RevisionHeadDoc>, head: RevisionHeadDoc): Promise<void> {
  try {
    await heads.insert(head);
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
  }
}

/** A filter that reads the same on heads as on revisions (only `id` and `spaceId`, which both carry). */
function headFilter(filter: Filter): boolean {
  return Object.keys(filter).every((key) => key === "id" || key === "spaceId");
}

/** `revisions` with every stored revision's head kept in `heads`. Reads pass through. */
export function loggedRevisions(revisions: Collection<RevisionDoc>, heads: Collection<RevisionHeadDoc>): Collection<RevisionDoc> {
  /** The heads of the revisions `filter` is about to remove (by id when the filter names other fields). */
  const headsOf = async (filter: Filter, one: boolean): Promise<Filter | null> => {
    if (headFilter(filter)) return filter;
    const found = await revisions.find(filter, one ? { limit: 1 } : {});
    return found.length ? { id: op.in(found.map((r) => r.id)) } : null;
  };
  return {
    get name() {
      return revisions.name;
    },
    find: (filter, options) => revisions.find(filter, options),
    findOne: (filter) => revisions.findOne(filter),
    count: (filter) => revisions.count(filter),
    async insert(doc: RevisionDoc) {
      const stored = await revisions.insert(doc);
      await storeHead(heads, headOf(doc));
      return stored;
    },
    updateOne: (filter, update) => revisions.updateOne(filter, update),
    compareAndSwap: (id, field, expected, next) => revisions.compareAndSwap(id, field, expected, next),
    async deleteOne(filter: Filter) {
      const gone = await headsOf(filter, true);
      const deleted = await revisions.deleteOne(filter);
      if (deleted && gone) await heads.deleteOne(gone);
      return deleted;
    },
    async deleteMany(filter: Filter) {
      const gone = await headsOf(filter, false);
      const deleted = await revisions.deleteMany(filter);
      if (gone) await heads.deleteMany(gone);
      return deleted;
    },
  };
}
