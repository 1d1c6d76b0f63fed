// A space's history in the app (`/s/{space}/~/history`, `~/revisions/{id}[/{page path}]`, `~/compare`):
// its revisions newest first, read by walking first parents from the current revision (the API lists no
// revisions: content.revisionLog answers a page's worth as the user, then they are kept, since revisions never change),
// each merged change request's revision named with it (`revisionMerged`); one revision's pages; the
// semantic changes between two revisions page by page with line diffs of the changed pages (diff.ts);
// and a page restored from an old revision as a new change request, for those who may edit the space.
import * as changeRequests from "@docshelf/contracts/change-requests";
import * as contentApi from "@docshelf/contracts/content";
import { renderMarkdown } from "@docshelf/document";
import { sharedWorkerPool } from "@docshelf/worker-pool";
import type { As } from "./admin";
import { pageChanges } from "./conflicts";
import { contentChanged, markdownIn } from "./revision-pages";
import { compareOffThread, DiffCache, PAGE_LIMITS, requestBudget, SINGLE_PAGE_LIMITS, type PageDiff } from "./diff";
import { page, redirect, type AppAnswer, type AppRequest } from "./http";
import { badForm, notFound, PageError } from "./page-error";
import { comparePage, historyPage, HISTORY_PAGE_SIZE, revisionPage, type ComparedPage, type HistoryEntry } from "./pages/history";
import type { Viewer } from "./pages/layout";
import { firstDocument, type TreeNode } from "./pages/space";

/** Merged change requests read to name the revisions they made (the newest first). */
const MERGED_READ = 300;
/** Pages whose content is read and diffed on one compare page; the others link to their own diff. */
const MAX_DIFFED_PAGES = 20;
/** Semantic changes one compare page lists. */
const MAX_CHANGES = 1000;

const REVISION_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface RevisionSummary {
  id: string;
  createdAt?: string;
  parents: string[];
}

/**
 * Revision summaries by space and id. Read only after `content.getSpace` answered the user (the permission
 * check) and only through that space; revisions never change, so an entry is never stale.
 */
const SUMMARIES_KEPT = 5000;
const summaries = new Map<string, RevisionSummary>();

/** Revisions one `content.revisionLog` call asks for: a history page's worth and the one after it. */
const LOG_READ = HISTORY_PAGE_SIZE + 1;

/**
 * The summary of revision `revisionId`, kept; on a miss, `content.revisionLog` (as the user: getRevision's
 * access check) answers it and the revisions behind it along first parents, a history page's worth, which are
 * kept too, so a page's walk usually makes one call. The history's cost: one revisionLog a page the first
 * time (it reads small revision heads, never pages), and one more after each jump to a change request's base.
 * A log shorter than asked ended where the space's own history does: at a revision without parents, or at a
 * duplicated space's first revision, whose parent is the source space's (not readable through this space):
 * that revision is kept without parents, so the walk ends there instead of failing on the parent.
 */
async function summaryOf(as: As, spaceId: string, revisionId: string): Promise<RevisionSummary> {
  const key = `${spaceId}\u0000${revisionId}`;
  const hit = summaries.get(key);
  if (hit) return hit;
  const log = await as(contentApi.revisionLog, { spaceId, revisionId, limit: LOG_READ });
  // The log starts at `revisionId` (else it is a 404).
  if (log[0]?.id !== revisionId) throw notFound();
  const ended = log.length < LOG_READ;
  // Whether the last one's first parent is walkable is known only when the log ended: else it is read again later.
  const known = ended ? log : log.slice(0, -1);
  const read = known.map((entry, i): RevisionSummary => ({
    id: entry.id,
    createdAt: entry.createdAt,
    parents: ended && i === known.length - 1 ? [] : entry.parents,
  }));
  for (const summary of read) {
    summaries.set(`${spaceId}\u0000${summary.id}`, summary);
    if (summaries.size > SUMMARIES_KEPT) summaries.delete(summaries.keys().next().value as string);
  }
  return read[0];
}

function summarize(revision: contentApi.RevisionResource): RevisionSummary {
  const parents = Array.isArray(revision.parents) ? revision.parents.filter((p): p is string => typeof p === "string") : [];
  return { id: revision.id, createdAt: typeof revision.createdAt === "string" ? revision.createdAt : undefined, parents };
}

type MergedChangeRequest = changeRequests.ChangeRequestResource & { revisionMerged?: string; revisionInitial?: string; revisionMergedAncestor?: string };

/** The space's merged change requests (the newest MERGED_READ) by the revision their merge made. */
async function mergedByRevision(as: As, spaceId: string): Promise<Map<string, MergedChangeRequest>> {
  const byRevision = new Map<string, MergedChangeRequest>();
  let pageToken: string | undefined;
  for (let read = 0; read < MERGED_READ; read += 100) {
    const listed = await as(changeRequests.list, { spaceId, status: "merged", limit: 100, ...(pageToken ? { page: pageToken } : {}) });
    for (const cr of listed.items as MergedChangeRequest[]) {
      // A change request without changes "merges" into main's revision as it was: that revision is not its.
      if (typeof cr.revisionMerged === "string" && cr.revisionMerged !== baseOf(cr) && !byRevision.has(cr.revisionMerged)) byRevision.set(cr.revisionMerged, cr);
    }
    pageToken = listed.next?.page;
    if (!pageToken) break;
  }
  return byRevision;
}

/** The main revision a change request last took in (its update from main, else the one it started from). */
function baseOf(cr: MergedChangeRequest): string | undefined {
  return typeof cr.revisionMergedAncestor === "string" ? cr.revisionMergedAncestor : typeof cr.revisionInitial === "string" ? cr.revisionInitial : undefined;
}

/**
 * The revision before `revision` on main. A merge that had to combine two sides has main first among its
 * parents; a fast-forward merge made the change request's own last revision main's, whose parents are the
 * change request's earlier edits: main's revision before it is the change request's base.
 */
function previousOnMain(revision: RevisionSummary, merged: MergedChangeRequest | undefined): string | undefined {
  if (merged && revision.parents.length < 2) return baseOf(merged) ?? revision.parents[0];
  return revision.parents[0];
}

/** A revision id from the path or a query: anything else is not found (or, for a form's field, a 400). */
function revisionIdOf(value: string | undefined): string | undefined {
  return value !== undefined && REVISION_ID.test(value) ? value : undefined;
}

function canEdit(space: contentApi.SpaceResource): boolean {
  return (space.permissions as { edit?: unknown } | undefined)?.edit === true;
}

/**
 * `GET …/~/history[?at=revision][&page=pageId]`: HISTORY_PAGE_SIZE revisions from `at` (the current one by
 * default) back; with `page`, only those of them that changed that page (what each changed of it).
 */
async function history(as: As, req: AppRequest, viewer: Viewer, space: contentApi.SpaceResource): Promise<AppAnswer> {
  const at = req.query.at;
  const start = at === undefined || at === "" ? space.revision : revisionIdOf(at);
  if (!start) throw badForm("'at' must be a revision id of this space.");
  const pageId = req.query.page === "" ? undefined : req.query.page;
  if (pageId !== undefined && !REVISION_ID.test(pageId)) throw badForm("'page' must be a page id.");
  const merged = await mergedByRevision(as, space.id);
  const entries: HistoryEntry[] = [];
  const seen = new Set<string>();
  let next: string | undefined = start;
  while (next && entries.length < HISTORY_PAGE_SIZE && !seen.has(next)) {
    seen.add(next);
    const revision = await summaryOf(as, space.id, next);
    const cr = merged.get(revision.id);
    next = previousOnMain(revision, cr);
    entries.push({
      id: revision.id,
      createdAt: revision.createdAt,
      parent: next,
      ...(cr ? { changeRequest: { number: cr.number, subject: cr.subject, createdBy: cr.createdBy } } : {}),
    });
  }
  const older = next && !seen.has(next) ? next : undefined;
  const forPage = pageId ? await pageHistory(as, space, entries, pageId) : undefined;
  return page(200, historyPage(viewer, space, space.revision, forPage?.entries ?? entries, older, start !== space.revision, Date.now(), forPage?.page));
}

/**
 * The entries that changed page `pageId` (each revision against the one before it on main, the API's
 * semantic changes, read after the walk's reads answered the user), with what they changed of it, and the
 * page's title (its newest among them, else "this page").
 */
async function pageHistory(as: As, space: contentApi.SpaceResource, entries: HistoryEntry[], pageId: string): Promise<{ entries: HistoryEntry[]; page: { id: string; title: string } }> {
  const found = await Promise.all(
    entries.map(async (e): Promise<{ kinds: string[]; title?: string } | undefined> => {
      if (!e.parent) {
        // The space's first revision: the page is new in it when it is there.
        const first = findById((await as(contentApi.getRevision, { spaceId: space.id, revisionId: e.id, metadata: false })).pages, pageId);
        return first ? { kinds: ["added"], title: first.title } : undefined;
      }
      const listed = await as(contentApi.semanticChangesBetween, { spaceId: space.id, from: e.parent, to: e.id, limit: MAX_CHANGES });
      const mine = pageChanges(listed.changes).find((p) => p.id === pageId);
      if (mine) return { kinds: mine.kinds, title: mine.title };
      // Past the changes read: it may have changed the page too.
      return listed.more > 0 ? { kinds: [] } : undefined;
    }),
  );
  const title =
    found.find((f) => f?.title)?.title ??
    (await as(contentApi.getPageInRevision, { spaceId: space.id, revisionId: entries[0]?.id ?? space.revision, pageId }).then(
      (p) => p.title,
      () => "this page",
    ));
  const kept = entries.flatMap((e, i) => {
    const f = found[i];
    return f ? [{ ...e, pageKinds: f.kinds }] : [];
  });
  return { entries: kept, page: { id: pageId, title } };
}

/** The page of a tree at `path`, or undefined. */
function pageAt(pages: TreeNode[], path: string): TreeNode | undefined {
  for (const p of pages) {
    if (p.path === path) return p;
    const inner = pageAt(p.pages ?? [], path);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * `…/~/revisions/{id}[/{page path}]`: the revision's pages and one of them rendered (the first document by
 * default); a POST with intent `restore` writes that page's content into a new change request.
 */
async function revision(as: As, req: AppRequest, viewer: Viewer, space: contentApi.SpaceResource, ref: string, pagePath: string): Promise<AppAnswer> {
  const revisionId = revisionIdOf(ref);
  if (!revisionId) throw notFound();
  const post = req.method === "POST";
  if (post && (!pagePath || req.form?.intent !== "restore")) throw notFound();
  if (post && !canEdit(space)) throw new PageError(403, "Forbidden", "Only people who may edit this space can restore a page from its history.");
  const tree = await as(contentApi.getRevision, { spaceId: space.id, revisionId });
  const summary = summarize(tree);
  const target = pagePath ? pageAt(tree.pages, pagePath) : firstDocument(tree.pages);
  if (pagePath && (!target || target.type !== "document")) throw notFound();
  const content = target ? await as(contentApi.getPageInRevision, { spaceId: space.id, revisionId, pageId: target.id, format: "markdown" }) : undefined;
  if (post && content) return restore(as, space, revisionId, content);
  const shown = content && { id: content.id, title: content.title, path: content.path, html: renderMarkdown(content.markdown ?? "").html };
  return page(200, revisionPage(viewer, space, { id: revisionId, createdAt: summary.createdAt, current: space.revision }, tree.pages, shown, canEdit(space), Date.now()));
}

/**
 * A new change request holding the page as it was in `revisionId`: `update_page` (title and content) when the
 * page is still in the space, else `insert_page` at the top level; the user lands on it.
 */
async function restore(as: As, space: contentApi.SpaceResource, revisionId: string, old: contentApi.PageResource): Promise<AppAnswer> {
  const current = await as(contentApi.getCurrentRevision, { spaceId: space.id, metadata: false });
  const now = findById(current.pages, old.id);
  const subject = `Restore “${old.title}” from revision ${revisionId}`.slice(0, 200);
  const cr = await as(changeRequests.create, { spaceId: space.id, subject });
  const ref = { spaceId: space.id, changeRequestId: cr.id };
  const markdown = old.markdown ?? "";
  const spaceBase = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}`;
  if (now) {
    await as(changeRequests.updateContent, { ...ref, changes: [{ operation: "update_page", page: old.id, ...(now.title !== old.title ? { title: old.title } : {}), document: { markdown } }] });
    const restored = await as(changeRequests.getRevision, ref);
    const path = findById(restored.pages, old.id)?.path;
    return redirect(path ? `${spaceBase}/${path}` : spaceBase);
  }
  await as(changeRequests.updateContent, { ...ref, changes: [{ operation: "insert_page", title: old.title, document: { markdown } }] });
  return redirect(spaceBase);
}

function findById(pages: TreeNode[], id: string): TreeNode | undefined {
  for (const p of pages) {
    if (p.id === id) return p;
    const inner = findById(p.pages ?? [], id);
    if (inner) return inner;
  }
  return undefined;
}

/** Diffs between two revisions, kept by revisions and page (see DiffCache). */
const diffCache = new DiffCache();



/**
 * `GET …/~/compare?from=&to=[&page=]`: what changed from one revision to the other (the API's semantic
 * changes, read once both revisions answered the user), page by page, the first MAX_DIFFED_PAGES changed
 * pages with their line diffs, bounded as a change request's changes page is (`requestBudget`).
 */
async function compare(as: As, req: AppRequest, viewer: Viewer, space: contentApi.SpaceResource): Promise<AppAnswer> {
  const field = (name: "from" | "to"): string => {
    const value = req.query[name];
    if (value === undefined || value === "") throw badForm(`'${name}' is missing: pick two revisions to compare.`);
    const id = revisionIdOf(value);
    if (!id) throw badForm(`'${name}' must be a revision id.`);
    return id;
  };
  const fromId = field("from");
  const toId = field("to");
  const only = req.query.page;
  if (only !== undefined && !REVISION_ID.test(only)) throw badForm("'page' must be a page id.");
  // Both as the user first (each must be this space's): the semantic changes action checks nothing itself.
  const [from, to] = await Promise.all([summaryOf(as, space.id, fromId), summaryOf(as, space.id, toId)]);
  const listed = await as(contentApi.semanticChangesBetween, { spaceId: space.id, from: from.id, to: to.id, limit: MAX_CHANGES });
  const all = pageChanges(listed.changes);
  const pages = only ? all.filter((p) => p.id === only) : all;
  if (only && !pages.length) throw notFound();
  const limits = only ? SINGLE_PAGE_LIMITS : PAGE_LIMITS;
  const budget = only ? { pages: 2, lines: 2 * 2 * SINGLE_PAGE_LIMITS.maxLines, ms: 300 } : requestBudget();
  let reads = only ? 1 : MAX_DIFFED_PAGES;
  const kept = new Map<number, PageDiff>();
  const pending: Array<{ index: number; key: string; texts: Promise<[string, string]> }> = [];
  pages.forEach((p, index) => {
    if (!contentChanged(p)) return;
    const key = [space.id, from.id, to.id, p.id, limits.maxLines, limits.maxEdits].join("\u0000");
    const hit = diffCache.get(key);
    if (hit) kept.set(index, hit);
    else if (reads-- <= 0) kept.set(index, { tooLarge: true });
    else
      pending.push({
        index,
        key,
        texts: Promise.all([p.kinds.includes("added") ? "" : markdownIn(as, space.id, from.id, p.id), p.kinds.includes("removed") ? "" : markdownIn(as, space.id, to.id, p.id)]),
      });
  });
  const texts = await Promise.all(pending.map((d) => d.texts));
  const results = await compareOffThread(sharedWorkerPool(), texts.map(([before, after]) => ({ before, after })), budget, limits);
  pending.forEach((d, i) => {
    kept.set(d.index, results[i].diff);
    if (results[i].deterministic) diffCache.set(d.key, results[i].diff);
  });
  const shown: ComparedPage[] = pages.map((p, i) => ({ ...p, diff: kept.get(i) }));
  return page(200, comparePage(viewer, space, from, to, shown, only ? 0 : listed.more, Date.now(), only));
}

/** The history's routes under `/s/{space}/~/`, or undefined when the path is not one of them. */
export function historyRoute(as: As, req: AppRequest, viewer: Viewer, space: contentApi.SpaceResource, kind: string | undefined, ref: string | undefined, rest: string[]): Promise<AppAnswer> | undefined {
  const post = req.method === "POST";
  if (kind === "history" && ref === undefined && !post) return history(as, req, viewer, space);
  if (kind === "compare" && ref === undefined && !post) return compare(as, req, viewer, space);
  if (kind === "revisions" && ref) return revision(as, req, viewer, space, ref, rest.join("/"));
  return undefined;
}
