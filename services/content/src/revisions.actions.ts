// GitBook's reads of a given revision of a space (`/spaces/:spaceId/revisions/:revisionId/…`) and of a
// page document by id (`/spaces/:spaceId/documents/:documentId`). Revisions never change, so an old
// revision answers its own content whatever was edited after it.
import { markdownToDocument } from "@docshelf/document";
import { NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { idRule, contentReadFlags as flags } from "@docshelf/validation";
import { viewFor } from "./computed";
import type { RevisionDoc } from "./models";
import { presentPage, type PageResource } from "./present";
import { documentResolver, refIndex } from "./revisions/document-refs";
import { semanticChanges } from "./revisions/semantic-changes";
import { walk } from "./revisions/tree";
import { serveFile, serveFiles, servePage } from "./content-answers";
import type { ContentActions, ContentService, Ctx } from "./service-types";

const at = { spaceId: idRule, revisionId: idRule } as const;

interface At {
  spaceId: string;
  revisionId: string;
  metadata?: boolean;
  computed?: boolean;
}

/**
 * A page in the shape of GitBook's current API, which these operations come from: every document page
 * has `tags` (none are kept yet) and the newer layout options (GitBook's defaults: no cover mask, tags,
 * actions and anchors shown) filled in where the stored layout predates them.
 */
function latestShape(page: PageResource): PageResource {
  const pages = page.pages.map(latestShape);
  if (page.type === "group") return { ...page, pages };
  const layout = page.layout ? { coverMask: "none", tags: true, actions: true, anchors: true, ...page.layout } : page.layout;
  return { tags: [], ...page, ...(layout ? { layout } : {}), pages } as PageResource;
}

/** The first `limit` (10) semantic changes from `before` (null: an empty space) to `after`, and how many more there are. */
function changesPage(service: ContentService, before: RevisionDoc | null, after: RevisionDoc, limit = 10): { changes: unknown[]; more: number } {
  const all = semanticChanges(before, after, (f) => service.downloadURL(f));
  return { changes: all.slice(0, limit), more: Math.max(0, all.length - limit) };
}

/** Where a document is used in a revision: the path its relative links resolve from. */
function useOf(revision: RevisionDoc, documentId: string): { path: string } | undefined {
  for (const { page } of walk(revision.pages)) if (page.documentId === documentId) return { path: page.path };
  if (revision.reusableContents.some((r) => r.documentId === documentId)) return { path: "" };
  return undefined;
}

export const revisionActions: ContentActions = {
  listPagesInRevision: {
    params: { ...at, ...flags },
    async handler(ctx: Ctx<At>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const metadata = ctx.params.metadata ?? true;
      const opts = this.presentOptions(space.id, metadata);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const pages = (view?.revision ?? revision).pages;
      return this.respondJson(ctx, `revision-pages:${revision.id}:${metadata}${view ? `:${view.variant}` : ""}`, () => ({ pages: pages.map((p) => latestShape(presentPage(p, opts))) }));
    },
  },

  getPageInRevision: {
    params: {
      ...at,
      pageId: idRule,
      ...flags,
      format: { type: "enum", values: ["document", "markdown"], optional: true },
      evaluated: { type: "boolean", optional: true, convert: true },
    },
    async handler(ctx: Ctx<At & { pageId: string; format?: "document" | "markdown"; evaluated?: boolean }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const page = (view?.index ?? this.pageIndex(revision)).get(ctx.params.pageId);
      if (!page) throw new NotFoundError(`Page ${ctx.params.pageId} was not found in revision ${revision.id}.`);
      return latestShape(await servePage(this, space, revision, page, ctx.params, view?.bodies.get(page.id)));
    },
  },

  getPageDocumentInRevision: {
    params: { ...at, pageId: idRule, evaluated: { type: "boolean", optional: true, convert: true } },
    async handler(ctx: Ctx<At & { pageId: string; evaluated?: boolean }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const page = this.pageIndex(revision).get(ctx.params.pageId);
      // A group has no document.
      if (!page || page.type === "group") throw new NotFoundError(`Page ${ctx.params.pageId} was not found in revision ${revision.id}.`);
      const resource = await servePage(this, space, revision, page, { format: "document", evaluated: ctx.params.evaluated });
      return resource.document;
    },
  },

  listFilesInRevision: {
    params: { ...at, ...listParams, ...flags },
    async handler(ctx: Ctx<At & { page?: string; limit?: number }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveFiles(this, revision, ctx.params);
    },
  },

  getFileInRevision: {
    params: { ...at, fileId: idRule, ...flags },
    async handler(ctx: Ctx<At & { fileId: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveFile(this, revision, ctx.params.fileId, ctx.params.metadata, `revision ${revision.id}`);
    },
  },

  /**
   * GitBook's `getRevisionSemanticChanges`: what the revision changed from its first parent (a first
   * revision: from an empty space), the first `limit` changes and how many more there are.
   */
  getRevisionSemanticChanges: {
    params: { ...at, ...flags, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true, convert: true } },
    async handler(ctx: Ctx<At & { limit?: number }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const parent = revision.parents.length ? await this.loadRevision(space.id, revision.parents[0]) : null;
      return changesPage(this, parent, revision, ctx.params.limit);
    },
  },

  /**
   * Internal, no access check: what changed from revision `from` to revision `to` of a space, in the
   * shape of getRevisionSemanticChanges (a change request against its base: change-requests checks access).
   */
  semanticChangesBetween: {
    visibility: "public",
    params: { spaceId: idRule, from: idRule, to: idRule, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true } },
    async handler(ctx: Ctx<{ spaceId: string; from: string; to: string; limit?: number }>) {
      const [before, after] = await Promise.all([this.loadRevision(ctx.params.spaceId, ctx.params.from), this.loadRevision(ctx.params.spaceId, ctx.params.to)]);
      return changesPage(this, before, after, ctx.params.limit);
    },
  },

  /**
   * A page body as GitBook's JSON document, by its document id. Bodies are content-addressed and
   * shared between spaces, so the id answers only in a space one of whose revisions uses it: the
   * current revision first, then the older ones (newest first).
   */
  getDocument: {
    params: { spaceId: idRule, documentId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; documentId: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const { documentId } = ctx.params;
      const missing = () => new NotFoundError(`Document ${documentId} was not found in the space.`);
      // An id stored nowhere is answered at once, without reading the space's older revisions.
      const doc = await this.documents.findOne({ id: documentId });
      if (!doc) throw missing();
      let revision: RevisionDoc | undefined = await this.loadRevision(space.id, space.revision);
      let use = useOf(revision, documentId);
      if (!use) {
        revision = undefined;
        const older = (await this.revisions.find({ spaceId: space.id })).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        for (const candidate of older) {
          use = useOf(candidate, documentId);
          if (use) {
            revision = candidate;
            break;
          }
        }
      }
      if (!revision || !use) throw missing();
      return markdownToDocument(doc.markdown, documentResolver(refIndex(revision.pages, revision.files, revision.reusableContents), use.path));
    },
  },
};
