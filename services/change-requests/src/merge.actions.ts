// Merging a change request into main and updating it from main: three-way merges (merge.ts) stored by content.
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as orgs from "@docshelf/contracts/orgs";
import { ConflictError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import { describeConflicts, mergeRevisions } from "./merge";
import { ancestorOf, isOutdated } from "./present";
import { failingRule } from "./reviews";
import type { ChangeRequestsActions, ChangeRequestsService, Ctx } from "./service-types";
import { isActive } from "./status-rules";
import { notifyOfChangeRequest } from "./notify";

const at = { spaceId: idRule, changeRequestId: { type: "string", min: 1, max: 64 } } as const;
/**
 * Main can move between reading it and committing (another node merged meanwhile); a merge tries again
 * this many times, a little later each time, before answering 409. Merges of one space on this node
 * queue instead of racing (`mergeQueue`), so only other nodes' merges can make it lose.
 */
const MERGE_ATTEMPTS = 8;
const RETRY_BASE_MS = 20;

function isConflict(err: unknown): boolean {
  return (err as { code?: number })?.code === 409;
}

/** Stores the three-way merge of `theirs` into `ours` (base `base`) as a new revision; fast-forwards when one side has no changes. */
async function mergedRevision(
  service: ChangeRequestsService,
  ctx: Ctx<unknown>,
  spaceId: string,
  ids: { base: string; ours: string; theirs: string },
  names: { ours: string; theirs: string },
): Promise<string> {
  if (ids.theirs === ids.base || ids.theirs === ids.ours) return ids.ours;
  if (ids.ours === ids.base) return ids.theirs;
  const [base, ours, theirs] = await service.trees(ctx, spaceId, [ids.base, ids.ours, ids.theirs]);
  const { content, conflicts } = mergeRevisions(base, ours, theirs, names);
  if (conflicts.length) {
    throw new ConflictError(`The change request conflicts with main on ${conflicts.length} item(s): ${describeConflicts(conflicts)}.`, { conflicts });
  }
  return service.storeTree(ctx, spaceId, [ids.ours, ids.theirs], content);
}

/**
 * One merge (see `merge`): claims the change request, merges it into main and moves main by
 * compare-and-swap, merging again on the new main when another node's merge won.
 */
async function mergeOne(service: ChangeRequestsService, ctx: Ctx<{ spaceId: string; changeRequestId: string }>) {
  const { space, cr, caller } = await service.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
  service.requireRole(space, "review", "Merging a change request");
  if (!isActive(cr.status)) throw new ConflictError(`A ${cr.status} change request cannot be merged.`);
  // The organization's merge rules (GitBook's MergeRulesStandaloneConfiguration) must all hold.
  if (space.organizationId) {
    const rules = await call(ctx, orgs.mergeRulesOf, { organizationId: space.organizationId });
    if (rules.type === "rules") {
      const [reviews, requests] = await Promise.all([
        service.reviews.find({ changeRequestId: cr.id }, { limit: 1000 }),
        service.reviewRequests.find({ changeRequestId: cr.id }, { limit: 1000 }),
      ]);
      const failing = failingRule(rules, { cr, reviews, requests, actor: caller.id, outdated: isOutdated(cr, space.revision) });
      if (failing) throw new ConflictError(`The merge rule ${failing.rule} does not hold: ${failing.reason}.`, { rule: failing.rule });
    }
  }
  // Claim the change request first: edits, updates and other merges of it now fail, so nothing is lost.
  const claimed = await service.changeRequests.updateOne({ id: cr.id, status: cr.status, revision: cr.revision }, { $set: { status: "merged" } });
  if (!claimed) throw new ConflictError("The change request changed meanwhile; read it and try again.");
  const release = () => service.changeRequests.updateOne({ id: cr.id, status: "merged" }, { $set: { status: cr.status } });
  let main = space.revision;
  let committed = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const merged = await mergedRevision(service, ctx, cr.spaceId, { base: ancestorOf(cr), ours: main, theirs: cr.revision }, { ours: "main", theirs: "the change request" });
      try {
        await call(ctx, content.commitRevision, { spaceId: cr.spaceId, expectedRevisionId: main, revisionId: merged });
      } catch (err) {
        if (!isConflict(err) || attempt >= MERGE_ATTEMPTS) throw err;
        // Another node's merge won: wait a little (longer each time, with jitter) and merge onto its result.
        await new Promise((resolve) => setTimeout(resolve, RETRY_BASE_MS * attempt * (1 + Math.random())));
        main = (await service.loadSpace(ctx, cr.spaceId)).revision;
        continue;
      }
      committed = true;
      const now = new Date(service.now()).toISOString();
      // Recorded as pending first: if announcing fails (or this process dies), the sweep announces it later.
      const done = await service.changeRequests.updateOne(
        { id: cr.id },
        { $set: { revisionMerged: merged, mergedAt: now, mergedBy: caller.id, updatedAt: now, announcePending: true } },
      );
      // Announcing and notifying need not hold the space's queue: the next merge starts meanwhile.
      const aftermath = async () => {
        if (done) await service.announceMerged(done).catch((err: unknown) => service.logger.warn({ err, changeRequestId: cr.id }, "announcing a merge failed; the sweep sends it again"));
        await notifyOfChangeRequest(service, ctx, done ?? cr, "merge", caller.id, [cr.createdBy]);
      };
      return { answer: { revision: merged, result: "merge" }, aftermath };
    }
  } catch (err) {
    // Once main has moved the change request stays merged, whatever failed afterwards.
    if (!committed) await release();
    throw err;
  }
}

export const mergeActions: ChangeRequestsActions = {
  /**
   * POST …/change-requests/:changeRequestId/merge — review role or better. Main moves by
   * compare-and-swap from the revision merged against: a merge that lost a race is merged again on
   * the new main (up to MERGE_ATTEMPTS times); conflicts answer 409 naming them and change nothing.
   */
  merge: {
    params: at,
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string }>) {
      // One merge of a space at a time on this node: racing each other, twenty merges would mostly lose. What
      // follows the commit (the merged event, the notifications) runs outside the queue, before the answer.
      const { answer, aftermath } = await this.mergeQueue.run(ctx.params.spaceId, () => mergeOne(this, ctx));
      await aftermath();
      return answer;
    },
  },

  /**
   * POST …/change-requests/:changeRequestId/update — edit role. Brings main's changes into the change
   * request (three-way, base: its last ancestor); conflicts answer 409 and change nothing.
   */
  updateFromMain: {
    params: at,
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string }>) {
      const { space, cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      this.requireRole(space, "edit", "Updating a change request");
      if (!isActive(cr.status)) throw new ConflictError(`A ${cr.status} change request cannot be updated.`);
      const main = space.revision;
      if (ancestorOf(cr) === main) return { revision: cr.revision, result: "update" };
      const revision = await mergedRevision(this, ctx, cr.spaceId, { base: ancestorOf(cr), ours: cr.revision, theirs: main }, { ours: "the change request", theirs: "main" });
      const updated = await this.changeRequests.updateOne(
        { id: cr.id, revision: cr.revision, status: cr.status },
        { $set: { revision, revisionMergedAncestor: main, updatedAt: new Date().toISOString() } },
      );
      if (!updated) throw new ConflictError("The change request was edited or merged meanwhile; update it again.");
      await this.announceContent(updated);
      return { revision, result: "update" };
    },
  },
};
