import { checkChanges, linksToPageRefs, metadataInMarkdown, resolvePageRefs, revertPage, toContentChanges } from "./content-changes";
import type { TreeContent, TreePage } from "./merge";

const noRevert = () => {
  throw new Error("no revert expected");
};
const page = (id: string, fields: Partial<TreePage> = {}, pages: TreePage[] = []): TreePage => ({ id, title: id, slug: id, pages, ...fields });
const tree = (pages: TreePage[]): TreeContent => ({ pages, files: [], reusableContents: [], variables: {} });

describe("GitBook content changes", () => {
  test("front matter and a leading heading set the title over the title field", () => {
    expect(metadataInMarkdown("---\ntitle: T\ndescription: D\n---\nbody")).toEqual({ title: true, description: true });
    expect(metadataInMarkdown("# Heading\n\nbody")).toEqual({ title: true, description: false });
    expect(metadataInMarkdown("body\n# Later heading")).toEqual({ title: false, description: false });
    const { changes } = toContentChanges(
      [
        { operation: "insert_page", title: "Field", document: { markdown: "# Heading" } },
        { operation: "insert_page", title: "Field", document: { markdown: "plain" } },
      ],
      noRevert,
      () => "f",
    );
    expect(changes[0]).toEqual({ type: "insert_page", markdown: "# Heading" });
    expect(changes[1]).toEqual({ type: "insert_page", title: "Field", markdown: "plain" });
  });

  test("into and at become parent and position; empty emoji and icon remove them", () => {
    const { changes, touched } = toContentChanges(
      [
        { operation: "update_page", page: "p", into: null, at: 2, emoji: "", icon: "x" },
        { operation: "insert_page", into: "p", at: 0, document: {}, ref: "mine" },
        { operation: "delete_page", page: "q" },
      ],
      noRevert,
      () => "f",
    );
    expect(changes).toEqual([
      { type: "update_page", page: "p", parent: null, position: 2, emoji: null, icon: "x" },
      { type: "insert_page", id: "f", parent: "p", position: 0, markdown: "" },
      { type: "delete_page", page: "q" },
    ]);
    expect(touched.map((t) => t.kind)).toEqual(["updated_page", "created_page", "deleted_page"]);
    expect(touched[1].ref).toBe("mine");
  });

  test("insert_page with type group is a page group at the top level, without content; anything else is a 400 naming the field", () => {
    const { changes } = toContentChanges([{ operation: "insert_page", type: "group", title: "Guides", document: {} }, { operation: "insert_page", type: "document", title: "Page", document: { markdown: "x" } }], noRevert, () => "f");
    expect(changes).toEqual([
      { type: "insert_page", pageType: "group", title: "Guides", markdown: "" },
      { type: "insert_page", title: "Page", markdown: "x" },
    ]);
    expect(() => checkChanges([{ operation: "insert_page", type: "group", title: "G", document: { markdown: "" } }])).not.toThrow();
    expect(() => checkChanges([{ operation: "insert_page", type: "group", title: "G", document: { document: { object: "document", data: {}, nodes: [] } } }])).not.toThrow();
    expect(() => checkChanges([{ operation: "insert_page", type: "folder", title: "G", document: {} }])).toThrow("'changes[0].type'");
    expect(() => checkChanges([{ operation: "insert_page", type: "group", title: "G", into: "p", document: {} }])).toThrow("'changes[0].into': a page group stays at the top level");
    expect(() => checkChanges([{ operation: "insert_page", type: "group", title: "G", document: { markdown: "Body" } }])).toThrow("'changes[0].document': a page group has no content");
    const text = { object: "text", leaves: [{ object: "leaf", text: "Body", marks: [] }] };
    expect(() => checkChanges([{ operation: "insert_page", type: "group", title: "G", document: { document: { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [text] }] } } }])).toThrow("'changes[0].document'");
    expect(() => checkChanges([{ operation: "update_page", page: "p", type: "group" }])).toThrow("changes[0]");
  });

  test("insert_files become insert_file changes with new ids", () => {
    const { changes, insertedFiles } = toContentChanges([{ operation: "insert_files", files: [{ name: "a.txt", contentType: "text/plain", base64: "aGk=" }] }], noRevert, () => "file-1");
    expect(changes).toEqual([{ type: "insert_file", id: "file-1", name: "a.txt", contentType: "text/plain", data: "aGk=" }]);
    expect(insertedFiles).toEqual(["file-1"]);
  });

  test("a JSON document is stored as Markdown, its page and file references by path", () => {
    const text = (t: string) => ({ object: "text", leaves: [{ object: "leaf", text: t, marks: [] }] });
    const document = {
      object: "document",
      nodes: [
        { object: "block", type: "heading-2", data: {}, nodes: [text("Title")] },
        {
          object: "block",
          type: "paragraph",
          nodes: [
            { object: "inline", type: "link", data: { ref: { kind: "page", page: "pg" } }, nodes: [text("Guide")] },
            text(" "),
            { object: "inline", type: "link", data: { ref: { kind: "file", file: "fl" } }, nodes: [text("Old")] },
            text(" "),
            { object: "inline", type: "link", data: { ref: { kind: "file", file: "new-ref" } }, nodes: [text("New")] },
          ],
        },
      ],
    };
    checkChanges([{ operation: "insert_page", document: { document } }]);
    const { changes } = toContentChanges(
      [
        { operation: "insert_page", document: { document } },
        { operation: "insert_files", files: [{ ref: "new-ref", name: "new file.pdf", contentType: "application/pdf", base64: "aGk=" }] },
        { operation: "update_page", page: "deep", document: { document } },
        { operation: "insert_page", into: "pg", document: { document } },
      ],
      noRevert,
      () => "file-1",
      {
        pagePath: (id) => ({ pg: "guides/install", deep: "guides/install/step" })[id],
        fileName: (id) => (id === "fl" ? "old.png" : undefined),
      },
    );
    // Links are written relative to the page, as Git Sync does; a page's links resolve from its parent's path.
    expect(changes[0]).toEqual({
      type: "insert_page",
      markdown: "## Title\n\n[Guide](guides/install.md) [Old](.gitbook/assets/old.png) [New](.gitbook/assets/new%20file.pdf)\n",
    });
    expect(changes[2]).toMatchObject({ markdown: "## Title\n\n[Guide](../install.md) [Old](../../.gitbook/assets/old.png) [New](../../.gitbook/assets/new%20file.pdf)\n" });
    expect(changes[3]).toMatchObject({ markdown: "## Title\n\n[Guide](../install.md) [Old](../../.gitbook/assets/old.png) [New](../../.gitbook/assets/new%20file.pdf)\n" });
  });

  test("./<ref> links, images and file blocks point at the file inserted with that ref, before or after the page", () => {
    const files = { operation: "insert_files", files: [{ ref: "logo", name: "logo.png", contentType: "image/png", base64: "aGk=" }] };
    const page = { operation: "insert_page", document: { markdown: '![Logo](./logo) [L](./logo) [other](./other) [bare](logo)\n\n{% file src="./logo" %}\n' } };
    for (const batch of [[files, page], [page, files]]) {
      const { changes } = toContentChanges(batch, noRevert, () => "file-1");
      const inserted = changes.find((c) => c.type === "insert_page");
      expect(inserted).toMatchObject({ markdown: '![Logo](.gitbook/assets/logo.png) [L](.gitbook/assets/logo.png) [other](./other) [bare](logo)\n\n{% file src=".gitbook/assets/logo.png" %}\n' });
    }
  });

  test("pages inserted with a ref get their ids up front; links to ./<ref>.md are rewritten once paths are known", () => {
    let n = 0;
    const { changes, pageRefs } = toContentChanges(
      [
        { operation: "insert_page", document: { markdown: "See [B](./b.md#part) and [C](./c.md)." } },
        { operation: "insert_page", ref: "b", title: "B", document: { markdown: "B" } },
      ],
      noRevert,
      () => `id-${++n}`,
    );
    expect(pageRefs).toEqual(new Map([["b", "id-1"]]));
    expect(changes[1]).toMatchObject({ type: "insert_page", id: "id-1" });
    const markdown = (changes[0] as { markdown: string }).markdown;
    expect(linksToPageRefs(markdown, pageRefs)).toBe(true);
    const paths: Record<string, string> = { "id-1": "guides/b" };
    expect(resolvePageRefs(markdown, "a", pageRefs, (id) => paths[id])).toBe("See [B](guides/b.md#part) and [C](./c.md).");
    expect(resolvePageRefs('{% content-ref url="./b.md" %}\n[./b.md](./b.md)', "x/y", pageRefs, (id) => paths[id])).toBe('{% content-ref url="../guides/b.md" %}\n[./b.md](../guides/b.md)');
  });

  test.each([
    [[{ operation: "nope" }], "changes[0].operation"],
    [[{ operation: "insert_page" }], "changes[0].document"],
    [[{ operation: "delete_page", page: "a" }, { operation: "update_page" }], "changes[1].page"],
    [[{ operation: "insert_page", document: { document: {} } }], "changes[0].document"],
    [[{ operation: "insert_page", document: { document: { object: "document", nodes: [{ object: "block", type: "nope" }] } } }], "changes[0].document.document.nodes[0].type"],
    [[{ operation: "insert_page", document: { markdown: "x", document: { object: "document", nodes: [] } } }], "changes[0].document"],
    [[{ operation: "insert_files", files: [{ ref: "r", name: "a", contentType: "a/b", base64: "" }, { ref: "r", name: "b", contentType: "a/b", base64: "" }] }], "changes[0].files[1].ref"],
    [[{ operation: "insert_page", ref: "a", document: { markdown: "" } }, { operation: "insert_page", ref: "a", document: { markdown: "" } }], "changes[1].ref"],
    [[{ operation: "insert_page", document: { document: { object: "document", nodes: [{ object: "block", type: "hint", nodes: [] }] } } }], "changes[0].document.document"],
    [[{ operation: "update_page", page: "p", document: { document: { object: "document", nodes: [{ object: "block", type: "code", data: {}, nodes: [{ object: "block", type: "code-line" }] }] } } }], "changes[0].document.document"],
    [[{ operation: "revert_page", page: "a", block: ["b"] }], "changes[0].block"],
    [[{ operation: "insert_files", files: [{ name: "x", url: "https://e.com/x" }] }], "changes[0].files[0].url"],
    [[{ operation: "insert_files", files: [{ name: "x", base64: "aGk=" }] }], "changes[0].files[0].contentType"],
  ])("%j is refused naming %s", (changes, field) => {
    expect(() => checkChanges(changes)).toThrow(field);
  });

  test("revert_page restores a changed page, deletes an added one and re-inserts a deleted one", () => {
    const then = tree([page("a", { title: "A", documentId: "d1", emoji: "x" }, [page("b", { title: "B" })])]);
    const now = tree([page("a", { title: "A2" }), page("n")]);
    expect(revertPage("a", now, then, { d1: "old body" }, 0)).toEqual([
      { type: "update_page", page: "a", title: "A", slug: "a", emoji: "x", icon: null, description: null, hidden: false, noIndex: false, noRobotsIndex: false, markdown: "old body" },
    ]);
    expect(revertPage("n", now, then, {}, 0)).toEqual([{ type: "delete_page", page: "n" }]);
    expect(revertPage("b", now, then, {}, 0)[0]).toMatchObject({ type: "insert_page", id: "b", parent: "a", position: 0, title: "B" });
    expect(() => revertPage("zzz", now, then, {}, 3)).toThrow("changes[3].page");
    // A deleted page's subpage goes back under it when the same batch brings the parent back first.
    const gone = tree([page("n")]);
    expect(revertPage("b", gone, then, {}, 1)[0]).toMatchObject({ type: "insert_page", id: "b", parent: null });
    expect(revertPage("b", gone, then, {}, 1, new Set(["a"]))[0]).toMatchObject({ type: "insert_page", id: "b", parent: "a", position: 0 });
    // A deleted page group comes back a group.
    const grouped = tree([page("g", { title: "G", type: "group" }, [page("c")])]);
    expect(revertPage("g", tree([]), grouped, {}, 0)[0]).toMatchObject({ type: "insert_page", id: "g", pageType: "group", parent: null, position: 0, title: "G", markdown: "" });
  });
});
