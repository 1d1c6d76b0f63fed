// `/app/jump`: the jump to a space or page without script (the header's “Jump to…” link; with script,
// Ctrl/Cmd-K and that link open client/shell.ts's dialog instead, over the same list in JSON).
import { html } from "../html";
import { layout, type Viewer } from "./layout";

export interface JumpItem {
  kind: "space" | "page";
  title: string;
  /** The organization of a space, the space of a page. */
  where: string;
  url: string;
}

export function jumpPage(viewer: Viewer, query: string, spaceId: string, items: JumpItem[], total: number): string {
  return layout(
    "Jump to a space or page",
    viewer,
    html`<h1>Jump to a space or page</h1>
<form method="get" action="/app/jump" role="search">
<label for="jump-q">Space or page</label><input type="search" id="jump-q" name="q" value="${query}" maxlength="200" autocomplete="off">
${spaceId ? html`<input type="hidden" name="space" value="${spaceId}">` : ""}
<p><button type="submit">Find</button></p>
</form>
<p class="meta" id="jump-count">${query ? `${total} ${total === 1 ? "match" : "matches"}${total > items.length ? `, the first ${items.length} shown` : ""}` : "Your spaces:"}</p>
${items.length ? html`<ul class="jump-results">${items.map((item) => html`<li><a href="${item.url}">${item.title}</a> <span class="meta">${item.kind} · ${item.where}</span></li>`)}</ul>` : ""}
<p class="meta">Tip: <kbd>Ctrl</kbd> <kbd>K</kbd> (<kbd>⌘</kbd> <kbd>K</kbd> on a Mac) opens this from any page.</p>`,
  );
}
