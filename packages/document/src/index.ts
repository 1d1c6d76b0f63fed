export * from "./types";
export { markdownToDocument } from "./parse";
export { documentToMarkdown } from "./serialize";
export { checkDocument, DocumentError } from "./validate";
export { splitFrontMatter, type FrontMatterSplit } from "./front-matter";
export { headingText, headingAnchors, type HeadingAnchor } from "./headings";
export { markdownSections, type MarkdownSection } from "./sections";
export { renderMarkdown, sanitize, escapeHtml, substituteVariables, type RenderedPage, type RenderOptions, type TocEntry } from "./render-html";
export { PAGE_CSP, pageSecurityHeaders, parseCookies } from "./html-page";
