// A change request's content: every Space content read on its own revision, and editing it (updateChangeRequestContent).
import { call, type Action } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import { ConflictError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule, contentReadFlags as flags, pageReadFlags as pageFlags } from "@docshelf/validation";
import { MAX_CHANGES, OPERATIONS, checkChanges, linksToPageRefs, resolvePageRefs, revertPage, toContentChanges, type RevertChange } from "./content-changes";
import type { TreeContent } from "./merge";
import { ancestorOf } from "./present";
import type { ChangeRequestDoc } from "./models";
import type { ChangeRequestsActions, ChangeRequestsService, Ctx, SpaceSeen } from "./service-types";
import { isActive } from "./status-rules";

const at = { spaceId: idRule, changeRequestId: { type: "string", min: 1, max: 64 } } as const;
type At = { spaceId: string; changeRequestId: string } & Record<string, unknown>;

/** Calls one of content's revision reads (`action`, named in full) on the change request's revision, as the caller. */
function read(action: Action<Record<string, unknown>, unknown>, params: Record<string, unknown>): ChangeRequestsActions[string] {
  return {
    params: { ...at, ...params },
    async handler(ctx: Ctx<At>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const { changeRequestId: _ref, ...rest } = ctx.params;
      return call(ctx, action, { ...rest, spaceId: cr.spaceId, revisionId: cr.revision });
    },
  };
}

export const changeRequestContentActions: ChangeRequestsActions = {
  getRevision: read(content.readRevision, flags),
  listPages: read(content.readPages, flags),
  getPage: read(content.readPage, { pageId: idRule, ...pageFlags }),
  getPageByPath: read(content.readPage, { pagePath: { type: "string", min: 1, max: 2048 }, ...pageFlags }),
  listFiles: read(content.readFiles, { ...listParams, ...flags }),
  getFile: read(content.readFile, { fileId: idRule, ...flags }),
  getReusableContent: read(content.readReusableContent, { reusableContentId: idRule, ...flags }),
  listFileBacklinks: read(content.readFileBacklinks, { fileId: idRule, ...listParams }),
  listPageLinks: read(content.readPageLinks, { pageId: idRule, ...listParams, status: { type: "enum", values: ["ok", "broken", "in-app"], optional: true } }),

  /**
   * GET …/changes (`limit` 1–1000, default 10) — read role; GitBook's getChangeRequestChanges: the semantic
   * changes of the change request's revision against its base (main's revision at its last update from
   * main, else when it was made), as content's getRevisionSemanticChanges answers them.
   */
  listChanges: {
    params: { ...at, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true, convert: true } },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; limit?: number }>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
      return ctx.call("content.semanticChangesBetween", { spaceId: cr.spaceId, from: base, to: cr.revision, ...(ctx.params.limit ? { limit: ctx.params.limit } : {}) });
    },
  },

  /** POST …/content/import — edit role; a website's pages become a new revision of the change request. */
  importContent: {
    params: { ...at, url: { type: "string", min: 1, max: 2048 }, source: { type: "string", min: 1, max: 64 } },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; url: string; source: string }>) {
      const { space, cr, caller } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      this.requireRole(space, "edit", "Importing content");
      if (!isActive(cr.status)) throw new ConflictError(`A ${cr.status} change request cannot be edited.`);
      const imported = await call(ctx, content.importIntoRevision, {
        spaceId: cr.spaceId,
        revisionId: cr.revision,
        url: ctx.params.url,
        source: ctx.params.source,
      });
      await this.moveRevision(cr, imported.revision, caller.id);
      ctx.meta.$statusCode = 201;
      ctx.meta.$responseHeaders = { Location: `${this.publicUrl()}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/content` };
      return imported;
    },
  },

  /**
   * POST /spaces/:spaceId/change-requests/:changeRequestId/content — edit role; 1 to 50 of GitBook's
   * changes applied as one new revision of the change request, all or none.
   */
  updateContent: {
    params: {
      ...at,
      changes: { type: "array", min: 1, max: MAX_CHANGES, items: { type: "object", props: { operation: { type: "enum", values: OPERATIONS } } } },
      compat: { type: "boolean", optional: true, convert: true },
    },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; changes: Array<Record<string, unknown>>; compat?: boolean }>) {
      const loaded = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const { space, caller } = loaded;
      this.requireRole(space, "edit", "Editing a change request");
      if (!isActive(loaded.cr.status)) throw new ConflictError(`A ${loaded.cr.status} change request cannot be edited.`);
      checkChanges(ctx.params.changes);
      // The changes name no revision they were made on (GitBook's API takes none), so an edit that lands while another
      // moves the change request (the editor's save beside an image's upload, two writers at once) is applied again
      // on top of the other instead of failing with 409; only a change request no longer open refuses it.
      for (let attempt = 1; ; attempt += 1) {
        const cr = attempt === 1 ? loaded.cr : await this.loadChangeRequest(ctx.params.spaceId, ctx.params.changeRequestId);
        if (!isActive(cr.status)) throw new ConflictError(`A ${cr.status} change request cannot be edited.`);
        try {
          return await applyEdit.call(this, ctx, space, cr, caller.id);
        } catch (err) {
          if (!(err instanceof MovedMeanwhile) || attempt >= EDIT_ATTEMPTS) throw err;
        }
      }
    },
  },
};

const EDIT_ATTEMPTS = 8;

/** One try of updateContent on `cr` as it was read; MovedMeanwhile when another edit moved it first. */
async function applyEdit(
  this: ChangeRequestsService,
  ctx: Ctx<{ spaceId: string; changeRequestId: string; changes: Array<Record<string, unknown>>; compat?: boolean }>,
  space: SpaceSeen,
  cr: ChangeRequestDoc,
  callerId: string,
) {
  // revert_page needs the page as it is and as it was: read those trees once for the batch.
  const reverts = ctx.params.changes.filter((c) => c.operation === "revert_page") as unknown as RevertChange[];
  const trees = new Map<string, TreeContent>();
  let bodies: Record<string, string> = {};
  // A JSON document's page and file references are ids: its Markdown names them by path.
  const withDocuments = ctx.params.changes.some((c) => (c.document as { document?: unknown } | undefined)?.document !== undefined);
  if (reverts.length || withDocuments) {
    const ids = [...new Set([cr.revision, ancestorOf(cr), ...reverts.flatMap((r) => (r.revision ? [r.revision] : []))])];
    for (const [i, tree] of (await this.trees(ctx, cr.spaceId, ids)).entries()) trees.set(ids[i], tree);
    const documentIds = reverts.flatMap((r) => documentIdOf(trees.get(r.revision ?? ancestorOf(cr))!.pages, r.page) ?? []);
    if (documentIds.length) bodies = await this.documentBodies(ctx, [...new Set(documentIds)]);
  }
  const { changes, touched, insertedFiles, pageRefs } = toContentChanges(
    ctx.params.changes,
    (change, index) =>
      revertPage(
        change.page,
        trees.get(cr.revision)!,
        trees.get(change.revision ?? ancestorOf(cr))!,
        bodies,
        index,
        // The pages this batch brings back before this one (a deleted page's subtree, parents first).
        new Set(ctx.params.changes.slice(0, index).flatMap((c) => (c.operation === "revert_page" && typeof c.page === "string" ? [c.page] : []))),
      ),
    newId,
    knownRefs(trees.get(cr.revision)),
  );

  const applied = await call(ctx, content.applyChanges, { spaceId: cr.spaceId, revisionId: cr.revision, changes, move: false });
  // Links to pages of the batch by ref (`./<ref>.md`) need their paths: known once applied, so a
  // second revision on top rewrites them before the change request moves (to it only).
  let revision = applied.revision;
  const linking = changes.flatMap((c) =>
    (c.type === "insert_page" || c.type === "update_page") && c.markdown !== undefined && linksToPageRefs(c.markdown, pageRefs) ? [c.type === "insert_page" ? c.id : c.page] : [],
  );
  if (linking.length) {
    const [tree] = await this.trees(ctx, cr.spaceId, [revision]);
    const paths = new Map<string, { path: string; documentId?: string }>();
    const visit = (pages: TreeContent["pages"]) =>
      pages.forEach((p) => {
        if (typeof p.path === "string") paths.set(p.id, { path: p.path, documentId: typeof p.documentId === "string" ? p.documentId : undefined });
        visit(p.pages);
      });
    visit(tree.pages);
    const targets = linking.flatMap((id) => (id && paths.get(id)?.documentId ? [{ id, ...paths.get(id)! }] : []));
    const bodies = await this.documentBodies(ctx, [...new Set(targets.map((t) => t.documentId as string))]);
    const fixes = targets.map((t) => ({
      type: "update_page" as const,
      page: t.id,
      markdown: resolvePageRefs(bodies[t.documentId as string] ?? "", t.path, pageRefs, (id) => paths.get(id)?.path),
    }));
    if (fixes.length) {
      const second = await call(ctx, content.applyChanges, { spaceId: cr.spaceId, revisionId: revision, changes: fixes, move: false });
      revision = second.revision;
    }
  }
  const updated = await this.moveRevision(cr, revision, callerId).catch((err: unknown) => {
    throw err instanceof ConflictError ? new MovedMeanwhile(err.message) : err;
  });

  const [resource] = await this.present(ctx, [updated], space.revision);
  if (ctx.params.compat !== false) return resource;
  const inserted = [...applied.pages];
  const pageRef = (id: string) => ({ object: "page", id, urls: { location: `${this.publicUrl()}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/content/page/${id}` } });
  const seen = new Set<string>();
  const outcomes = touched.flatMap((t): Array<Record<string, unknown>> => {
    const id = t.kind === "created_page" ? inserted.shift() : t.page;
    if (!id || seen.has(id)) return [];
    seen.add(id);
    if (t.kind === "deleted_page") return [{ object: "deleted_page", page: id }];
    return [{ object: t.kind, ...(t.ref ? { ref: t.ref } : {}), page: pageRef(id) }];
  });
  const files = insertedFiles.length ? await call(ctx, content.readFiles, { spaceId: cr.spaceId, revisionId: revision, limit: 1000 }) : { items: [] };
  const fileItems = (files.items as Array<{ id: string }>).filter((f) => insertedFiles.includes(f.id));
  return { changeRequest: resource, changes: outcomes, ...(fileItems.length ? { insertedFiles: fileItems } : {}) };
}

/** The change request moved (another edit, an update from main, a merge) between reading it and moving it. */
class MovedMeanwhile extends ConflictError {}

/** Paths of the pages and names of the files of a change request's tree, for documents' references. */
function knownRefs(tree: TreeContent | undefined): { pagePath(id: string): string | undefined; fileName(id: string): string | undefined } {
  const paths = new Map<string, string>();
  const visit = (pages: TreeContent["pages"]) => {
    for (const page of pages) {
      if (typeof page.path === "string") paths.set(page.id, page.path);
      visit(page.pages);
    }
  };
  visit(tree?.pages ?? []);
  const names = new Map((tree?.files ?? []).flatMap((f) => (typeof f.name === "string" ? [[f.id, f.name] as const] : [])));
  return { pagePath: (id) => paths.get(id), fileName: (id) => names.get(id) };
}

/** The body id of a page of a tree, if it has one. */
function documentIdOf(pages: TreeContent["pages"], pageId: string): string | undefined {
  for (const page of pages) {
    if (page.id === pageId) return typeof page.documentId === "string" ? page.documentId : undefined;
    const inner = documentIdOf(page.pages, pageId);
    if (inner) return inner;
  }
  return undefined;
}
