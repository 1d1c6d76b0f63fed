import { readGitbookConfig, readLayout, type TreePage } from "./layout";
import { composePage, contentBody, deriveState, gitBlobOid, planExport, stateAfterImport, withSummaryTitle, type HeadEntry } from "./sync-state";

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

describe("SUMMARY.md items without a link (corpus: 0ws0/uber_go_guide_cn)", () => {
  const files: Record<string, string> = {
    "README.md": "# Home\n",
    "SUMMARY.md": "# Guide\n- [Home](README.md)\n- Guidelines\n  - [Pointers](interface-pointer.md)\n  - Errors\n    - [Types](error-type.md)\n- [Missing](missing/README.md)\n  - [Types again](error-type.md)\n",
    "interface-pointer.md": "# Pointers\n\nx\n",
    "error-type.md": "# Types\n\ny\n",
  };
  const source = new Map(Object.entries(files).map(([path, text]) => [path, { oid: gitBlobOid(Buffer.from(text)), data: Buffer.from(text) }]));
  const layout = readLayout(source, { projectDir: "", newFileId: () => "f" });
  const space: TreePage[] = [
    page("h", "Home", "", [], { git: { oid: "1", path: "README.md" } }),
    page("g", "Guidelines", "", [
      page("p", "Pointers", "x\n", [], { slug: "interface-pointer", git: { oid: "2", path: "interface-pointer.md" } }),
      page("e", "Errors", "", [page("t", "Types", "y\n", [], { slug: "error-type", git: { oid: "3", path: "error-type.md" } })]),
    ]),
    // A link to a missing file with children (corpus: 0xProject/0x-mesh).
    page("m", "Missing", "", [page("t2", "Types again", "y\n", [], { slug: "error-type", git: { oid: "3", path: "error-type.md" } })]),
  ];
  const state = stateAfterImport({ snapshot: { pages: space, files: [] }, imported: layout.pages, config: layout.config, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });

  it("stay items without a file: an export with no edit writes nothing", async () => {
    expect(state.pages.g.plain).toBe(true);
    expect(state.pages.e.plain).toBe(true);
    expect(state.pages.m.href).toBe("missing/README.md");
    const plan = await planExport({ pages: space, files: [], config: layout.config, contentDir: "", state, ...repo(files) });
    expect([...plan.writes.keys()]).toEqual([]);
  });

  it("stay items without a file, and a file SUMMARY.md links twice is matched to both pages, in an export without a sync state (deriveState)", async () => {
    const derived = deriveState({ snapshot: { pages: space, files: [] }, layout, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });
    expect(derived.pages.g.plain).toBe(true);
    const plan = await planExport({ pages: space, files: [], config: layout.config, contentDir: "", state: derived, ...repo(files) });
    expect([...plan.writes.keys()]).toEqual([]);
  });

  it("get a file once they have a body of their own", async () => {
    const edited = [space[0], { ...space[1], markdown: "Now a page.\n" }, space[2]];
    const plan = await planExport({ pages: edited, files: [], config: layout.config, contentDir: "", state, ...repo(files) });
    expect([...plan.writes.keys()].sort()).toEqual(["SUMMARY.md", "guidelines/README.md"]);
    expect(plan.writes.get("SUMMARY.md")!.toString()).toContain("* [Guidelines](guidelines/README.md)\n");
    expect(plan.writes.get("SUMMARY.md")!.toString()).toContain("\n  * Errors\n    * [Types](error-type.md)\n");
  });
});

describe("a repository without SUMMARY.md (corpus: an empty content root, a tree from folders)", () => {
  const files: Record<string, string> = { "README.md": "# Home\n\nHi\n", "guide.md": "# Guide\n\nG\n" };
  const source = new Map(Object.entries(files).map(([path, text]) => [path, { oid: gitBlobOid(Buffer.from(text)), data: Buffer.from(text) }]));
  const layout = readLayout(source, { projectDir: "", newFileId: () => "f" });
  const space: TreePage[] = [page("h", "Home", "Hi\n", [], { git: { oid: "1", path: "README.md" } }), page("g", "Guide", "G\n", [], { git: { oid: "2", path: "guide.md" } })];
  const state = stateAfterImport({ snapshot: { pages: space, files: [] }, imported: layout.pages, config: layout.config, hasSummary: layout.hasSummary, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });

  it("gets none from an export with no edit, and one when the tree changes", async () => {
    expect(layout.hasSummary).toBe(false);
    const plan = await planExport({ pages: space, files: [], config: layout.config, contentDir: "", state, ...repo(files) });
    expect([...plan.writes.keys()]).toEqual([]);
    expect(plan.noSummary).toBe(true);
    const reordered = await planExport({ pages: [space[0], page("n", "New", "N\n"), space[1]], files: [], config: layout.config, contentDir: "", state, ...repo(files) });
    expect([...reordered.writes.keys()].sort()).toEqual(["SUMMARY.md", "new.md"]);
    expect(reordered.noSummary).toBeUndefined();
  });

  it("nor from an export without a sync state (deriveState)", async () => {
    const derived = deriveState({ snapshot: { pages: space, files: [] }, layout, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });
    const plan = await planExport({ pages: space, files: [], config: layout.config, contentDir: "", state: derived, ...repo(files) });
    expect([...plan.writes.keys()]).toEqual([]);
  });
});

describe("exports without a sync state (deriveState) and titles vs headings", () => {
  const files: Record<string, string> = {
    "README.md": "# Home\n\nHi\n",
    "SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guides](guides/README.md)\n  * [Setup 2.1](2.1-setup/overview.md)\n",
    "guides/README.md": "# Guide\n\nSingular heading.\n",
    "2.1-setup/overview.md": "---\ndescription: >-\n  folded\n  text\n---\n\n# Overview\n\nBody.\n",
    ".gitignore": "node_modules/\n",
    "unlisted.md": "# Unlisted\n",
  };
  const source = new Map(Object.entries(files).map(([path, text]) => [path, { oid: gitBlobOid(Buffer.from(text)), data: Buffer.from(text) }]));
  const layout = readLayout(source, { projectDir: "", newFileId: () => "f" });
  // The space as content holds it after an import of these files (bodies without their heading).
  const space: TreePage[] = [
    page("h", "Home", "Hi\n", [], { slug: "home", git: { oid: "1", path: "README.md" } }),
    page("g", "Guides", "Singular heading.\n", [page("o", "Setup 2.1", "Body.\n", [], { slug: "overview", description: "folded text", git: { oid: "3", path: "2.1-setup/overview.md" } })], { slug: "guides", git: { oid: "2", path: "guides/README.md" } }),
  ];
  const derive = () => deriveState({ snapshot: { pages: space, files: [] }, layout, contentDir: "", url: "u", ref: "r", projectDir: "", commit: "c" });

  it("content's view of a body drops front matter, the leading heading and one blank line", () => {
    expect(contentBody("# Title\n\nBody\n")).toBe("Body\n");
    expect(contentBody("\n\n")).toBe("");
    expect(contentBody("No heading\n")).toBe("No heading\n");
  });

  it("an unchanged space writes nothing, whatever the repository holds beside it", async () => {
    const plan = await planExport({ pages: space, files: [], config: layout.config, contentDir: "", state: derive(), ...repo(files) });
    expect([...plan.writes.keys()]).toEqual([]);
    expect([...plan.deletes]).toEqual([]);
  });

  it("a removed page deletes nothing; an edited one keeps its folded front matter and heading", async () => {
    const edited = [space[0], { ...space[1], pages: [{ ...space[1].pages[0], markdown: "New.\n" }] }];
    const plan = await planExport({ pages: edited, files: [], config: layout.config, contentDir: "", state: derive(), ...repo(files) });
    expect([...plan.writes.keys()]).toEqual(["2.1-setup/overview.md"]);
    expect(plan.writes.get("2.1-setup/overview.md")!.toString()).toBe("---\ndescription: >-\n  folded\n  text\n---\n\n# Overview\n\nNew.\n");
    const removed = await planExport({ pages: [space[0]], files: [], config: layout.config, contentDir: "", state: derive(), ...repo(files) });
    expect([...removed.deletes]).toEqual([]);
    expect(removed.writes.get("SUMMARY.md")!.toString().split("\n")[0]).toBe("# Summary");
  });

  it("a retitled page keeps a heading of its own and rewrites one that said the old title", async () => {
    const retitled = [{ ...space[0], title: "Start" }, { ...space[1], title: "All guides" }];
    const plan = await planExport({ pages: retitled, files: [], config: layout.config, contentDir: "", state: derive(), ...repo(files) });
    expect(plan.writes.get("README.md")?.toString()).toBe("# Start\n\nHi\n");
    expect(plan.writes.has("guides/README.md") ? plan.writes.get("guides/README.md")!.toString() : files["guides/README.md"]).toBe("# Guide\n\nSingular heading.\n");
    expect(plan.writes.get("SUMMARY.md")!.toString()).toBe("# Summary\n\n* [Start](README.md)\n* [All guides](guides/README.md)\n  * [Setup 2.1](2.1-setup/overview.md)\n");
  });

  it("SUMMARY.md's own title line is kept as written", () => {
    expect(withSummaryTitle("# Table of contents\n\n* [A](a.md)\n", "# Summary\n\n* [B](b.md)\n")).toBe("# Summary\n\n* [A](a.md)\n");
    expect(withSummaryTitle("# Table of contents\n\n* [A](a.md)\n", "* [B](b.md)\n# Late\n")).toBe("# Table of contents\n\n* [A](a.md)\n");
  });
});
