import { markdownToDocument } from "@docshelf/document";
import { documentResolver, refIndex } from "./document-refs";
import { pageDocumentTask } from "./page-document-task";
import type { PageNode } from "./tree";

const page = (id: string, path: string, children: PageNode[] = []): PageNode => ({ id, type: "document", title: id, slug: path.split("/").pop()!, path, pages: children }) as unknown as PageNode;

test("a page parsed on a worker thread (its reference index copied across, as postMessage does) is the document parsed in place", () => {
  const pages = [page("p1", "guide", [page("p2", "guide/setup")]), page("p3", "faq")];
  const files = [{ id: "f1", name: "diagram.png", contentType: "image/png", size: 1, downloadURL: "" }] as never;
  const index = refIndex(pages, files, [{ id: "rc1", title: "Hint", documentId: "d1", git: { oid: "o", path: ".gitbook/includes/hint.md" } }]);
  const markdown = `# Setup\n\nSee [the FAQ](../faq.md) and ![a diagram](../.gitbook/assets/diagram.png).\n\n{% include "../.gitbook/includes/hint.md" %}\n\n${"## a\n\ntext\n\n".repeat(2_000)}`;
  const inPlace = markdownToDocument(markdown, documentResolver(index, "guide/setup"));
  const offThread = pageDocumentTask(markdown, structuredClone(index), "guide/setup");
  expect(offThread).toEqual(inPlace);
  expect(JSON.stringify(offThread)).toContain('"page":"p3"');
  expect(JSON.stringify(offThread)).toContain('"reusableContent":"rc1"');
});
