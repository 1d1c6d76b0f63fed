// Internal, for change requests: reading a given revision of a space (a change request's), importing a
// website onto it, the trees and bodies a merge needs, and storing a merged revision.
// The reads check the caller's access to the space as the HTTP reads do; the change-requests service
// checks that the revision is its change request's before it asks.
import type { Readable } from "node:stream";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { jsonStream, readJson } from "@docshelf/runtime";
import { listParams } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule, urlRule, contentReadFlags as flags, pageReadFlags as pageFlags } from "@docshelf/validation";
import type { RevisionDoc } from "./models";
import { presentPage } from "./present";
import { importWebsite } from "./website-import";
import { commitChanges } from "./revisions/commit";
import { changesForPaths, findPageByPath, normalizePaths, type FileMeta, type PageNode, type ReusableContentMeta } from "./revisions/tree";
import { viewFor } from "./computed";
import { serveFile, serveFiles, servePage, serveRevision } from "./content-answers";
import { serveFileBacklinks, serveLinks } from "./link-reports";
import type { ContentActions, Ctx } from "./service-types";
import { IMPORT_SOURCES, importFetch } from "./import-fetch";
import { convertOffThread } from "./off-thread";

const at = { spaceId: idRule, revisionId: idRule } as const;

interface At {
  spaceId: string;
  revisionId: string;
  metadata?: boolean;
  computed?: boolean;
}
interface PageQuery extends At {
  format?: "document" | "markdown";
  evaluated?: boolean;
}

/** A revision's content as the merge of change requests sees it: trees with document ids; change requests read its pages as `RevisionTreePage` (@docshelf/contracts/content). */
export interface RevisionTree {
  id: string;
  pages: PageNode[];
  files: FileMeta[];
  reusableContents: ReusableContentMeta[];
  variables: Record<string, string>;
}

/** What `storeRevision` stores: a revision's content without its id. */
type RevisionBody = Omit<RevisionTree, "id">;

function isRevisionBody(value: unknown): value is RevisionBody {
  const body = value as Partial<RevisionBody> | null;
  return (
    !!body &&
    Array.isArray(body.pages) &&
    Array.isArray(body.files) &&
    Array.isArray(body.reusableContents) &&
    !!body.variables &&
    typeof body.variables === "object" &&
    Object.values(body.variables).every((v) => typeof v === "string")
  );
}

export const revisionsInternalActions: ContentActions = {
  /** Internal: a revision of the space as `GET …/content` answers it. */
  readRevision: {
    visibility: "public",
    params: { ...at, ...flags },
    async handler(ctx: Ctx<At>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      return serveRevision(this, ctx, space, view?.revision ?? revision, ctx.params.metadata ?? true, view?.variant);
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
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const pages = (view?.revision ?? revision).pages;
      return this.respondJson(ctx, `pages:${revision.id}:${metadata}${view ? `:${view.variant}` : ""}`, () => ({ pages: pages.map((p) => presentPage(p, opts)) }));
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
      const view = await viewFor(this.broker, space, revision, ctx.params.computed);
      const page = pageId ? (view?.index ?? this.pageIndex(revision)).get(pageId) : pagePath ? findPageByPath((view?.revision ?? revision).pages, pagePath) : undefined;
      if (!page) throw new NotFoundError(pageId ? `Page ${pageId} was not found in the change request.` : `No page has the path "${pagePath ?? ""}".`);
      // As JSON text, a stream when long: a page as a document can pass a transporter message's size (a page of
      // 74 KB of headings is a 2.4 MB document), and the change request passes the answer on to the gateway.
      const resource = await servePage(this, space, revision, page, ctx.params, view?.bodies.get(page.id));
      return this.respondJson(ctx, null, () => resource);
    },
  },

  readFiles: {
    visibility: "public",
    params: { ...at, ...listParams, ...flags },
    async handler(ctx: Ctx<At & { page?: string; limit?: number }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveFiles(this, revision, ctx.params);
    },
  },

  readFile: {
    visibility: "public",
    params: { ...at, fileId: idRule, ...flags },
    async handler(ctx: Ctx<At & { fileId: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveFile(this, revision, ctx.params.fileId, ctx.params.metadata, "the change request");
    },
  },

  readFileBacklinks: {
    visibility: "public",
    params: { ...at, fileId: idRule, ...listParams },
    async handler(ctx: Ctx<At & { fileId: string; page?: string; limit?: number }>) {
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveFileBacklinks(this, ctx, space, role, revision, ctx.params, "the change request");
    },
  },

  readPageLinks: {
    visibility: "public",
    params: { ...at, pageId: idRule, ...listParams, status: { type: "enum", values: ["ok", "broken", "in-app"], optional: true } },
    async handler(ctx: Ctx<At & { pageId: string; page?: string; limit?: number; status?: "ok" | "broken" | "in-app" }>) {
      const { spaceId, revisionId, page, limit, status, pageId } = ctx.params;
      const query = { spaceId, revisionId, page, limit, status };
      return serveLinks(this, ctx, query, pageId);
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
        convert: convertOffThread(this, space.organizationId),
      });
      const { revision } = await commitChanges(this, space, base, changesForPaths(base.pages, site.pages), { move: false });
      return { revision: revision.id, importedResources: site.importedResources, totalResources: site.totalResources };
    },
  },

  /**
   * Internal, no access check: revisions' trees with document ids (the input of a three-way merge).
   * With `stream` the same array comes as a stream of JSON text (large spaces exceed one NATS message).
   */
  revisionTrees: {
    visibility: "public",
    params: { spaceId: idRule, revisionIds: { type: "array", items: idRule, min: 1, max: 3 }, stream: { type: "boolean", optional: true } },
    async handler(ctx: Ctx<{ spaceId: string; revisionIds: string[]; stream?: boolean }>): Promise<RevisionTree[] | Readable> {
      const trees = await Promise.all(
        ctx.params.revisionIds.map(async (id) => {
          const r = await this.loadRevision(ctx.params.spaceId, id);
          return { id: r.id, pages: r.pages, files: r.files, reusableContents: r.reusableContents, variables: r.variables };
        }),
      );
      return ctx.params.stream ? jsonStream(trees) : trees;
    },
  },

  /** Internal, no access check: page bodies by document id; with `stream`, as a stream of JSON text. */
  documentBodies: {
    visibility: "public",
    params: { ids: { type: "array", items: idRule, max: 1000 }, stream: { type: "boolean", optional: true } },
    async handler(ctx: Ctx<{ ids: string[]; stream?: boolean }>): Promise<Record<string, string> | Readable> {
      const docs = ctx.params.ids.length ? await this.documents.find({ id: op.in(ctx.params.ids) }) : [];
      const bodies = Object.fromEntries(docs.map((d) => [d.id, d.markdown]));
      return ctx.params.stream ? jsonStream(bodies) : bodies;
    },
  },

  /**
   * Internal: stores a revision of the space made of whole trees (a merge result), with `parents`.
   * Every page body and file it names must already be stored (they come from revisions of the space).
   * It does not move the space: `commitRevision` does, by compare-and-swap. The content comes in the
   * params, or (large spaces: more than one NATS message) as a stream of its JSON text with only
   * `spaceId` and `parents` in the params.
   */
  storeRevision: {
    visibility: "public",
    params: {
      spaceId: idRule,
      parents: { type: "array", items: idRule, min: 1, max: 2 },
      pages: { type: "array", items: "object", optional: true },
      files: { type: "array", items: "object", optional: true },
      reusableContents: { type: "array", items: "object", optional: true },
      variables: { type: "record", key: { type: "string", max: 64 }, value: { type: "string", max: 256 }, optional: true },
    },
    async handler(ctx: Ctx<{ spaceId: string; parents: string[] } & Partial<RevisionBody>>) {
      const body: unknown = ctx.stream ? await readJson(ctx.stream as unknown as NodeJS.ReadableStream) : ctx.params;
      if (!isRevisionBody(body)) throw new BadRequestError("Invalid parameters: 'pages', 'files', 'reusableContents' and 'variables' are required.");
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!space || space.deletedAt) throw new NotFoundError(`Space ${ctx.params.spaceId} was not found.`);
      for (const parent of ctx.params.parents) await this.loadRevision(space.id, parent);
      // A streamed body was parsed here, so it is ours to change; params may be shared with the caller.
      const pages = ctx.stream ? body.pages : structuredClone(body.pages);
      normalizePaths(pages);
      const revision: RevisionDoc = {
        id: newId(),
        spaceId: space.id,
        parents: ctx.params.parents,
        type: "edits",
        pages,
        files: body.files,
        reusableContents: body.reusableContents,
        variables: body.variables,
        createdAt: this.nowIso(),
      };
      await this.revisions.insert(revision);
      return { revision: revision.id };
    },
  },
};
