// Splits a page's markdown into sections at its headings, each with a unique anchor.
import { slugifyHeading, uniqueAnchor } from "@docshelf/slugs";
import { markdownToText } from "./markdown-text";

export interface PageInput {
  id: string;
  title: string;
  /** The page's path in the revision, e.g. "guides/install". */
  path: string;
  markdown: string;
}

export interface Section {
  /** The anchor without "#"; "" for the text before the first heading. */
  anchor: string;
  /** The heading's text; the page title for the text before the first heading. */
  title: string;
  /** Plain text of the section's body, headings and markup removed. */
  text: string;
}

const ATX_HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;


export function splitIntoSections(page: PageInput): Section[] {
  const sections: Array<{ anchor: string; title: string; lines: string[] }> = [{ anchor: "", title: page.title, lines: [] }];
  const used = new Set<string>();
  let fence: string | undefined;
  for (const line of page.markdown.split(/\r?\n/)) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) fence = fence === undefined ? fenceMatch[1] : fence === fenceMatch[1] ? undefined : fence;
    const heading = fence === undefined && !fenceMatch ? ATX_HEADING.exec(line) : null;
    if (heading) {
      const title = markdownToText(heading[2]);
      sections.push({ anchor: uniqueAnchor(slugifyHeading(title), used), title, lines: [] });
    } else {
      sections[sections.length - 1].lines.push(line);
    }
  }
  return sections
    .map((s) => ({ anchor: s.anchor, title: s.title, text: markdownToText(s.lines.join("\n")) }))
    .filter((s, i) => i === 0 || s.title || s.text);
}
