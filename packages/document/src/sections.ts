// A page's markdown cut into sections at its headings, read from markdown-it's tokens: ATX and setext
// headings alike, never a `#` line inside code. Each heading gets the anchor the site renderer gives it.
import MarkdownIt from "markdown-it";
import { slugifyHeading, uniqueAnchor } from "@docshelf/slugs";
import { splitFrontMatter } from "./front-matter";

type Token = MarkdownIt.Token;

export interface MarkdownSection {
  /** 1 to 6; 0 for the text before the first heading. */
  level: number;
  /** The heading's text without markup ("" for the text before the first heading). */
  title: string;
  /** The heading's anchor id without "#", unique in the page ("" for the text before the first heading). */
  anchor: string;
  /** The markdown source of the section's body, between its heading and the next. */
  body: string;
}

// The site renderer's options (services/sites/src/serve/markdown.ts), so headings are read alike.
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** The heading text as the site renderer reads it: text and inline code, no markup. */
export function headingText(inline: Token | undefined): string {
  if (!inline?.children) return inline?.content ?? "";
  return inline.children.map((child) => (child.type === "text" || child.type === "code_inline" ? child.content : "")).join("");
}

/**
 * The sections of a page: first the text before any heading (level 0, always present, maybe empty),
 * then one per heading in document order, with the anchor the site gives it (`slugifyHeading`, made
 * unique with `-1`, `-2`…). Front matter is not part of any section.
 */
export function markdownSections(markdown: string): MarkdownSection[] {
  const { body } = splitFrontMatter(markdown);
  const lines = body.split("\n");
  const tokens = md.parse(body, {});
  const used = new Set<string>();
  const headings: Array<{ level: number; title: string; anchor: string; start: number; end: number }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== "heading_open" || !token.map) continue;
    const title = headingText(tokens[i + 1]).trim();
    headings.push({ level: Number(token.tag.slice(1)), title, anchor: uniqueAnchor(slugifyHeading(title), used), start: token.map[0], end: token.map[1] });
  }
  const slice = (from: number, to: number) => lines.slice(from, to).join("\n");
  const sections: MarkdownSection[] = [{ level: 0, title: "", anchor: "", body: slice(0, headings[0]?.start ?? lines.length) }];
  headings.forEach((h, i) => sections.push({ level: h.level, title: h.title, anchor: h.anchor, body: slice(h.end, headings[i + 1]?.start ?? lines.length) }));
  return sections;
}
