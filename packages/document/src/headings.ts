// The one markdown-it parser of page Markdown and the anchors of its headings, shared by the renderer
// (render-html.ts: the `id` of each rendered heading) and the search sections (sections.ts: each
// section's anchor), so a search result's `#anchor` always names a heading of the rendered page.
import MarkdownIt from "markdown-it";
import { slugifyHeading, UniqueAnchors } from "@docshelf/slugs";

export type Token = MarkdownIt.Token;

/** Raw HTML off (it is shown as text), bare URLs linked, no typographic replacements. */
export const markdownIt = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** The heading text as the site renderer reads it: text and inline code, no markup. */
export function headingText(inline: Token | undefined): string {
  if (!inline?.children) return inline?.content ?? "";
  return inline.children.map((child) => (child.type === "text" || child.type === "code_inline" ? child.content : "")).join("");
}

export interface HeadingAnchor {
  /** Index of the heading's `heading_open` token. */
  index: number;
  /** 1 to 6. */
  level: number;
  /** The heading's text without markup, trimmed. */
  title: string;
  /** GitBook-style anchor (`slugifyHeading`), made unique in the page with `-1`, `-2`… */
  anchor: string;
}

/** GitBook's explicit heading anchor, written after the title: `## Title <a href="#id" id="id"></a>`. */
const EXPLICIT_ANCHOR = /\s*<a href="#([^"<>]+)" id="\1"><\/a>\s*$/;

/**
 * A heading's title and the anchor it asks for: GitBook's explicit `<a href="#id" id="id"></a>` after
 * the title when written, else the title slugified. Shared by the renderer and the search sections.
 */
export function headingTitleAnchor(text: string): { title: string; anchor: string } {
  const explicit = EXPLICIT_ANCHOR.exec(text);
  // Inline HTML (`<b>`, `<mark>`) is markup, not title: the renderer shows it as such.
  const title = (explicit ? text.slice(0, explicit.index) : text).replace(/<\/?[a-zA-Z][^<>]*>/g, "").trim();
  return { title, anchor: explicit ? explicit[1] : slugifyHeading(title) };
}

/** Every heading of parsed tokens, ATX and setext alike, in document order, with its anchor. */
export function headingAnchors(tokens: Token[], anchors = new UniqueAnchors()): HeadingAnchor[] {
  const headings: HeadingAnchor[] = [];
  tokens.forEach((token, index) => {
    if (token.type !== "heading_open") return;
    const { title, anchor } = headingTitleAnchor(headingText(tokens[index + 1]));
    headings.push({ index, level: Number(token.tag.slice(1)), title, anchor: anchors.take(anchor) });
  });
  return headings;
}
