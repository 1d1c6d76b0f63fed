import { markdownToDocument, documentToMarkdown } from "@docshelf/document";
import { documentResolver, includeName, refIndex } from "./document-refs";

const reusable = [
  { id: "rc1", title: "Enterprise hint", documentId: "d1", git: { oid: "o", path: "docs/.gitbook/includes/enterprise-hint.md" } },
  { id: "rc2", title: "Made in the app", documentId: "d2" },
];

describe("includes as reusable-content references", () => {
  test("an include path names the reusable content imported from that file, from any folder; an unknown one stays a path", () => {
    const index = refIndex([], [], reusable);
    const doc = markdownToDocument('{% include "../.gitbook/includes/enterprise-hint.md" %}\n\n{% include ".gitbook/includes/missing.md" %}\n', documentResolver(index, "guide/setup"));
    const refs = doc.nodes.filter((n) => n.type === "reusable-content").map((n) => (n as { data: { ref: unknown } }).data.ref);
    expect(refs).toEqual([
      { kind: "reusable-content", reusableContent: "rc1" },
      { kind: "reusable-content", reusableContent: ".gitbook/includes/missing.md" },
    ]);
  });

  test("a reference is written back as the include path, relative to the page; one made in the app by its title's slug", () => {
    const index = refIndex([], [], reusable);
    const markdown = documentToMarkdown(
      {
        object: "document",
        data: {},
        nodes: [
          { object: "block", type: "reusable-content", isVoid: true, data: { ref: { kind: "reusable-content", reusableContent: "rc1" } } },
          { object: "block", type: "reusable-content", isVoid: true, data: { ref: { kind: "reusable-content", reusableContent: "rc2" } } },
        ],
      } as never,
      documentResolver(index, "guide/setup"),
    );
    expect(markdown).toContain('{% include "../.gitbook/includes/enterprise-hint.md" %}');
    expect(markdown).toContain('{% include "../.gitbook/includes/made-in-the-app.md" %}');
    expect(includeName(reusable[1])).toBe("made-in-the-app.md");
  });
});
