export * from "./types";
export { markdownToDocument } from "./parse";
export { documentToMarkdown } from "./serialize";
export { checkDocument, DocumentError } from "./validate";
export { splitFrontMatter, type FrontMatterSplit } from "./front-matter";
export { headingText, markdownSections, type MarkdownSection } from "./sections";
