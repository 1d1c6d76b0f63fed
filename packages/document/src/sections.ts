// A page's markdown cut into sections at its headings, read from markdown-it's tokens: ATX and setext
// headings alike, never a `#` line inside code. Each heading gets the anchor the site renderer gives it (headings.ts).
import { splitFrontMatter } from "./front-matter";
import { headingAnchors, markdownIt } from "./headings";

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

/**
 * The sections of a page: first the text before any heading (level 0, always present, maybe empty),
 * then one per heading in document order, with the anchor the site gives it (`slugifyHeading`, made
 * unique with `-1`, `-2`…). Front matter is not part of any section.
 */
export function markdownSections(markdown: string): MarkdownSection[] {
  const { body } = splitFrontMatter(markdown);
  const lines = body.split("\n");
  const tokens = markdownIt.parse(body, {});
  const headings = headingAnchors(tokens).map((h) => {
    const [start, end] = tokens[h.index].map ?? [0, 0];
    return { ...h, start, end };
  });
  const slice = (from: number, to: number) => lines.slice(from, to).join("\n");
  const sections: MarkdownSection[] = [{ level: 0, title: "", anchor: "", body: slice(0, headings[0]?.start ?? lines.length) }];
  headings.forEach((h, i) => sections.push({ level: h.level, title: h.title, anchor: h.anchor, body: slice(h.end, headings[i + 1]?.start ?? lines.length) }));
  return sections;
}
