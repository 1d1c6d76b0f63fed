export * from "./types";
export { markdownToDocument } from "./parse";
export { documentToMarkdown } from "./serialize";
export { checkDocument, DocumentError } from "./validate";
