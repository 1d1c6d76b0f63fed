// The worker-thread task of a page read as a GitBook document (content-answers.ts servePage): a long page's
// Markdown parsed into the document model off the event loop that answers every other request, within the
// pool's time and memory limits (a page of 74 KB of headings is a 2.4 MB document).
import { markdownToDocument, type JSONDocument } from "@docshelf/document";
import { documentResolver, type RefIndex } from "./document-refs";

export function pageDocumentTask(markdown: string, index: RefIndex, fromPath: string): JSONDocument {
  return markdownToDocument(markdown, documentResolver(index, fromPath));
}
