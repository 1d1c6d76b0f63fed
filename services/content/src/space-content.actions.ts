// Reading a space's current content: its revision, the page tree, one page by id or path, files,
// file backlinks, and a file's bytes by its signed download URL.
import { NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { idRule, contentReadFlags as flags, pageReadFlags as pageFlags } from "@docshelf/validation";
import { viewFor } from "./computed";
import { serveFile, serveFiles, servePage, servePageKept, serveRevision } from "./content-answers";
import { verifyFileToken } from "./files";
import { serveFileBacklinks } from "./link-reports";
import { presentPage } from "./present";
import { findPageByPath } from "./revisions/tree";
import type { ContentActions, Ctx } from "./service-types";

interface Flags {
  metadata?: boolean;
  computed?: boolean;
}
interface PageQuery extends Flags {
  spaceId: string;
  format?: "document" | "markdown";
  evaluated?: boolean;
}

export const spaceContentActions: ContentActions = {
  getCurrentRevision: {
    params: { spaceId: idRule, ...flags },
    async handler(ctx: Ctx<{ spaceId: string } & Flags>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      return serveRevision(this, ctx, space, view?.revision ?? revision, ctx.params.metadata ?? true, view?.variant);
    },
  },

  getRevision: {
    params: { spaceId: idRule, revisionId: idRule, ...flags },
    async handler(ctx: Ctx<{ spaceId: string; revisionId: string } & Flags>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      return serveRevision(this, ctx, space, view?.revision ?? revision, ctx.params.metadata ?? true, view?.variant);
    },
  },

  listPages: {
    params: { spaceId: idRule, ...flags },
    async handler(ctx: Ctx<{ spaceId: string } & Flags>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      const metadata = ctx.params.metadata ?? true;
      const opts = this.presentOptions(space.id, metadata);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const pages = (view?.revision ?? revision).pages;
      return this.respondJson(ctx, `pages:${revision.id}:${metadata}${view ? `:${view.variant}` : ""}`, () => ({ pages: pages.map((p) => presentPage(p, opts)) }));
    },
  },

  getPage: {
    params: { spaceId: idRule, pageId: idRule, ...pageFlags },
    async handler(ctx: Ctx<PageQuery & { pageId: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const page = (view?.index ?? this.pageIndex(revision)).get(ctx.params.pageId);
      if (!page) throw new NotFoundError(`Page ${ctx.params.pageId} was not found in the space.`);
      if (view) return servePage(this, space, revision, page, ctx.params, view.bodies.get(page.id));
      return servePageKept(this, ctx, space, revision, page, ctx.params);
    },
  },

  getPageByPath: {
    params: { spaceId: idRule, pagePath: { type: "string", min: 1, max: 2048 }, ...pageFlags },
    async handler(ctx: Ctx<PageQuery & { pagePath: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const page = findPageByPath((view?.revision ?? revision).pages, ctx.params.pagePath);
      if (!page) throw new NotFoundError(`No page has the path "${ctx.params.pagePath}" in the space.`);
      if (view) return servePage(this, space, revision, page, ctx.params, view.bodies.get(page.id));
      return servePageKept(this, ctx, space, revision, page, ctx.params);
    },
  },

  listFiles: {
    params: { spaceId: idRule, ...listParams, ...flags },
    async handler(ctx: Ctx<{ spaceId: string; page?: string; limit?: number } & Flags>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      return serveFiles(this, revision, ctx.params);
    },
  },

  getFile: {
    params: { spaceId: idRule, fileId: idRule, ...flags },
    async handler(ctx: Ctx<{ spaceId: string; fileId: string } & Flags>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      return serveFile(this, revision, ctx.params.fileId, ctx.params.metadata, "the space");
    },
  },

  listFileBacklinks: {
    params: { spaceId: idRule, fileId: idRule, ...listParams },
    async handler(ctx: Ctx<{ spaceId: string; fileId: string; page?: string; limit?: number }>) {
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      return serveFileBacklinks(this, ctx, space, role, revision, ctx.params, "the space");
    },
  },

  /** Serves a file's bytes to whoever holds its signed download URL. */
  downloadFile: {
    params: { token: { type: "string", min: 10, max: 4096 } },
    async handler(ctx: Ctx<{ token: string }>) {
      const claims = verifyFileToken(this.fileKey, ctx.params.token);
      if (!claims || !(await this.files.has(claims.sha256))) throw new NotFoundError("File not found.");
      ctx.meta.$responseType = claims.contentType;
      ctx.meta.$responseHeaders = {
        "Content-Disposition": `inline; filename="${claims.name.replace(/["\\\r\n]/g, "_")}"`,
        "Cache-Control": "private, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        // Uploaded bytes (an SVG, an HTML file) must never run as a page of this origin.
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      };
      return this.files.open(claims.sha256);
    },
  },
};
