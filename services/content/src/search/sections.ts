// Splits a page's markdown into sections at its headings (markdown-it's reading, shared with the site
// renderer through @docshelf/document), each with the anchor the site gives that heading.
import { markdownSections } from "@docshelf/document";
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

export function splitIntoSections(page: PageInput): Section[] {
  return markdownSections(page.markdown)
    .map((s, i) => ({ anchor: s.anchor, title: i === 0 ? page.title : s.title, text: markdownToText(s.body) }))
    .filter((s, i) => i === 0 || s.title || s.text);
}
