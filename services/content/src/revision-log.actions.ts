// Internal, as the caller: a space's revision log (`content.revisionLog`), the revisions from one back along
// first parents with their ids, times and parents only. It reads each revision's head (revisions-logged.ts),
// never its pages, so the app's history of a space of thousands of pages costs a few small reads a row.
import type { RevisionLogEntry } from "@docshelf/contracts/content";
import { NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import type { RevisionHeadDoc } from "./models";
import { headOf, storeHead } from "./revisions-logged";
import type { ContentActions, ContentService, Ctx } from "./service-types";

/** Revisions one call answers when the caller names no limit, and at most. */
export const REVISION_LOG_DEFAULT = 20;
export const REVISION_LOG_MAX = 100;

/**
 * The head of revision `revisionId` of space `spaceId`, or null when there is none (or it is another
 * space's). A revision stored before heads existed is read whole once, and its head stored.
 */
async function headIn(service: ContentService, spaceId: string, revisionId: string): Promise<RevisionHeadDoc | null> {
  const head = await service.revisionHeads.findOne({ id: revisionId });
  if (head) return head.spaceId === spaceId ? head : null;
  const revision = await service.revisions.findOne({ id: revisionId });
  if (!revision || revision.spaceId !== spaceId) return null;
  const made = headOf(revision);
  await storeHead(service.revisionHeads, made);
  return made;
}

function entryOf(head: RevisionHeadDoc): RevisionLogEntry {
  return { id: head.id, createdAt: head.createdAt, parents: [...head.parents], ...(head.type ? { type: head.type } : {}) };
}

export const revisionLogActions: ContentActions = {
  /**
   * Up to `limit` revisions of the space from `revisionId` (its current one by default) back along first
   * parents, newest first. The caller's access is checked as getRevision checks it (loadSpace: 404 for a
   * space they may not see); a `revisionId` that is not the space's is a 404. The walk ends early at a
   * revision without parents, or whose first parent is not of this space (a duplicated space's first one).
   */
  revisionLog: {
    visibility: "public",
    params: {
      spaceId: idRule,
      revisionId: { ...idRule, optional: true },
      limit: { type: "number", integer: true, min: 1, max: REVISION_LOG_MAX, optional: true },
    },
    async handler(ctx: Ctx<{ spaceId: string; revisionId?: string; limit?: number }>): Promise<RevisionLogEntry[]> {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const start = ctx.params.revisionId ?? space.revision;
      const limit = ctx.params.limit ?? REVISION_LOG_DEFAULT;
      let head = await headIn(this, space.id, start);
      if (!head) throw new NotFoundError(`Revision ${start} was not found.`);
      const log = [entryOf(head)];
      const seen = new Set([head.id]);
      while (log.length < limit) {
        const parent: string | undefined = head.parents[0];
        if (!parent || seen.has(parent)) break;
        const next = await headIn(this, space.id, parent);
        if (!next) break;
        head = next;
        seen.add(head.id);
        log.push(entryOf(head));
      }
      return log;
    },
  },
};
