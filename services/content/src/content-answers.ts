// How a revision's content is answered, whichever revision is read: the space's current one
// (space-content.actions.ts), a given one (revisions.actions.ts) or a change request's
// (revisions-internal.actions.ts).
import { join } from "node:path";
import type { Context } from "moleculer";
import { markdownToDocument, type JSONDocument } from "@docshelf/document";
import { ApiError, BadRequestError, NotFoundError } from "@docshelf/errors";
import { taskModule, WorkerBusyError, WorkerMemoryError, WorkerTimeoutError } from "@docshelf/worker-pool";
import type { RevisionDoc, SpaceDoc } from "./models";
import { pageArray } from "./paging";
import { presentFile, presentPage, presentRevision, type PageResource } from "./present";
import { documentResolver, refIndex } from "./revisions/document-refs";
import { evaluateMarkdown } from "./revisions/markdown";
import type { PageNode } from "./revisions/tree";
import type { ContentService } from "./service-types";

export interface PageQuery {
  format?: "document" | "markdown";
  evaluated?: boolean;
  metadata?: boolean;
}

/** The whole revision; `variant` names what else the answer depends on (evaluated computed pages), for its cache key. */
export function serveRevision(service: ContentService, ctx: Context, space: SpaceDoc, revision: RevisionDoc, metadata: boolean, variant?: string): unknown {
  const opts = service.presentOptions(space.id, metadata);
  return service.respondJson(ctx, `revision:${revision.id}:${space.id}:${space.visibility}:${metadata}${variant ? `:${variant}` : ""}`, () =>
    presentRevision(revision, space, opts, (f) => service.downloadURL(f)),
  );
}

/** revisions/page-document-task.ts: a long page's Markdown parsed into a document, on a worker thread. */
const PAGE_DOCUMENT_TASK = taskModule(join(__dirname, "revisions"), "page-document-task");
/**
 * Pages longer than this are parsed into a document on a worker thread (about 5 ms of parsing here; a page of
 * 74 KB of headings took 0.2–0.4 s on an idle machine and seconds on a loaded one, holding every other request).
 */
export const OFF_THREAD_MARKDOWN_CHARS = 32 * 1024;

/** The page's Markdown as a GitBook document: in place when short, on a worker thread (one per organization at a time) when long. */
async function documentOf(service: ContentService, space: SpaceDoc, revision: RevisionDoc, page: PageNode, markdown: string): Promise<JSONDocument> {
  const index = refIndex(revision.pages, revision.files, revision.reusableContents);
  if (markdown.length <= OFF_THREAD_MARKDOWN_CHARS) return markdownToDocument(markdown, documentResolver(index, page.path));
  try {
    return await service.importLimiter.run(space.organizationId, () => service.workers.run<JSONDocument>(PAGE_DOCUMENT_TASK, "pageDocumentTask", [markdown, index, page.path]));
  } catch (err) {
    if (err instanceof WorkerTimeoutError || err instanceof WorkerMemoryError) {
      throw new BadRequestError(`format: reading the page as a document went past the ${err instanceof WorkerTimeoutError ? `time limit of ${err.limitMs} ms` : `memory limit of ${err.limitMb} MiB`}; read it as Markdown (format=markdown).`);
    }
    if (err instanceof WorkerBusyError) throw new ApiError("The instance is busy; read the page again in a moment.", 503, "WORKER_BUSY");
    throw err;
  }
}

/** One page; `body` is the markdown of an evaluated computed page (computed.ts), otherwise the page's stored document is read. */
export async function servePage(service: ContentService, space: SpaceDoc, revision: RevisionDoc, page: PageNode, query: PageQuery, body?: string): Promise<PageResource> {
  const resource: PageResource = presentPage(page, service.presentOptions(space.id, query.metadata ?? true));
  let markdown = body ?? (await service.markdownOf(page.documentId));
  if (query.evaluated) markdown = evaluateMarkdown(markdown, revision.variables, page.variables ?? {});
  if (query.format === "document") {
    resource.document = await documentOf(service, space, revision, page, markdown);
  } else resource.markdown = markdown;
  return resource;
}

/**
 * servePage for a page as stored (no computed view): the answer follows from the revision (immutable), the
 * page and the read flags alone, so its JSON text is kept and answered again as it is.
 */
export async function servePageKept(service: ContentService, ctx: Context, space: SpaceDoc, revision: RevisionDoc, page: PageNode, query: PageQuery): Promise<unknown> {
  const key = `${space.id}:${revision.id}:${page.id}:${query.format ?? "markdown"}:${query.evaluated ?? false}:${query.metadata ?? true}`;
  const kept = service.keptAnswer(ctx, key, service.pageAnswers);
  if (kept !== undefined) return kept;
  const resource = await servePage(service, space, revision, page, query);
  return service.respondJson(ctx, key, () => resource, service.pageAnswers);
}

/** A page of the revision's files. */
export function serveFiles(service: ContentService, revision: RevisionDoc, query: { page?: string; limit?: number; metadata?: boolean }) {
  return pageArray(revision.files, { page: query.page, limit: query.limit }, (files) => files.map((f) => presentFile(f, service.downloadURL(f), query.metadata ?? true)));
}

/** One file of the revision; `where` names the revision in the 404 ("the space", "the change request"). */
export function serveFile(service: ContentService, revision: RevisionDoc, fileId: string, metadata: boolean | undefined, where: string) {
  const file = revision.files.find((f) => f.id === fileId);
  if (!file) throw new NotFoundError(`File ${fileId} was not found in ${where}.`);
  return presentFile(file, service.downloadURL(file), metadata ?? true);
}
