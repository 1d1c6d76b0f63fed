// Space pages: the page tree, a rendered page, the change requests; a change request's summary with its
// pages, its editor (Markdown with a preview) and its comments.
import { html, trusted, type Html } from "../html";
import { csrfField, layout, type Viewer } from "./layout";

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

export function pageTree(pages: TreeNode[], base: string, current: string | undefined): Html {
  if (!pages.length) return html``;
  return html`<ul>${pages.map(
    (p) =>
      html`<li>${p.type === "group" ? html`<strong>${p.title}</strong>` : html`<a href="${base}/${p.path}"${p.path === current ? trusted(' aria-current="page"') : ""}>${p.title}</a>`}${pageTree(p.pages ?? [], base, current)}</li>`,
  )}</ul>`;
}

export function spacePage(
  viewer: Viewer,
  space: SpaceView,
  tree: TreeNode[],
  current: { title: string; path: string; html: string } | undefined,
  changeRequests: ChangeRequestView[],
): string {
  const base = `/s/${encodeURIComponent(space.id)}`;
  const crs = html`<section id="change-requests"><h2>Change requests</h2>
${changeRequests.length ? html`<ul>${changeRequests.map((cr) => html`<li><a href="${base}/~/changes/${cr.number}">#${cr.number} ${cr.subject || "Untitled"}</a> <span class="meta">${cr.status ?? ""}</span></li>`)}</ul>` : html`<p class="meta">None in progress.</p>`}
<form method="post" action="${base}/~/changes">${csrfField(viewer)}
<label for="subject">New change request</label>
<input type="text" id="subject" name="subject" maxlength="200" placeholder="What it changes">
<p><button type="submit">Create change request</button></p>
</form></section>`;
  return layout(
    current ? `${current.title} · ${space.title ?? "Space"}` : (space.title ?? "Space"),
    viewer,
    html`<p class="meta">${space.organization ? html`<a href="/o/${encodeURIComponent(space.organization)}">Organization</a> › ` : ""}<a href="${base}">${space.emoji ? `${space.emoji} ` : ""}${space.title ?? space.id}</a></p>
${searchForm(space.id)}
${current ? html`<article><h1>${current.title}</h1>${trusted(current.html)}</article>` : html`<h1>${space.title ?? space.id}</h1><p class="meta">This space has no page yet.</p>`}
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

export function changeRequestPage(
  viewer: Viewer,
  space: SpaceView,
  cr: ChangeRequestView,
  tree: TreeNode[],
  current: { title: string; path: string; html: string } | undefined,
  comments: Array<CommentView & { html: string; replyList?: Array<CommentView & { html: string }> }>,
  reviews: ReviewView[] = [],
): string {
  const spaceBase = `/s/${encodeURIComponent(space.id)}`;
  const base = `${spaceBase}/~/changes/${cr.number}`;
  return layout(
    `#${cr.number} ${cr.subject || "Untitled"}`,
    viewer,
    html`<p class="meta"><a href="${spaceBase}">${space.title ?? space.id}</a> › change request</p>
<h1>#${cr.number} ${cr.subject || "Untitled"}</h1>
<p class="meta">Status: ${cr.status ?? "unknown"}${cr.createdBy?.displayName ? html` · opened by ${cr.createdBy.displayName}` : ""}</p>
${
  current
    ? html`<article><h2>${current.title}</h2><p><a href="${base}/${current.path}?edit=1">Edit this page</a></p>${trusted(current.html)}</article>`
    : html`<p class="meta">Pick a page on the left to read or edit it in this change request.</p>`
}
${
  cr.status === "open" || cr.status === "draft"
    ? html`<form method="post" action="${base}">${csrfField(viewer)}<input type="hidden" name="intent" value="add-page">
<label for="page-title">New page</label><input type="text" id="page-title" name="title" required maxlength="200" placeholder="Its title">
<p><button type="submit">Add page</button></p></form>`
    : ""
}
<section id="reviews"><h2>Reviews</h2>
${reviews.length ? html`<ul>${reviews.map((r) => html`<li>${r.reviewer?.displayName ?? "Someone"}: ${r.status === "approved" ? "approved" : "requested changes"}${r.outdated ? " (before the latest changes)" : ""}</li>`)}</ul>` : html`<p class="meta">No review yet.</p>`}
${
  cr.status === "open" || cr.status === "draft"
    ? html`<form method="post" action="${base}" class="inline">${csrfField(viewer)}<button type="submit" name="intent" value="approve">Approve</button> <button type="submit" name="intent" value="request-changes">Request changes</button></form>
<form method="post" action="${base}" class="inline">${csrfField(viewer)}<button type="submit" name="intent" value="merge">Merge</button></form>`
    : ""
}
</section>
<section id="comments"><h2>Comments</h2>
${comments.length ? html`<ul>${comments.map((c) => html`<li><p class="meta">${c.postedBy?.displayName ?? "Someone"} ${c.postedAt ?? ""}</p>${trusted(c.html)}
${(c.replyList ?? []).length ? html`<ul class="replies">${(c.replyList ?? []).map((r) => html`<li><p class="meta">${r.postedBy?.displayName ?? "Someone"} ${r.postedAt ?? ""}</p>${trusted(r.html)}</li>`)}</ul>` : ""}
<form method="post" action="${base}">${csrfField(viewer)}<input type="hidden" name="intent" value="reply"><input type="hidden" name="comment" value="${c.id}">
<label for="reply-${c.id}">Reply</label><input type="text" id="reply-${c.id}" name="markdown" required maxlength="65536"> <button type="submit">Reply</button></form></li>`)}</ul>` : html`<p class="meta">No comment yet.</p>`}
<form method="post" action="${base}">${csrfField(viewer)}<input type="hidden" name="intent" value="comment">
<label for="comment">Comment</label>
<textarea id="comment" name="markdown" required maxlength="65536" class="short"></textarea>
<p><button type="submit">Comment</button></p>
</form></section>`,
    pageTree(tree, base, current?.path),
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
<label for="markdown">Markdown</label>
<textarea id="markdown" name="markdown" maxlength="1000000">
${markdown}</textarea>
<p><button type="submit" name="intent" value="preview">Preview</button> <button type="submit" name="intent" value="save">Save in the change request</button></p>
</form>
${preview !== undefined ? html`<section class="preview" aria-label="Preview"><h2>Preview</h2>${trusted(preview)}</section>` : ""}`,
  );
}
