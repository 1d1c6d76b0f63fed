import { readGitbookConfig, type TreePage } from "./layout";
import { composePage, gitBlobOid, planExport, stateAfterImport, type HeadEntry } from "./sync-state";

const config = readGitbookConfig(undefined);
const page = (id: string, title: string, markdown: string, pages: TreePage[] = [], extra: Partial<TreePage> = {}): TreePage => ({ id, title, slug: title.toLowerCase(), markdown, pages, ...extra });

function repo(files: Record<string, string>): { head: Map<string, HeadEntry>; readText: (path: string) => Promise<string | undefined> } {
  const head = new Map(Object.entries(files).map(([path, text]) => [path, { oid: gitBlobOid(Buffer.from(text)), mode: "100644", type: "blob" as const }]));
  return { head, readText: async (path) => files[path] };
}

describe("composePage: a changed page written over its file", () => {
  const before = { parent: null, slug: "a", title: "A", fp: "x", meta: "" };

  it("keeps the front matter and heading as written when only the body changed", () => {
    const original = "---\n# note\ndescription: >-\n  folded\n  text\n---\n\n# Heading differs\n\nold body\n";
    const imported = page("p", "A", "old body\n", [], { description: "folded text" });
    const state = stateAfterImport({ snapshot: { pages: [{ ...imported, git: { oid: "o", path: "a.md" } }], files: [] }, imported: [{ pages: [] }], config, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });
    const text = composePage(original, { ...imported, markdown: "new body\n" }, state.pages.p, undefined, "new body\n");
    expect(text).toBe("---\n# note\ndescription: >-\n  folded\n  text\n---\n\n# Heading differs\n\nnew body\n");
  });

  it("sets only the changed keys (comments and other keys kept), and a new title in the heading", () => {
    const original = "---\n# note\nicon: book\ndescription: old\n---\n# A\n\nbody\n";
    const text = composePage(original, page("p", "B", "body\n", [], { icon: "book", description: "new" }), before, undefined, "body\n");
    expect(text).toBe("---\n# note\nicon: book\ndescription: new\n---\n# B\n\nbody\n");
  });

  it("reads the front matter as the import does: a `...` closer is kept, only the changed key is set", () => {
    const original = "---\nicon: book\ndescription: old\n...\n\n# A\n\nbody\n";
    expect(composePage(original, page("p", "A", "body\n", [], { icon: "book" }), before, undefined, "new\n")).toBe("---\nicon: book\n---\n\n# A\n\nnew\n");
    const imported = page("p", "A", "body\n", [], { icon: "book", description: "old" });
    const state = stateAfterImport({ snapshot: { pages: [{ ...imported, git: { oid: "o", path: "a.md" } }], files: [] }, imported: [{ pages: [] }], config, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });
    expect(composePage(original, { ...imported, markdown: "new\n" }, state.pages.p, undefined, "new\n")).toBe("---\nicon: book\ndescription: old\n...\n\n# A\n\nnew\n");
  });

  it("keeps CRLF and a file without heading or front matter", () => {
    expect(composePage("no heading\r\n", page("p", "A", "x"), { ...before, meta: "" }, undefined, "changed\r\n")).toMatch(/changed\r\n$/);
  });
});

describe("planExport", () => {
  const files = { "README.md": "# Home\n\nHi\n", "SUMMARY.md": "# Table of contents\n\n* [Home](README.md)\n\n## Group\n\n* [Odd.name](dir/odd.name.md)\n", "dir/odd.name.md": "# Odd\n\nx\n", "LICENSE": "MIT\n", "unlisted.md": "# U\n" };
  const pages = [page("h", "Home", "Hi\n", [], { git: { oid: "1", path: "README.md" } }), page("g", "Group", "", [page("o", "Odd.name", "x\n", [], { git: { oid: "2", path: "dir/odd.name.md" } })], { type: "group" })];
  const imported = [{ pages: [] }, { group: true, pages: [{ pages: [] }] }];
  const state = stateAfterImport({ snapshot: { pages, files: [] }, imported, config, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });

  it("writes and deletes nothing when nothing changed", async () => {
    const plan = await planExport({ pages, files: [], config, contentDir: "", state, ...repo(files) });
    expect([...plan.writes.keys()]).toEqual([]);
    expect([...plan.deletes]).toEqual([]);
  });

  it("writes only the edited page; a new page gets its file and SUMMARY.md; a removed page only its own file", async () => {
    const edited = [pages[0], { ...pages[1], pages: [{ ...pages[1].pages[0], markdown: "y\n" }, page("n", "New", "n\n")] }];
    const plan = await planExport({ pages: edited, files: [], config, contentDir: "", state, ...repo(files) });
    expect([...plan.writes.keys()].sort()).toEqual(["SUMMARY.md", "dir/new.md", "dir/odd.name.md"]);
    expect(plan.writes.get("dir/odd.name.md")!.toString()).toBe("# Odd\n\ny\n");
    expect(plan.writes.get("SUMMARY.md")!.toString()).toContain("## Group\n\n* [Odd.name](dir/odd.name.md)\n* [New](dir/new.md)\n");
    const removed = await planExport({ pages: [pages[0]], files: [], config, contentDir: "", state, ...repo(files) });
    expect([...removed.deletes]).toEqual(["dir/odd.name.md"]);
  });

  it("never takes the path of a file it does not own", async () => {
    const plan = await planExport({ pages: [...pages, page("u", "Unlisted", "mine\n")], files: [], config, contentDir: "", state, ...repo(files) });
    expect(plan.writes.has("unlisted.md")).toBe(false);
    expect(plan.writes.has("unlisted-2.md")).toBe(true);
  });
});
