// Internal: reading a given revision of a space (a change request's), and storing a merged revision.
// The reads check the caller's access to the space as the HTTP reads do; the change-requests service
// checks that the revision is its change request's before it asks.
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import type { RevisionDoc } from "../models";
import { pageArray } from "../paging";
import { presentFile, presentPage } from "../present";
import { importWebsite } from "../website-import";
import { changesForPaths, findPageByPath, normalizePaths, type FileMeta, type PageNode, type ReusableContentMeta } from "../revisions/tree";
import type { ContentPart, Ctx } from "../service-types";
import { IMPORT_SOURCES, importFetch } from "./import";

const flags = {
  metadata: { type: "boolean", optional: true, convert: true },
  computed: { type: "boolean", optional: true, convert: true },
} as const;
const pageFlags = {
  ...flags,
  format: { type: "enum", values: ["document", "markdown"], optional: true },
  evaluated: { type: "boolean", optional: true, convert: true },
} as const;
const at = { spaceId: idRule, revisionId: idRule } as const;

interface At {
  spaceId: string;
  revisionId: string;
  metadata?: boolean;
}
interface PageQuery extends At {
  format?: "document" | "markdown";
  evaluated?: boolean;
}

/** A revision's content as the merge of change requests sees it: trees with document ids. */
export interface RevisionTree {
  id: string;
  pages: PageNode[];
  files: FileMeta[];
  reusableContents: ReusableContentMeta[];
  variables: Record<string, string>;
}

export const revisionReadActions: ContentPart = {
  actions: {
    /** Internal: a revision of the space as `GET …/content` answers it. */
    readRevision: {
      visibility: "public",
      params: { ...at, ...flags },
      async handler(ctx: Ctx<At>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        return this.serveRevision(ctx, space, revision, ctx.params.metadata ?? true);
      },
    },

    /** Internal: the page tree of a revision as `GET …/content/pages` answers it. */
    readPages: {
      visibility: "public",
      params: { ...at, ...flags },
      async handler(ctx: Ctx<At>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        const metadata = ctx.params.metadata ?? true;
        const opts = this.presentOptions(space.id, metadata);
        return this.respondJson(ctx, `pages:${revision.id}:${metadata}`, () => ({ pages: revision.pages.map((p) => presentPage(p, opts)) }));
      },
    },

    /** Internal: one page of a revision by id or by path, as `GET …/content/page/:pageId` answers it. */
    readPage: {
      visibility: "public",
      params: { ...at, pageId: { ...idRule, optional: true }, pagePath: { type: "string", min: 1, max: 2048, optional: true }, ...pageFlags },
      async handler(ctx: Ctx<PageQuery & { pageId?: string; pagePath?: string }>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        const { pageId, pagePath } = ctx.params;
        const page = pageId ? this.pageIndex(revision).get(pageId) : pagePath ? findPageByPath(revision.pages, pagePath) : undefined;
        if (!page) throw new NotFoundError(pageId ? `Page ${pageId} was not found in the change request.` : `No page has the path "${pagePath ?? ""}".`);
        return this.servePage(space, revision, page, ctx.params);
      },
    },

    readFiles: {
      visibility: "public",
      params: { ...at, ...listParams, ...flags },
      async handler(ctx: Ctx<At & { page?: string; limit?: number }>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        const { page, limit } = ctx.params;
        return pageArray(revision.files, { page, limit }, (files) => files.map((f) => presentFile(f, this.downloadURL(f), ctx.params.metadata ?? true)));
      },
    },

    readFile: {
      visibility: "public",
      params: { ...at, fileId: idRule, ...flags },
      async handler(ctx: Ctx<At & { fileId: string }>) {
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        const file = revision.files.find((f) => f.id === ctx.params.fileId);
        if (!file) throw new NotFoundError(`File ${ctx.params.fileId} was not found in the change request.`);
        return presentFile(file, this.downloadURL(file), ctx.params.metadata ?? true);
      },
    },

    readFileBacklinks: {
      visibility: "public",
      params: { ...at, fileId: idRule, ...listParams },
      async handler(ctx: Ctx<At & { fileId: string; page?: string; limit?: number }>) {
        const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
        const revision = await this.loadRevision(space.id, ctx.params.revisionId);
        return this.serveFileBacklinks(ctx, space, role, revision, ctx.params, "the change request");
      },
    },

    readPageLinks: {
      visibility: "public",
      params: { ...at, pageId: idRule, ...listParams, status: { type: "enum", values: ["ok", "broken", "in-app"], optional: true } },
      async handler(ctx: Ctx<At & { pageId: string; page?: string; limit?: number; status?: "ok" | "broken" | "in-app" }>) {
        const { spaceId, revisionId, page, limit, status, pageId } = ctx.params;
        const query = { spaceId, revisionId, page, limit, status };
        return this.serveLinks(ctx, query, pageId);
      },
    },

    /**
     * Internal: imports a website into a new revision made from `revisionId` (a change request's),
     * without moving the space. The caller's access is checked by the change-requests service.
     */
    importIntoRevision: {
      visibility: "public",
      params: { ...at, url: urlRule(2048), source: { type: "enum", values: [...IMPORT_SOURCES] } },
      async handler(ctx: Ctx<At & { url: string; source: string }>) {
        if (ctx.params.source !== "website") {
          throw new BadRequestError(`Invalid parameters: 'source': importing from "${ctx.params.source}" is not supported; only "website" is.`);
        }
        const space = await this.spaces.findOne({ id: ctx.params.spaceId });
        if (!space || space.deletedAt) throw new NotFoundError(`Space ${ctx.params.spaceId} was not found.`);
        const base = await this.loadRevision(space.id, ctx.params.revisionId);
        const settings = this.importSettings;
        const site = await importWebsite(ctx.params.url, {
          fetch: importFetch(settings.allowedPrivateTargets),
          maxPages: settings.maxPages,
          maxBytesTotal: settings.maxBytesTotal,
          timeoutMs: settings.timeoutMs,
        });
        const { revision } = await this.commitChanges(space, base, changesForPaths(base.pages, site.pages), { move: false });
        return { revision: revision.id, importedResources: site.importedResources, totalResources: site.totalResources };
      },
    },

    /** Internal, no access check: revisions' trees with document ids (the input of a three-way merge). */
    revisionTrees: {
      visibility: "public",
      params: { spaceId: idRule, revisionIds: { type: "array", items: idRule, min: 1, max: 3 } },
      async handler(ctx: Ctx<{ spaceId: string; revisionIds: string[] }>): Promise<RevisionTree[]> {
        return Promise.all(
          ctx.params.revisionIds.map(async (id) => {
            const r = await this.loadRevision(ctx.params.spaceId, id);
            return { id: r.id, pages: r.pages, files: r.files, reusableContents: r.reusableContents, variables: r.variables };
          }),
        );
      },
    },

    /** Internal, no access check: page bodies by document id. */
    documentBodies: {
      visibility: "public",
      params: { ids: { type: "array", items: idRule, max: 1000 } },
      async handler(ctx: Ctx<{ ids: string[] }>): Promise<Record<string, string>> {
        const docs = ctx.params.ids.length ? await this.documents.find({ id: op.in(ctx.params.ids) }) : [];
        return Object.fromEntries(docs.map((d) => [d.id, d.markdown]));
      },
    },

    /**
     * Internal: stores a revision of the space made of whole trees (a merge result), with `parents`.
     * Every page body and file it names must already be stored (they come from revisions of the space).
     * It does not move the space: `commitRevision` does, by compare-and-swap.
     */
    storeRevision: {
      visibility: "public",
      params: {
        spaceId: idRule,
        parents: { type: "array", items: idRule, min: 1, max: 2 },
        pages: { type: "array", items: "object" },
        files: { type: "array", items: "object" },
        reusableContents: { type: "array", items: "object" },
        variables: { type: "record", key: { type: "string", max: 64 }, value: { type: "string", max: 256 } },
      },
      async handler(ctx: Ctx<{ spaceId: string; parents: string[] } & Omit<RevisionTree, "id">>) {
        const space = await this.spaces.findOne({ id: ctx.params.spaceId });
        if (!space || space.deletedAt) throw new NotFoundError(`Space ${ctx.params.spaceId} was not found.`);
        for (const parent of ctx.params.parents) await this.loadRevision(space.id, parent);
        const pages = structuredClone(ctx.params.pages);
        normalizePaths(pages);
        const revision: RevisionDoc = {
          id: newId(),
          spaceId: space.id,
          parents: ctx.params.parents,
          type: "edits",
          pages,
          files: ctx.params.files,
          reusableContents: ctx.params.reusableContents,
          variables: ctx.params.variables,
          createdAt: this.nowIso(),
        };
        await this.revisions.insert(revision);
        return { revision: revision.id };
      },
    },
  },
};
