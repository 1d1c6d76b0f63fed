// Running an import run in the background after `startImportRun` answered: claim it, gather the pages
// (crawl or files), then commit them all at once as one revision — or nothing, when it was cancelled
// or failed. A heartbeat keeps `updatedAt` moving; a run whose heartbeat stopped is reported failed.
import { atLeast } from "@docshelf/access";
import { call } from "@docshelf/contracts/action";
import * as changeRequests from "@docshelf/contracts/change-requests";
import { ApiError, BadRequestError, ConflictError } from "@docshelf/errors";
import { SafeFetchError } from "@docshelf/safe-fetch";
import { op } from "@docshelf/store";
import { taskModule } from "@docshelf/worker-pool";
import { importFetch } from "../import-fetch";
import { convertOffThread, runOffThread } from "../off-thread";
import type { ImportRunDoc, ImportRunPage, SpaceDoc } from "../models";
import { commitChanges } from "../revisions/commit";
import { changesForPaths, walk } from "../revisions/tree";
import type { ContentService } from "../service-types";
import { importWebsite, type ImportFetch, type ImportedPage } from "../website-import";
import type { FilePagesAnswer } from "./pages-task";
import type { Upload } from "./uploads";

/** How often a working run says it is alive. */
export const HEARTBEAT_MS = 5_000;
/** An active run not heard from for this long was left behind (its process stopped): it is reported failed. */
export const STALE_AFTER_MS = 60_000;
const COMMIT_ATTEMPTS = 3;
export const ACTIVE_STATUSES = ["pending", "in-progress"] as const;

/** Thrown inside a run when it was cancelled: the run stops where it is and writes nothing. */
class RunCancelled extends Error {}

/** A failure's reason as the caller may read it: user-facing errors keep their message, others do not leak. */
function reasonOf(err: unknown): string {
  if (err instanceof SafeFetchError || err instanceof ApiError) return err.message.replace(/^Invalid parameters: /, "");
  return "The import failed unexpectedly.";
}

/** The pages to import, each path under the target page's path when there is one. */
function underPage(pages: ImportedPage[], prefix: string | undefined): ImportedPage[] {
  return prefix ? pages.map((page) => ({ ...page, path: `${prefix}/${page.path}` })) : pages;
}

/** Commits the pages as one new revision the space moves to (retried when it moved meanwhile); the pages written, for the run. */
async function commitPages(service: ContentService, run: ImportRunDoc, imported: ImportedPage[]): Promise<{ revision: string; pages: ImportRunPage[] }> {
  for (let attempt = 1; ; attempt++) {
    const space: SpaceDoc | null = await service.spaces.findOne({ id: run.spaceId, deletedAt: op.exists(false) });
    if (!space) throw new ConflictError("The target space was deleted during the import.");
    if (space.editMode === "locked") throw new ConflictError("The target space was locked during the import.");
    // Into a change request: on top of its revision, as the user who started the run (who may edit it no longer).
    let crRevision: string | undefined;
    if (run.changeRequestId) {
      const cr = await call(service.broker, changeRequests.access, { spaceId: space.id, changeRequestId: run.changeRequestId, userId: run.createdBy });
      if (!cr.exists || !cr.revision || (cr.status !== "open" && cr.status !== "draft")) throw new ConflictError("The change request was merged, archived or deleted during the import.");
      if (!atLeast(cr.role, "edit")) throw new ConflictError("The user who started the import can no longer edit the change request.");
      crRevision = cr.revision;
    }
    const base = await service.loadRevision(space.id, crRevision ?? space.revision);
    let prefix: string | undefined;
    if (run.pageId) {
      prefix = service.pageIndex(base).get(run.pageId)?.path;
      if (prefix === undefined) throw new ConflictError("The target page was deleted during the import.");
    }
    const pages = underPage(imported, prefix);
    const changes = changesForPaths(base.pages, pages);
    try {
      const { revision } = await commitChanges(service, space, base, changes, { move: !run.changeRequestId });
      if (run.changeRequestId) {
        const { moved } = await call(service.broker, changeRequests.moveRevision, { spaceId: space.id, changeRequestId: run.changeRequestId, from: base.id, to: revision.id, userId: run.createdBy });
        if (!moved) {
          await service.revisions.deleteOne({ id: revision.id });
          throw new ConflictError("The change request was edited meanwhile.");
        }
      }
      const idByPath = new Map([...walk(revision.pages)].map(({ page }) => [page.path, page.id]));
      const written: ImportRunPage[] = [];
      const folders = new Set(changes.flatMap((c) => (c.type === "insert_page" && c.markdown === undefined && c.id ? [c.id] : [])));
      for (const id of folders) written.push({ id, type: "folder", status: "complete" });
      for (const page of pages) {
        const id = idByPath.get(page.path);
        if (id) written.push({ id, type: "page", status: "complete", ...(/^https?:/.test(page.sourceUrl) ? { sourceURL: page.sourceUrl } : {}) });
      }
      return { revision: revision.id, pages: written };
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= COMMIT_ATTEMPTS) throw err;
    }
  }
}

/** The worker task that turns uploaded files into pages (pages-task.ts). */
const PAGES_TASK = taskModule(__dirname, "pages-task");

/**
 * The uploaded files as pages, on a worker thread (off the event loop), one task at a time per organization
 * (WORKER_ORG_CONCURRENCY). The pool's limits end as the run's failure reason, naming the limit.
 */
async function filePagesOffThread(service: ContentService, run: ImportRunDoc, uploads: Upload[]): Promise<Extract<FilePagesAnswer, { ok: true }>> {
  const settings = service.importSettings;
  const limits = { maxEntries: settings.zipMaxEntries, maxUncompressedBytes: settings.zipMaxUncompressedBytes, maxRatio: settings.zipMaxRatio };
  const answer = await runOffThread<FilePagesAnswer>(service, run.organizationId, PAGES_TASK, "filePagesTask", [uploads, limits, settings.maxPages], "Reading the files", "send fewer or smaller files");
  if (!answer.ok) throw new BadRequestError(answer.message);
  return answer;
}

/** The run's pages: a crawl of the website (stopping at the next fetch once cancelled), or the uploaded files. */
async function gather(service: ContentService, run: ImportRunDoc, uploads: Upload[], signal: AbortSignal, progress: (n: number) => void): Promise<ImportedPage[]> {
  const settings = service.importSettings;
  if (run.source.type === "file") {
    const { pages, totalResources } = await filePagesOffThread(service, run, uploads);
    progress(totalResources);
    return pages;
  }
  const fetch = importFetch(settings.allowedPrivateTargets);
  let fetched = 0;
  const cancellable: ImportFetch = async (url, options) => {
    if (signal.aborted) throw new RunCancelled();
    const response = await fetch(url, options);
    if (signal.aborted) throw new RunCancelled();
    progress(++fetched);
    return response;
  };
  const site = await importWebsite(run.source.url, {
    fetch: cancellable,
    maxPages: settings.maxPages,
    maxBytesTotal: settings.maxBytesTotal,
    timeoutMs: settings.runTimeoutMs,
    convert: convertOffThread(service, run.organizationId),
  });
  return site.pages;
}

/** Runs `run` to its end. Never throws: every outcome is recorded on the run. */
export async function executeRun(service: ContentService, run: ImportRunDoc, uploads: Upload[]): Promise<void> {
  const controller = new AbortController();
  service.runningImports.set(run.id, controller);
  let discovered = 0;
  const heartbeat = setInterval(() => {
    void service.importRuns
      .updateOne({ id: run.id, status: "in-progress" }, { $set: { updatedAt: service.nowIso(), discovered } })
      .then((alive) => {
        // Cancelled (maybe on another node): stop at the next step.
        if (!alive) controller.abort();
      })
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const now = service.nowIso();
    const claimed = await service.importRuns.updateOne({ id: run.id, status: "pending" }, { $set: { status: "in-progress", startedAt: now, updatedAt: now } });
    if (!claimed) return;
    const pages = await gather(service, run, uploads, controller.signal, (n) => (discovered = n));
    if (controller.signal.aborted) return;
    // From here the run can no longer be cancelled: it commits everything or fails with nothing written.
    const committing = await service.importRuns.updateOne(
      { id: run.id, status: "in-progress", committing: op.exists(false) },
      { $set: { committing: true, discovered: pages.length, updatedAt: service.nowIso() } },
    );
    if (!committing) return;
    const { revision, pages: written } = await commitPages(service, run, pages);
    const done = service.nowIso();
    await service.importRuns.updateOne({ id: run.id }, { $set: { status: "completed", completedAt: done, updatedAt: done, revision, pages: written } });
  } catch (err) {
    if (err instanceof RunCancelled) return;
    if (!(err instanceof SafeFetchError || err instanceof ApiError)) service.logger.warn({ err, importRunId: run.id }, "an import run failed");
    const at = service.nowIso();
    await service.importRuns
      .updateOne({ id: run.id, status: op.in([...ACTIVE_STATUSES]) }, { $set: { status: "failed", reason: reasonOf(err), completedAt: at, updatedAt: at } })
      .catch((e: unknown) => service.logger.error({ err: e, importRunId: run.id }, "recording an import run's failure failed"));
  } finally {
    clearInterval(heartbeat);
    service.runningImports.delete(run.id);
  }
}

/** Marks the organization's active runs that stopped reporting as failed, so reads and status filters see them so. */
export async function failAbandoned(service: ContentService, filter: { organizationId: string; id?: string }): Promise<void> {
  const cutoff = new Date(service.now().getTime() - STALE_AFTER_MS).toISOString();
  const stale = await service.importRuns.find({ ...filter, status: op.in([...ACTIVE_STATUSES]), updatedAt: op.lt(cutoff) });
  for (const run of stale) {
    if (service.runningImports.has(run.id)) continue;
    await service.importRuns.updateOne(
      { id: run.id, status: run.status, updatedAt: run.updatedAt },
      { $set: { status: "failed", reason: "The import stopped reporting progress (its process ended); nothing was written.", completedAt: service.nowIso() } },
    );
  }
}
