// Keeps this node's full-text index (src/search) in step with spaces' current revisions: spaces are
// indexed lazily on their first search, again when their revision changes, and dropped when deleted.
import type { Context } from "moleculer";
import { callerOf } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { op, type Filter } from "@docshelf/store";
import { taskModule, WorkerBusyError } from "@docshelf/worker-pool";
import { join } from "node:path";
import { analyzeSections, type AnalyzedSection, type AnalyzePages } from "./search/space-index";
import type { SpaceDoc } from "./models";
import type { ContentService } from "./service-types";

/** search/analyze-task.ts: large pages analysed for the index on the worker pool. */
const ANALYZE_TASK = taskModule(join(__dirname, "search"), "analyze-task");

/**
 * Large pages' analysis on the pool's workers (one task of the space's organization at a time, as its other
 * work there). When the queue is full the page is analysed here, as it was before the pool (search must not
 * fail because imports are busy).
 */
function analyzeOnWorkers(service: ContentService, organizationId: string): AnalyzePages {
  return async (pages) => {
    try {
      return await service.importLimiter.run(organizationId, () => service.workers.run<AnalyzedSection[][]>(ANALYZE_TASK, "analyzePagesTask", [pages]));
    } catch (err) {
      if (err instanceof WorkerBusyError) return pages.map(analyzeSections);
      throw err;
    }
  };
}

/** Spaces indexed at once while a search waits for them. */
const BUILD_CONCURRENCY = 4;

/** The organization's live spaces the caller may read; 404 for callers who are not members. */
export async function readableSpaces(service: ContentService, ctx: Context, organizationId: string): Promise<SpaceDoc[]> {
  const caller = callerOf(ctx);
  const membership = await service.membership(organizationId, caller.id);
  if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${organizationId} was not found.`);
  const filter: Filter = { organizationId, deletedAt: op.exists(false) };
  // Guests see only what is open to everyone signed in (as listSpaces).
  if (membership.role === null) filter.visibility = op.in(["public", "unlisted"]);
  const spaces = await service.spaces.find(filter);
  const roles = await Promise.all(spaces.map((space) => service.roleOn(space, membership)));
  return spaces.filter((_space, i) => roles[i]);
}

/** Brings the index up to each space's current revision (the store is the truth; events only warm it). */
export async function ensureIndexed(service: ContentService, spaces: SpaceDoc[]): Promise<void> {
  const stale = spaces.filter((space) => service.searchIndex.revisionOf(space.id) !== space.revision);
  for (let i = 0; i < stale.length; i += BUILD_CONCURRENCY) {
    await Promise.all(stale.slice(i, i + BUILD_CONCURRENCY).map((space) => indexSpace(service, space.id, space.revision)));
  }
}

/** Indexes a revision of a space; steps for one space run one after the other, in the order asked. */
export function indexSpace(service: ContentService, spaceId: string, revisionId: string): Promise<void> {
  return searchStep(service, spaceId, async () => {
    if (service.searchIndex.revisionOf(spaceId) === revisionId) return;
    // Read straight from the store: indexing many spaces would churn the small revision cache.
    const revision = await service.revisions.findOne({ id: revisionId });
    if (!revision || revision.spaceId !== spaceId) return;
    // In turns: a space of megabytes (an import) never holds the event loop for its whole build.
    const organizationId = (await service.spaces.findOne({ id: spaceId }))?.organizationId ?? spaceId;
    await service.searchIndex.indexRevisionInTurns(spaceId, revisionId, await service.pagesWithMarkdown(revision), analyzeOnWorkers(service, organizationId));
  });
}

export function unindexSpace(service: ContentService, spaceId: string): Promise<void> {
  return searchStep(service, spaceId, async () => service.searchIndex.removeSpace(spaceId));
}

function searchStep(service: ContentService, spaceId: string, step: () => Promise<void>): Promise<void> {
  const previous = service.searchBuilds.get(spaceId) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(step);
  service.searchBuilds.set(spaceId, next);
  const forget = () => {
    if (service.searchBuilds.get(spaceId) === next) service.searchBuilds.delete(spaceId);
  };
  next.then(forget, forget);
  return next;
}
