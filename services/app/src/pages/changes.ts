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

/** A page just deleted, as it was before (to undo the delete). */
export interface DeletedPage {
  id: string;
  title: string;
  revision: string;
  ids: string[];
}

/**
 * The change request's pages, each with the moves it can make (Up, Down, Nest, Un-nest: the keyboard's and the
 * no-script way), rename and delete forms, and a form adding a page under any of them. With the app's script
 * (client/tree.ts) the rows are dragged onto each other (the hidden `tree-place` form) and titles renamed in place.
 */
export function arrangePage(viewer: Viewer, space: SpaceView, cr: ChangeRequestView, tree: TreeNode[], canEdit: boolean, error?: string, deleted?: DeletedPage): string {
  const base = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}`;
  const editable = canEdit && active(cr);
  const action = `${base}/~pages`;
  const pageForm = (p: TreeNode, intent: string, body: Html, cls = "inline") =>
    html`<form method="post" action="${action}" class="${cls}">${csrfField(viewer)}<input type="hidden" name="intent" value="${intent}"><input type="hidden" name="page" value="${p.id}">${body}</form>`;
  const rows = (pages: TreeNode[], top: boolean): Html =>
    html`<ol class="arrange"${top && editable ? html` id="page-tree" data-arrange="true"` : ""}>${pages.map((p) => {
      const moves = editable ? possibleMoves(tree, p.id) : new Set<Direction>();
      return html`<li><div class="tree-row" data-page="${p.id}" data-type="${p.type}"><span class="page-title">${p.title}</span>${p.type === "group" ? html` <span class="meta tree-kind">group</span>` : ""}${
        moves.size
          ? html` <form method="post" action="${action}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="move"><input type="hidden" name="page" value="${p.id}">${[...moves].map(
              (d) => html` <button type="submit" name="direction" value="${d}" class="small">${LABELS[d]}<span class="visually-hidden"> ${p.title} ${DESCRIBED[d]}</span></button>`,
            )}</form>`
          : ""
      }${
        editable
          ? html` <details class="rename inline"><summary class="small">Rename<span class="visually-hidden"> ${p.title}</span></summary>${pageForm(
              p,
              "rename",
              html`<label class="visually-hidden" for="title-${p.id}">New title of ${p.title}</label><input type="text" id="title-${p.id}" name="title" value="${p.title}" required maxlength="200"> <button type="submit" class="small">Save</button>`,
              "rename-form",
            )}</details> ${pageForm(p, "delete", html`<button type="submit" class="small">Delete<span class="visually-hidden"> ${p.title}</span></button>`)}`
          : ""
      }</div>${p.pages?.length ? rows(p.pages, false) : ""}</li>`;
    })}</ol>`;
  return layout(
    `Pages · #${cr.number} ${cr.subject || "Untitled"}`,
    viewer,
    html`${crHeader(space, cr, "pages")}
<h1>Arrange pages</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
${
  deleted && editable
    ? html`<div class="notice" role="status" id="undo-delete"><form method="post" action="${action}" class="inline">${csrfField(viewer)}<input type="hidden" name="intent" value="restore"><input type="hidden" name="page" value="${deleted.id}"><input type="hidden" name="revision" value="${deleted.revision}">Deleted “${deleted.title}”${
        deleted.ids.length > 1 ? ` and ${deleted.ids.length - 1} page${deleted.ids.length > 2 ? "s" : ""} under it` : ""
      }. <button type="submit" class="small">Undo</button></form></div>`
    : ""
}
${editable && tree.length ? html`<p class="meta" id="tree-help">Drag a page onto another to put it before, inside or after it; or use its Up, Down, Nest and Un-nest buttons.</p>` : ""}
${tree.length ? rows(tree, true) : html`<p class="meta">No page yet.</p>`}
${
  editable
    ? html`<form method="post" action="${action}" id="tree-place" hidden>${csrfField(viewer)}<input type="hidden" name="intent" value="place"><input type="hidden" name="page" value=""><input type="hidden" name="target" value=""><input type="hidden" name="position" value=""></form>
<form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="add-page">
<label for="new-title">New page or group</label><input type="text" id="new-title" name="title" required maxlength="200">
<label for="new-parent">Under</label><select id="new-parent" name="parent" aria-describedby="new-group-help"><option value="">the top level</option>${flatten(tree)
        .filter((f) => f.page.type !== "link")
        .map((f) => html`<option value="${f.page.id}">${"— ".repeat(f.depth)}${f.page.title}</option>`)}</select>
<p class="meta" id="new-group-help">A group is a heading of the top level that holds pages; it has no content of its own.</p>
<p><button type="submit" name="kind" value="page">Add page</button> <button type="submit" name="kind" value="group">Add group</button></p></form>`
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
