// HTML to GitHub-flavoured markdown (headings, lists, fenced code, tables, strikethrough, tasks).
import TurndownService from "turndown";
import { gfm } from "@joplin/turndown-plugin-gfm";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "_",
  strongDelimiter: "**",
  linkStyle: "inlined",
});
turndown.use(gfm);

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}
