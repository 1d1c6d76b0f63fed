// Reading a space's content: revisions, the page tree, one page by id or path, files and their bytes.
import { markdownToDocument } from "@docshelf/document";
import { NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import type { RoleOrGuest } from "@docshelf/access";
import { idRule } from "@docshelf/validation";
import { verifyFileToken } from "../files";
import { viewFor } from "../computed";
import type { RevisionDoc, SpaceDoc } from "../models";
import { pageArray } from "../paging";
import { documentResolver, refIndex } from "../revisions/document-refs";
import { presentFile, presentPage, presentRevision, type PageResource } from "../present";
import { evaluateMarkdown } from "../revisions/markdown";
import { findPageByPath, type PageNode } from "../revisions/tree";
import type { BacklinksQuery, ContentPart, Ctx } from "../service-types";
import { organizationOf } from "./links";

const flags = {
  metadata: { type: "boolean", optional: true, convert: true },
  computed: { type: "boolean", optional: true, convert: true },
} as const;

const pageFlags = {
  ...flags,
  format: { type: "enum", values: ["document", "markdown"], optional: true },
  evaluated: { type: "boolean", optional: true, convert: true },
} as const;

interface Flags {
  metadata?: boolean;
  computed?: boolean;
}
interface PageQuery extends Flags {
  spaceId: string;
  format?: "document" | "markdown";
  evaluated?: boolean;
}

export const contentActions: ContentPart = {
  actions: {
    getCurrentRevision: {
      params: { spaceId: idRule, ...flags },
      async handler(ctx: Ctx<{ spaceId: string } & Flags>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, space.revision);
        const view = await viewFor(this.broker, space, revision, ctx.params.computed);
        return this.serveRevision(ctx, space, view?.revision ?? revision, ctx.params.metadata ?? true, view?.variant);
      },
    },

    getRevision: {
      params: { spaceId: idRule, revisionId: idRule, ...flags },
      async handler(ctx: Ctx<{ spaceId: string; revisionId: string } & Flags>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        const view = await viewFor(this.broker, space, revision, ctx.params.computed);
        return this.serveRevision(ctx, space, view?.revision ?? revision, ctx.params.metadata ?? true, view?.variant);
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
        return this.servePage(space, revision, page, ctx.params, view?.bodies.get(page.id));
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
        return this.servePage(space, revision, page, ctx.params, view?.bodies.get(page.id));
      },
    },

    listFiles: {
      params: { spaceId: idRule, ...listParams, ...flags },
      async handler(ctx: Ctx<{ spaceId: string; page?: string; limit?: number } & Flags>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, space.revision);
        const { page, limit } = ctx.params;
        return pageArray(revision.files, { page, limit }, (files) => files.map((f) => presentFile(f, this.downloadURL(f), ctx.params.metadata ?? true)));
      },
    },

    getFile: {
      params: { spaceId: idRule, fileId: idRule, ...flags },
      async handler(ctx: Ctx<{ spaceId: string; fileId: string } & Flags>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, space.revision);
        const file = revision.files.find((f) => f.id === ctx.params.fileId);
        if (!file) throw new NotFoundError(`File ${ctx.params.fileId} was not found in the space.`);
        return presentFile(file, this.downloadURL(file), ctx.params.metadata ?? true);
      },
    },

    listFileBacklinks: {
      params: { spaceId: idRule, fileId: idRule, ...listParams },
      async handler(ctx: Ctx<{ spaceId: string; fileId: string; page?: string; limit?: number }>) {
        const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, space.revision);
        return this.serveFileBacklinks(ctx, space, role, revision, ctx.params, "the space");
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
  },

  methods: {
    /** The pages of `revision` whose content links to a file, as GitBook's backlink items. */
    async serveFileBacklinks(ctx: Ctx<unknown>, space: SpaceDoc, role: RoleOrGuest, revision: RevisionDoc, query: BacklinksQuery, where: string) {
      const file = revision.files.find((f) => f.id === query.fileId);
      if (!file) throw new NotFoundError(`File ${query.fileId} was not found in ${where}.`);
      const report = await this.linkReportOf(space, revision);
      const usage = report.items.find((item) => item.target.kind === "file" && item.target.file === file.id);
      const index = this.pageIndex(revision);
      const pages = (usage?.from ?? []).flatMap((id) => (index.has(id) ? [index.get(id) as PageNode] : []));
      const organization = await organizationOf(ctx, space.organizationId);
      const spaceResource = this.presentSpaceFor(space, role);
      const opts = this.presentOptions(space.id);
      return pageArray(pages, { page: query.page, limit: query.limit }, (items) =>
        items.map((p) => ({ kind: "page" as const, organization, space: spaceResource, page: presentPage(p, opts, 0) })),
      );
    },

    serveRevision(ctx: Ctx<unknown>, space: SpaceDoc, revision: RevisionDoc, metadata: boolean, variant?: string) {
      const opts = this.presentOptions(space.id, metadata);
      return this.respondJson(ctx, `revision:${revision.id}:${space.id}:${space.visibility}:${metadata}${variant ? `:${variant}` : ""}`, () =>
        presentRevision(revision, space, opts, (f) => this.downloadURL(f)),
      );
    },

    async servePage(space: SpaceDoc, revision: RevisionDoc, page: PageNode, query: PageQuery, body?: string) {
      const resource: PageResource = presentPage(page, this.presentOptions(space.id, query.metadata ?? true));
      let markdown = body ?? (await this.markdownOf(page.documentId));
      if (query.evaluated) markdown = evaluateMarkdown(markdown, revision.variables, page.variables ?? {});
      if (query.format === "document") {
        resource.document = markdownToDocument(markdown, documentResolver(refIndex(revision.pages, revision.files), page.path));
      }
      else resource.markdown = markdown;
      return resource;
    },
  },
};
