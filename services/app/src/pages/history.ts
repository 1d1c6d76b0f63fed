// A space's history: its revisions newest first (who, when, the change request that produced them), one
// revision's pages as they were, the changes between two revisions page by page with each changed page's
// diff, and (for those who may edit the space) a page restored from an old revision as a new change request.
import { html, trusted, type Html } from "../html";
import { isTooLarge, type PageDiff } from "../diff";
import type { PageChanges } from "../conflicts";
import { attributeList } from "./changes";
import { csrfField, layout, type Viewer } from "./layout";
import { timeOf } from "./time";
import { diffLines, pageTree, type SpaceView, type TreeNode } from "./space";

/** One revision as the history lists it. */
export interface HistoryEntry {
  id: string;
  createdAt?: string;
  /** The change request whose merge made this revision, when known. */
  changeRequest?: { number: number; subject?: string; createdBy?: { displayName?: string } };
  /** The revision before it (the first parent), when there is one. */
  parent?: string;
  /** On a page's history: what the revision changed of the page (added, removed, modified, moved). */
  pageKinds?: string[];
}

/** Revisions a history page lists. */
export const HISTORY_PAGE_SIZE = 20;

/** The first characters of a revision id, enough to tell revisions apart on a page. */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(-8) : id;
}

function historyBase(space: SpaceView): string {
  return `/s/${encodeURIComponent(space.id)}/~/history`;
}

function crumbs(space: SpaceView, ...after: Array<Html | string>): Html {
  const base = `/s/${encodeURIComponent(space.id)}`;
  return html`<p class="meta"><a href="${base}">${space.title ?? space.id}</a> › ${after.length ? html`<a href="${historyBase(space)}">History</a>` : "History"}${after.map((a) => html` › ${a}`)}</p>`;
}

/**
 * The history list: a row a revision (its link, when, who, the change request), radio buttons picking two of
 * them for the compare form (a GET, no script), and a link to the next, older, page.
 */
export function historyPage(
  viewer: Viewer,
  space: SpaceView,
  current: string,
  entries: HistoryEntry[],
  older: string | undefined,
  paged: boolean,
  now: number,
  /** A page's history: only the revisions that changed it. */
  forPage?: { id: string; title: string },
): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  const pageQuery = forPage ? `page=${encodeURIComponent(forPage.id)}` : "";
  const list = forPage ? `${historyBase(space)}?${pageQuery}` : historyBase(space);
  const changesOf = (e: HistoryEntry, label: string): Html =>
    e.parent
      ? html`<a href="${base}/~/compare?from=${encodeURIComponent(e.parent)}&amp;to=${encodeURIComponent(e.id)}${forPage ? trusted(`&amp;${pageQuery}`) : ""}">${
          forPage ? (e.pageKinds?.length ? e.pageKinds.map((k) => KIND_LABEL[k as keyof typeof KIND_LABEL] ?? k).join(", ") : "Changes") : "Changes"
        }<span class="visually-hidden"> in ${label}</span></a>`
      : html`<span class="meta">${forPage ? "added" : "first"}</span>`;
  const rows = entries.map((e, i) => {
    const label = `revision ${shortId(e.id)}`;
    const author = e.changeRequest?.createdBy?.displayName;
    return html`<tr>
<td><a href="${base}/~/revisions/${encodeURIComponent(e.id)}"><code>${shortId(e.id)}</code></a>${e.id === current ? html` <span class="meta">(current)</span>` : ""}</td>
<td>${timeOf(e.createdAt, now)}</td>
<td>${author ?? html`<span class="meta">not recorded</span>`}</td>
<td>${e.changeRequest ? html`<a href="${base}/~/changes/${e.changeRequest.number}">#${e.changeRequest.number} ${e.changeRequest.subject || "Untitled"}</a>` : html`<span class="meta">—</span>`}</td>
<td>${changesOf(e, label)}</td>
<td><input type="radio" name="from" value="${e.id}" id="from-${i}"${i === 1 || (entries.length === 1 && i === 0) ? trusted(" checked") : ""}><label class="inline visually-hidden" for="from-${i}">Compare from ${label}</label></td>
<td><input type="radio" name="to" value="${e.id}" id="to-${i}"${i === 0 ? trusted(" checked") : ""}><label class="inline visually-hidden" for="to-${i}">Compare to ${label}</label></td>
</tr>`;
  });
  return layout(
    `${forPage ? `History of ${forPage.title}` : "History"} · ${space.title ?? "Space"}`,
    viewer,
    html`${forPage ? crumbs(space, forPage.title) : crumbs(space)}
<h1>${forPage ? `History of “${forPage.title}”` : "History"}</h1>
${forPage ? html`<p class="meta">The revisions that changed this page${paged || older ? `, among ${HISTORY_PAGE_SIZE} of the space’s revisions a page` : ""}. <a href="${historyBase(space)}">All of the space’s revisions</a></p>` : ""}
${
  entries.length
    ? html`<form method="get" action="${base}/~/compare" class="history">
<table><caption class="visually-hidden">Revisions of this space, newest first</caption>
<thead><tr><th scope="col">Revision</th><th scope="col">When</th><th scope="col">Author</th><th scope="col">Change request</th><th scope="col">Its changes</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
<tbody>${rows}</tbody></table>
<p><button type="submit">Compare selected revisions</button></p></form>`
    : html`<p class="meta">${forPage ? "No change to this page in these revisions." : "No revision."}</p>`
}
<p class="meta">${paged ? html`<a href="${list}">Newest revisions</a>` : ""}${paged && older ? " · " : ""}${older ? html`<a href="${historyBase(space)}?at=${encodeURIComponent(older)}${forPage ? trusted(`&amp;${pageQuery}`) : ""}" rel="next">Older revisions</a>` : ""}</p>`,
  );
}

/** One revision's pages, and one of its pages rendered; the restore form for those who may edit the space. */
export function revisionPage(
  viewer: Viewer,
  space: SpaceView,
  revision: { id: string; createdAt?: string; current: string },
  tree: TreeNode[],
  shown: { id: string; title: string; path: string; html: string } | undefined,
  canEdit: boolean,
  now: number,
): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  const here = `${base}/~/revisions/${encodeURIComponent(revision.id)}`;
  const isCurrent = revision.id === revision.current;
  return layout(
    `${shown ? `${shown.title} · ` : ""}${space.title ?? space.id} (revision ${shortId(revision.id)})`,
    viewer,
    html`${crumbs(space, html`revision <code>${shortId(revision.id)}</code>`)}
<p class="notice">${space.title ?? space.id} (revision <code>${revision.id}</code>), ${timeOf(revision.createdAt, now)}${isCurrent ? " — the current revision" : html` — an old revision. <a href="${base}/~/compare?from=${encodeURIComponent(revision.id)}&amp;to=${encodeURIComponent(revision.current)}">Compare with the current revision</a>`}</p>
${
  shown
    ? html`<article><h1>${shown.title}</h1>${trusted(shown.html)}</article>
<p class="meta"><a href="${historyBase(space)}?page=${encodeURIComponent(shown.id)}">History of this page</a></p>
${
  isCurrent
    ? ""
    : canEdit
      ? html`<form method="post" action="${here}/${shown.path}">${csrfField(viewer)}<input type="hidden" name="intent" value="restore">
<p><button type="submit">Restore this page in a new change request</button></p>
<p class="meta">Its content as it was in this revision is written into a new change request, to review and merge.</p></form>`
      : html`<p class="meta">You can read this space’s history but not restore pages.</p>`
}`
    : html`<h1>${space.title ?? space.id}</h1><p class="meta">This revision has no page.</p>`
}`,
    pageTree(tree, here, shown?.path),
  );
}

const KIND_LABEL = { added: "added", removed: "removed", modified: "changed", moved: "moved" } as const;

export interface ComparedPage extends PageChanges {
  /** The page's Markdown from one revision to the other (undefined: its content did not change). */
  diff?: PageDiff;
}

/** The changes from one revision to another, page by page: counts, a list, then each page with its diff. */
export function comparePage(
  viewer: Viewer,
  space: SpaceView,
  from: { id: string; createdAt?: string },
  to: { id: string; createdAt?: string },
  pages: ComparedPage[],
  more: number,
  now: number,
  /** The one page shown (its own diff, the link from "too large"). */
  only?: string,
): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  const compare = `${base}/~/compare?from=${encodeURIComponent(from.id)}&to=${encodeURIComponent(to.id)}`;
  const at = (rev: string, path: string) => `${base}/~/revisions/${encodeURIComponent(rev)}/${path}`;
  const counts = (["added", "removed", "moved", "modified"] as const)
    .map((k) => [k, pages.filter((p) => p.kinds.includes(k)).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${KIND_LABEL[k]}`);
  const pageLink = (id: string) => (only ? undefined : `${compare}&page=${encodeURIComponent(id)}`);
  return layout(
    `Compare · ${space.title ?? "Space"}`,
    viewer,
    html`${crumbs(space, "compare")}
<h1>Changes between two revisions</h1>
<p>From <a href="${base}/~/revisions/${encodeURIComponent(from.id)}"><code>${shortId(from.id)}</code></a> (${timeOf(from.createdAt, now)}) to <a href="${base}/~/revisions/${encodeURIComponent(to.id)}"><code>${shortId(to.id)}</code></a> (${timeOf(to.createdAt, now)}).</p>
${only ? html`<p class="meta">One page’s changes. <a href="${compare}">All changes</a></p>` : ""}
${
  pages.length
    ? html`<p class="summary">${counts.join(", ")}${more > 0 ? `, and ${more} more changes` : ""}.</p>
<ul class="change-list">${pages.map((p) => html`<li><a href="#page-${p.id}">${p.title}</a> <span class="meta">${p.kinds.map((k) => KIND_LABEL[k]).join(", ")}</span></li>`)}</ul>
${pages.map(
  (p) => html`<article class="page-change" id="page-${p.id}"><h2>${p.kinds.includes("removed") ? p.title : html`<a href="${at(to.id, p.path)}">${p.title}</a>`} <span class="meta">${p.kinds.map((k) => KIND_LABEL[k]).join(", ")}</span></h2>
${attributeList(p)}${p.diff !== undefined ? (p.kinds.includes("added") && !isTooLarge(p.diff) && p.diff.every((l) => l.text === "") ? html`<p>A new, empty page.</p>` : diffLines(p.diff, pageLink(p.id))) : ""}</article>`,
)}`
    : html`<p class="meta">No page changed between these revisions.</p>`
}`,
  );
}
