// A change request's pages arranged (move up, down, under the page before, out of the parent; add a
// page anywhere) and its changes page by page, with the pages that conflict with main.
import { html, type Html } from "../html";
import { isTooLarge, type PageDiff } from "../diff";
import { flatten, possibleMoves, type Direction } from "../arrange";
import type { PageChanges, PageConflict } from "../conflicts";
import { csrfField, layout, type Viewer } from "./layout";
import { diffLines, pageTree, type ChangeRequestView, type SpaceView, type TreeNode } from "./space";

const LABELS: Record<Direction, string> = { up: "Up", down: "Down", in: "Nest", out: "Un-nest" };
const DESCRIBED: Record<Direction, string> = { up: "up", down: "down", in: "under the page above", out: "out of its parent" };

function crHeader(space: SpaceView, cr: ChangeRequestView, what: string): Html {
  const spaceBase = `/s/${encodeURIComponent(space.id)}`;
  const base = `${spaceBase}/~/changes/${cr.number}`;
  return html`<p class="meta"><a href="${spaceBase}">${space.title ?? space.id}</a> › <a href="${base}">#${cr.number} ${cr.subject || "Untitled"}</a> › ${what}</p>`;
}

function active(cr: ChangeRequestView): boolean {
  return cr.status === "open" || cr.status === "draft";
}

/** The change request's pages, each with the moves it can make, and a form adding a page under any of them. */
export function arrangePage(viewer: Viewer, space: SpaceView, cr: ChangeRequestView, tree: TreeNode[], canEdit: boolean, error?: string): string {
  const base = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}`;
  const editable = canEdit && active(cr);
  const rows = (pages: TreeNode[]): Html =>
    html`<ol class="arrange">${pages.map((p) => {
      const moves = editable ? possibleMoves(tree, p.id) : new Set<Direction>();
      return html`<li><span class="page-title">${p.title}</span>${
        moves.size
          ? html` <form method="post" action="${base}/~pages" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="move"><input type="hidden" name="page" value="${p.id}">${[...moves].map(
              (d) => html` <button type="submit" name="direction" value="${d}" class="small">${LABELS[d]}<span class="visually-hidden"> ${p.title} ${DESCRIBED[d]}</span></button>`,
            )}</form>`
          : ""
      }${p.pages?.length ? rows(p.pages) : ""}</li>`;
    })}</ol>`;
  return layout(
    `Pages · #${cr.number} ${cr.subject || "Untitled"}`,
    viewer,
    html`${crHeader(space, cr, "pages")}
<h1>Arrange pages</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
${tree.length ? rows(tree) : html`<p class="meta">No page yet.</p>`}
${
  editable
    ? html`<form method="post" action="${base}/~pages">${csrfField(viewer)}<input type="hidden" name="intent" value="add-page">
<label for="new-title">New page</label><input type="text" id="new-title" name="title" required maxlength="200">
<label for="new-parent">Under</label><select id="new-parent" name="parent"><option value="">the top level</option>${flatten(tree)
        .filter((f) => f.page.type !== "link")
        .map((f) => html`<option value="${f.page.id}">${"— ".repeat(f.depth)}${f.page.title}</option>`)}</select>
<p><button type="submit">Add page</button></p></form>`
    : editable || !active(cr)
      ? ""
      : html`<p class="meta">You can read this change request but not edit it.</p>`
}`,
    pageTree(tree, base, undefined),
  );
}

export interface ShownPageChange extends PageChanges {
  /** The page's Markdown against the base (undefined: not a content change), or too large to show here. */
  diff?: PageDiff;
}

export interface ShownConflict extends PageConflict {
  /** The page's content on each side against the base. */
  oursDiff?: PageDiff;
  theirsDiff?: PageDiff;
}

const KIND_LABEL = { added: "added", removed: "removed", modified: "modified", moved: "moved" } as const;

export function attributeList(p: PageChanges): Html {
  const items = Object.entries(p.attributes)
    .filter(([k]) => k !== "document")
    .map(([k, v]) => html`<li>${k}: “${v.before ?? ""}” → “${v.after ?? ""}”</li>`);
  if (p.parent) items.push(html`<li>moved from ${p.parent.before?.title ?? "the top level"} to ${p.parent.after?.title ?? "the top level"}</li>`);
  return items.length ? html`<ul>${items}</ul>` : html``;
}

/** The change request's changed pages, each with its diff, and (when main moved on) the pages that conflict. */
export function changesPage(
  viewer: Viewer,
  space: SpaceView,
  cr: ChangeRequestView & { outdated?: boolean },
  tree: TreeNode[],
  pages: ShownPageChange[],
  more: number,
  conflicts: ShownConflict[] | undefined,
  /** A merge's refusal with the conflicts it named. */
  refused?: { message: string; items: Array<{ kind: string; id: string; title?: string; reason: string }> },
  /** The id of the one page shown (its own diff, the link from "too large"). */
  only?: string,
): string {
  const base = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}`;
  const pageLink = (id: string) => (only ? undefined : `${base}/~diff?page=${encodeURIComponent(id)}`);
  return layout(
    `Changes · #${cr.number} ${cr.subject || "Untitled"}`,
    viewer,
    html`${crHeader(space, cr, "changes")}
<h1>Changes</h1>
${only ? html`<p class="meta">One page’s changes. <a href="${base}/~diff">All changes</a></p>` : ""}
${
  refused
    ? html`<section class="refused" role="alert"><h2>Merge refused</h2><p>${refused.message}</p>${
        refused.items.length ? html`<ul>${refused.items.map((c) => html`<li>${c.kind} “${c.title ?? c.id}”: ${c.reason}</li>`)}</ul>` : ""
      }</section>`
    : ""
}
${
  conflicts === undefined
    ? cr.outdated
      ? ""
      : html`<p class="meta">Up to date with main.</p>`
    : conflicts.length
      ? html`<section id="conflicts"><h2>Conflicts with main</h2><p>Main changed since this change request was made; these pages changed on both sides and cannot merge as they are.</p>${conflicts.map(
          (c) => html`<article class="page-change"><h3>${c.ours.title}</h3><p>${c.reason}</p>
<h4>In this change request</h4>${c.ours.kinds.includes("removed") ? html`<p>Deleted.</p>` : html`${attributeList(c.ours)}${c.oursDiff !== undefined ? diffLines(c.oursDiff, pageLink(c.ours.id)) : ""}`}
<h4>On main</h4>${c.theirs.kinds.includes("removed") ? html`<p>Deleted.</p>` : html`${attributeList(c.theirs)}${c.theirsDiff !== undefined ? diffLines(c.theirsDiff, pageLink(c.ours.id)) : ""}`}</article>`,
        )}</section>`
      : html`<p class="meta">Main changed since this change request was made, without conflicting pages.</p>`
}
<section id="changed-pages"><h2>Changed pages</h2>
${
  pages.length
    ? html`<ul class="change-list">${pages.map((p) => html`<li><a href="#page-${p.id}">${p.title}</a> <span class="meta">${p.kinds.map((k) => KIND_LABEL[k]).join(", ")}</span></li>`)}</ul>
${pages.map(
  (p) => html`<article class="page-change" id="page-${p.id}"><h3>${p.kinds.includes("removed") ? p.title : html`<a href="${base}/${p.path}">${p.title}</a>`} <span class="meta">${p.kinds.map((k) => KIND_LABEL[k]).join(", ")}</span></h3>
${attributeList(p)}${p.diff !== undefined ? (p.kinds.includes("added") && !isTooLarge(p.diff) && p.diff.every((l) => l.text === "") ? html`<p>A new, empty page.</p>` : diffLines(p.diff, pageLink(p.id))) : ""}</article>`,
)}
${more > 0 ? html`<p class="meta">And ${more} more changes.</p>` : ""}`
    : html`<p class="meta">No page changed.</p>`
}</section>`,
    pageTree(tree, base, undefined),
  );
}
