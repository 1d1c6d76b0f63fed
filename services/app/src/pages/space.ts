// Space pages: the page tree, a rendered page, the change requests; a change request's summary with its
// pages, its editor (Markdown with a preview) and its comments.
import { html, trusted, type Html } from "../html";
import { isTooLarge, withContext, type PageDiff } from "../diff";
import { csrfField, layout, type Viewer } from "./layout";
import { timeOf } from "./time";

export interface TreeNode {
  id: string;
  title: string;
  path: string;
  type: string;
  pages?: TreeNode[];
}
export interface SpaceView {
  id: string;
  title?: string;
  emoji?: string;
  organization?: string;
}
export interface ChangeRequestView {
  id: string;
  number: number;
  subject?: string;
  status?: string;
  createdBy?: { displayName?: string };
  /** ISO times (the API's, carried as they come). */
  createdAt?: unknown;
  updatedAt?: unknown;
  /** Main moved since the change request last took it in. */
  outdated?: boolean;
}

const STATUS_LABEL: Record<string, string> = { draft: "draft", open: "open", merged: "merged", archived: "archived" };

/** A change request's status as a badge (draft, open, merged, archived). */
export function statusBadge(status: string | undefined): Html {
  const known = status && STATUS_LABEL[status] ? status : "unknown";
  return html`<span class="status status-${known}">${STATUS_LABEL[known] ?? "unknown"}</span>`;
}
export interface ReviewView {
  id: string;
  status: string;
  outdated?: boolean;
  reviewer?: { displayName?: string };
}
export interface CommentView {
  id: string;
  replies?: number;
  postedBy?: { displayName?: string };
  body?: { markdown?: string };
  postedAt?: string;
}

/** The first page a reader lands on: the first document page of the tree. */
export function firstDocument(pages: TreeNode[]): TreeNode | undefined {
  for (const page of pages) {
    if (page.type === "document") return page;
    const inner = firstDocument(page.pages ?? []);
    if (inner) return inner;
  }
  return undefined;
}

/** Trees up to this many pages are shown whole; larger ones show only the branch of the current page. */
export const FULL_TREE_PAGES = 500;
/** Most entries one level of a large tree shows (plus the one on the current page's way). */
export const LEVEL_WINDOW = 200;

function countPages(pages: TreeNode[], limit: number): number {
  let n = 0;
  for (const p of pages) {
    n += 1 + countPages(p.pages ?? [], limit - n);
    if (n > limit) break;
  }
  return n;
}

/** Whether `node` is the current page or one of its ancestors (paths nest: `guide/setup` is under `guide`). */
function onTheWay(node: TreeNode, current: string | undefined): boolean {
  return current !== undefined && (node.path === current || current.startsWith(`${node.path}/`) || containsPath(node.pages ?? [], current));
}

function containsPath(pages: TreeNode[], current: string): boolean {
  return pages.some((p) => p.path === current || containsPath(p.pages ?? [], current));
}

/**
 * The page tree as nested lists. A space of thousands of pages would make every page megabytes long:
 * above FULL_TREE_PAGES only the current page's branch is open, and each level shows its first
 * LEVEL_WINDOW entries (and the one leading to the current page) with a count of the rest.
 */
export function pageTree(pages: TreeNode[], base: string, current: string | undefined, whole = countPages(pages, FULL_TREE_PAGES) <= FULL_TREE_PAGES): Html {
  if (!pages.length) return html``;
  const shown = whole ? pages : pages.filter((p, i) => i < LEVEL_WINDOW || onTheWay(p, current));
  const more = pages.length - shown.length;
  return html`<ul>${shown.map(
    (p) =>
      html`<li>${p.type === "group" ? html`<strong>${p.title}</strong>` : html`<a href="${base}/${p.path}"${p.path === current ? trusted(' aria-current="page"') : ""}>${p.title}</a>`}${whole || onTheWay(p, current) ? pageTree(p.pages ?? [], base, current, whole) : ""}</li>`,
  )}${more > 0 ? html`<li class="meta">${more} more pages: use search</li>` : ""}</ul>`;
}

export function spacePage(
  viewer: Viewer,
  space: SpaceView,
  tree: TreeNode[],
  current: { id?: string; title: string; path: string; html: string } | undefined,
  changeRequests: ChangeRequestView[],
  /** The current page's comments (undefined: none shown, e.g. no page). */
  comments?: ShownComment[],
  now = Date.now(),
  /** Whether the viewer may edit the space (create change requests). */
  canEdit = true,
): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  const crs = html`<section id="change-requests"><h2>Change requests</h2>
${changeRequests.length ? html`<ul class="change-requests">${changeRequests.map((cr) => html`<li>${statusBadge(cr.status)} <a href="${base}/~/changes/${cr.number}">#${cr.number} ${cr.subject || "Untitled"}</a> <span class="meta">${cr.createdBy?.displayName ? `by ${cr.createdBy.displayName}, ` : ""}updated ${timeOf(cr.updatedAt ?? cr.createdAt, now)}</span></li>`)}</ul>` : html`<p class="meta">None in progress.</p>`}
${
  canEdit
    ? html`<form method="post" action="${base}/~/changes">${csrfField(viewer)}
<label for="subject">New change request</label>
<input type="text" id="subject" name="subject" maxlength="200" placeholder="What it changes">
<p><button type="submit" name="status" value="draft">Create change request</button> <button type="submit" name="status" value="open" class="secondary">Create, ready for review</button></p>
<p class="meta">A new change request is a draft (work in progress) until it is marked ready for review.</p>
</form>`
    : ""
}</section>`;
  return layout(
    current ? `${current.title} · ${space.title ?? "Space"}` : (space.title ?? "Space"),
    viewer,
    html`<p class="meta">${space.organization ? html`<a href="/o/${encodeURIComponent(space.organization)}">Organization</a> › ` : ""}<a href="${base}">${space.emoji ? `${space.emoji} ` : ""}${space.title ?? space.id}</a></p>
${searchForm(space.id)}
<p class="meta"><a href="${base}/~/files">Files</a> · <a href="${base}/~/history">History</a> · <a href="${base}/~/settings">Space settings</a></p>
${current ? html`<article><h1>${current.title}</h1>${trusted(current.html)}</article>${current.id ? html`<p class="meta"><a href="${base}/~/history?page=${encodeURIComponent(current.id)}">History of this page</a></p>` : ""}` : html`<h1>${space.title ?? space.id}</h1><p class="meta">This space has no page yet.</p>`}
${current && comments ? commentsSection(viewer, `${base}/${current.path}`, comments, now) : ""}
${crs}`,
    pageTree(tree, base, current?.path),
  );
}

export interface SearchHitView {
  id: string;
  title: string;
  path: string;
  sections?: Array<{ id: string; title?: string; path: string; body?: string }>;
}

export function searchForm(spaceId: string, query = ""): Html {
  return html`<form method="get" action="/s/${encodeURIComponent(spaceId)}/~/search" role="search">
<label for="q">Search this space</label><input type="text" id="q" name="q" value="${query}" maxlength="512"> <button type="submit">Search</button></form>`;
}

export function searchPage(viewer: Viewer, space: SpaceView, tree: TreeNode[], query: string, hits: SearchHitView[]): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  return layout(
    `Search: ${query} · ${space.title ?? "Space"}`,
    viewer,
    html`<p class="meta"><a href="${base}">${space.title ?? space.id}</a> › search</p>
<h1>Search</h1>
${searchForm(space.id, query)}
${
  !query
    ? ""
    : hits.length
      ? html`<ol class="search-results">${hits.map(
          (h) => html`<li><a href="${base}/${h.path}">${h.title}</a>${(h.sections ?? []).length ? html`<ul>${(h.sections ?? []).map((sec) => html`<li><a href="${base}/${sec.path}">${sec.title || h.title}</a><p class="meta">${sec.body ?? ""}</p></li>`)}</ul>` : ""}</li>`,
        )}</ol>`
      : html`<p>Nothing matches “${query}”.</p>`
}`,
    pageTree(tree, base, undefined),
  );
}

export interface FileView {
  id: string;
  name: string;
  contentType?: string;
  size?: number;
  downloadURL?: string;
}

export function filesPage(viewer: Viewer, space: SpaceView, tree: TreeNode[], files: FileView[]): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  return layout(
    `Files · ${space.title ?? "Space"}`,
    viewer,
    html`<p class="meta"><a href="${base}">${space.title ?? space.id}</a> › files</p>
<h1>Files</h1>
${
  files.length
    ? html`<table><thead><tr><th>Name</th><th>Type</th><th>Size</th></tr></thead><tbody>${files.map(
        (f) =>
          html`<tr><td>${f.downloadURL && /^https?:[/][/]/i.test(f.downloadURL) ? html`<a href="${f.downloadURL}">${f.name}</a>` : f.name}</td><td>${f.contentType ?? ""}</td><td>${f.size ?? ""}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No file in this space.</p>`
}`,
    pageTree(tree, base, undefined),
  );
}

/** Largest file an upload form takes (the API's inline file limit of `insert_files`). */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

/** A change request's files, and (while it is open or a draft) the form that uploads one into it. */
export function changeRequestFilesPage(viewer: Viewer, space: SpaceView, cr: ChangeRequestView, tree: TreeNode[], files: FileView[], error?: string): string {
  const spaceBase = `/s/${encodeURIComponent(space.id)}`;
  const base = `${spaceBase}/~/changes/${cr.number}`;
  return layout(
    `Files · #${cr.number} ${cr.subject || "Untitled"}`,
    viewer,
    html`<p class="meta"><a href="${spaceBase}">${space.title ?? space.id}</a> › <a href="${base}">#${cr.number} ${cr.subject || "Untitled"}</a> › files</p>
<h1>Files</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
${
  files.length
    ? html`<table><thead><tr><th>Name</th><th>Type</th><th>Size</th></tr></thead><tbody>${files.map(
        (f) =>
          html`<tr><td>${f.downloadURL && /^https?:[/][/]/i.test(f.downloadURL) ? html`<a href="${f.downloadURL}">${f.name}</a>` : f.name}</td><td>${f.contentType ?? ""}</td><td>${f.size ?? ""}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="meta">No file in this change request.</p>`
}
${
  cr.status === "open" || cr.status === "draft"
    ? html`<form method="post" action="${base}/~files" enctype="multipart/form-data">${csrfField(viewer)}<input type="hidden" name="intent" value="upload">
<label for="file">Upload a file (at most 1 MB)</label><input type="file" id="file" name="file" required>
<p><button type="submit">Upload</button></p></form>`
    : ""
}`,
    pageTree(tree, base, undefined),
  );
}

export function changeRequestPage(
  viewer: Viewer,
  space: SpaceView,
  cr: ChangeRequestView,
  tree: TreeNode[],
  current: { title: string; path: string; html: string } | undefined,
  comments: ShownComment[],
  reviews: ReviewView[] = [],
  /** The shown page against main: its line diff (or too large), "new" when main has no such page. */
  diff?: PageDiff | "new",
  /** Where the page's own diff is shown when it is too large here. */
  diffLink?: string,
  now = Date.now(),
  /** What the viewer may do (the space's permissions): mark it ready (edit), merge it. */
  can: { edit: boolean; merge: boolean } = { edit: true, merge: true },
  /** Whether the viewer watches it and how many do; undefined when they may not watch it (not a member). */
  watch?: { watching: boolean; watchers: number },
): string {
  const spaceBase = `/s/${encodeURIComponent(space.id)}`;
  const base = `${spaceBase}/~/changes/${cr.number}`;
  const inProgress = cr.status === "open" || cr.status === "draft";
  return layout(
    `#${cr.number} ${cr.subject || "Untitled"}`,
    viewer,
    html`<p class="meta"><a href="${spaceBase}">${space.title ?? space.id}</a> › change request</p>
<h1>#${cr.number} ${cr.subject || "Untitled"}</h1>
<p class="meta">Status: ${statusBadge(cr.status)} · opened${cr.createdBy?.displayName ? ` by ${cr.createdBy.displayName}` : ""} ${timeOf(cr.createdAt, now)}${cr.updatedAt && cr.updatedAt !== cr.createdAt ? html`, updated ${timeOf(cr.updatedAt, now)}` : ""} · <a href="${base}/~diff">Changes</a> · <a href="${base}/~pages">Arrange pages</a> · <a href="${base}/~files">Files</a></p>
${
  can.edit && cr.status === "draft"
    ? html`<form method="post" action="${base}" class="ready">${csrfField(viewer)}<p>This change request is a draft. <button type="submit" name="intent" value="ready">Ready for review</button></p></form>`
    : can.edit && cr.status === "open"
      ? html`<form method="post" action="${base}" class="ready">${csrfField(viewer)}<p class="meta">Open for review. <button type="submit" name="intent" value="to-draft" class="small">Back to draft</button></p></form>`
      : ""
}
${watch ? watchForm(viewer, base, watch) : ""}
${cr.outdated ? html`<p class="notice">Main changed since this change request was made: <a href="${base}/~diff#conflicts">see its changes and any conflicts</a>.</p>` : ""}
${
  current
    ? html`<article><h2>${current.title}</h2><p><a href="${base}/${current.path}?edit=blocks">Edit this page</a> · <a href="${base}/${current.path}?edit=1">Edit the Markdown</a></p>${trusted(current.html)}</article>
${diffSection(diff, diffLink)}`
    : html`<p class="meta">Pick a page on the left to read or edit it in this change request.</p>`
}
${
  cr.status === "open" || cr.status === "draft"
    ? html`<form method="post" action="${base}">${csrfField(viewer)}<input type="hidden" name="intent" value="add-page">
<label for="page-title">New page or group</label><input type="text" id="page-title" name="title" required maxlength="200" placeholder="Its title" aria-describedby="page-group-help">
<p class="meta" id="page-group-help">A group is a heading of the top level that holds pages; it has no content of its own.</p>
<p><button type="submit" name="kind" value="page">Add page</button> <button type="submit" name="kind" value="group">Add group</button></p></form>`
    : ""
}
<section id="reviews"><h2>Reviews</h2>
${reviews.length ? html`<ul>${reviews.map((r) => html`<li>${r.reviewer?.displayName ?? "Someone"}: ${r.status === "approved" ? "approved" : "requested changes"}${r.outdated ? " (before the latest changes)" : ""}</li>`)}</ul>` : html`<p class="meta">No review yet.</p>`}
${
  inProgress
    ? html`<form method="post" action="${base}">${csrfField(viewer)}<p><button type="submit" name="intent" value="approve" class="secondary">Approve</button> <button type="submit" name="intent" value="request-changes" class="secondary">Request changes</button></p></form>`
    : ""
}
</section>
${
  inProgress && can.merge
    ? html`<section id="merge" class="merge"><h2>Merge</h2><p>Merging writes this change request’s pages into the space’s main content, for every reader; it cannot be undone here.</p>
<form method="post" action="${base}">${csrfField(viewer)}<input type="hidden" name="intent" value="merge">
<p><input type="checkbox" id="merge-confirm" name="confirm" value="yes" required> <label for="merge-confirm" class="inline">Yes, merge #${cr.number} into main</label></p>
<p><button type="submit" class="merge">Merge</button></p></form></section>`
    : ""
}
${commentsSection(viewer, base, comments, now)}`,
    pageTree(tree, base, current?.path),
  );
}

/** Watch or stop watching (issue 39): watchers are notified of new comments, replies, review requests and the merge. */
function watchForm(viewer: Viewer, base: string, watch: { watching: boolean; watchers: number }): Html {
  const others = watch.watchers - (watch.watching ? 1 : 0);
  const count = others === 0 ? "" : watch.watching ? ` You and ${others} other ${others === 1 ? "person" : "people"} watch it.` : ` ${others} ${others === 1 ? "person watches" : "people watch"} it.`;
  return html`<form method="post" action="${base}" class="watch" id="watch">${csrfField(viewer)}<p class="meta">${
    watch.watching
      ? html`You watch this change request: you are notified of its comments, replies, review requests and merge.${count} <button type="submit" name="intent" value="unwatch" class="small secondary">Unwatch</button>`
      : html`Watch this change request to be notified of its comments, replies, review requests and merge.${count} <button type="submit" name="intent" value="watch" class="small secondary">Watch</button>`
  }</p></form>`;
}

export type ShownComment = CommentView & { html: string; replyList?: Array<CommentView & { html: string }> };

/** A thread's comments with their replies, a reply form under each and a comment form; every form posts to `action`. */
export function commentsSection(viewer: Viewer, action: string, comments: ShownComment[], now = Date.now()): Html {
  // The @ suggestions of the comment boxes (client/shell.ts): the space's members who can read it.
  const mentions = action.replace(/^(\/s\/[^/]+).*$/, "$1/~/mentions");
  return html`<section id="comments"><h2>Comments</h2>
${comments.length ? html`<ul>${comments.map((c) => html`<li><p class="meta">${c.postedBy?.displayName ?? "Someone"} ${timeOf(c.postedAt, now)}</p>${trusted(c.html)}
${(c.replyList ?? []).length ? html`<ul class="replies">${(c.replyList ?? []).map((r) => html`<li><p class="meta">${r.postedBy?.displayName ?? "Someone"} ${timeOf(r.postedAt, now)}</p>${trusted(r.html)}</li>`)}</ul>` : ""}
<form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="reply"><input type="hidden" name="comment" value="${c.id}">
<label for="reply-${c.id}">Reply</label><input type="text" id="reply-${c.id}" name="markdown" required maxlength="65536" data-mentions="${mentions}"> <button type="submit">Reply</button></form></li>`)}</ul>` : html`<p class="meta">No comment yet.</p>`}
<form method="post" action="${action}">${csrfField(viewer)}<input type="hidden" name="intent" value="comment">
<label for="comment">Comment</label>
<textarea id="comment" name="markdown" required maxlength="65536" class="short" data-mentions="${mentions}"></textarea>
<p><button type="submit">Comment</button></p>
</form></section>`;
}

/**
 * A line diff as a block: added lines marked +, removed ones −, with a few unchanged lines around each
 * change and longer unchanged runs folded. Too large: how many lines changed, and `link` to the page's own diff.
 */
export function diffLines(diff: PageDiff, link?: string): Html {
  if (isTooLarge(diff)) {
    const count = diff.changed === undefined ? "" : html`, about ${diff.changed} ${diff.changed === 1 ? "line" : "lines"} changed`;
    return html`<p class="meta too-large">Too large to show here${count}.${link ? html` <a href="${link}">Show this page’s changes</a>` : ""}</p>`;
  }
  if (diff.every((l) => l.kind === "same")) return html`<p>No change to the content.</p>`;
  return html`<pre class="diff">${withContext(diff).map((l) =>
    l.kind === "skipped"
      ? html`<span class="meta">  ⋯ ${l.count} unchanged ${l.count === 1 ? "line" : "lines"}</span>
`
      : l.kind === "added"
        ? html`<ins>+ ${l.text}</ins>
`
        : l.kind === "removed"
          ? html`<del>- ${l.text}</del>
`
          : html`  ${l.text}
`,
  )}</pre>`;
}

function diffSection(diff: PageDiff | "new" | undefined, link?: string): Html {
  if (diff === undefined) return html``;
  const body =
    diff === "new"
      ? html`<p>A new page: main has none at this path.</p>`
      : !isTooLarge(diff) && diff.every((l) => l.kind === "same")
        ? html`<p>No change to this page.</p>`
        : diffLines(diff, link);
  return html`<section id="diff"><h2>Changes against main</h2>${body}</section>`;
}

/** JSON placed in a `<script type="application/json">`: nothing in it can close the element or start markup. */
function scriptJson(value: unknown): Html {
  return trusted(JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026"));
}

/**
 * The block editor (client/editor.ts): the page's GitBook document and the change request's pages (for
 * the link picker) in JSON data blocks, the editor's
 * script and stylesheet (served by the app, hashed names), saves posted back to the page's address.
 * Without script the page says so and links the Markdown editor.
 */
export function blockEditorPage(
  viewer: Viewer,
  space: SpaceView,
  cr: ChangeRequestView,
  page: { title: string; path: string },
  document: unknown,
  pages: Array<{ id: string; title: string; path: string }>,
  assets: { js: string; css: string },
  live: { url: string; revision: string },
): string {
  const base = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}`;
  return layout(
    `Edit ${page.title}`,
    viewer,
    html`<p class="meta"><a href="${base}">#${cr.number} ${cr.subject || "Untitled"}</a> › editing</p>
<h1>Edit ${page.title}</h1>
<div class="editor-bar"><span id="save-status" role="status" aria-live="polite">Loading the editor…</span>
<a href="${base}/${page.path}?edit=1">Markdown source</a> · <a href="${base}/${page.path}">Done</a></div>
<div id="editor-app" data-save="${base}/${page.path}" data-files="${base}/~files" data-csrf="${viewer.csrf}" data-collab="${live.url}" data-revision="${live.revision}"><ul id="editor-people" class="editor-people" aria-label="Editing now"></ul><div id="editor"></div></div>
<noscript><p class="notice">The block editor needs JavaScript: <a href="${base}/${page.path}?edit=1">edit the Markdown instead</a>.</p></noscript>
<script type="application/json" id="editor-document">${scriptJson(document)}</script>
<script type="application/json" id="editor-pages">${scriptJson(pages)}</script>`,
    undefined,
    html`
<link rel="stylesheet" href="${assets.css}">
<script src="${assets.js}" defer></script>`,
  );
}

export function editPage(
  viewer: Viewer,
  space: SpaceView,
  cr: ChangeRequestView,
  page: { title: string; path: string },
  markdown: string,
  preview: string | undefined,
  error?: string,
): string {
  const base = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}`;
  return layout(
    `Edit ${page.title}`,
    viewer,
    html`<p class="meta"><a href="${base}">#${cr.number} ${cr.subject || "Untitled"}</a> › editing</p>
<h1>Edit ${page.title}</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="${base}/${page.path}">${csrfField(viewer)}
<p class="meta"><a href="${base}/${page.path}?edit=blocks">Back to the block editor</a></p>
<label for="markdown">Markdown</label>
<textarea id="markdown" name="markdown" maxlength="1000000">
${markdown}</textarea>
<p><button type="submit" name="intent" value="preview">Preview</button> <button type="submit" name="intent" value="save">Save in the change request</button></p>
</form>
${preview !== undefined ? html`<section class="preview" aria-label="Preview"><h2>Preview</h2>${trusted(preview)}</section>` : ""}`,
  );
}
