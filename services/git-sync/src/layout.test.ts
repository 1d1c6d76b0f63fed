import { readLayout, readPageFile, readGitbookConfig, addRedirects, writeGitbookConfig, LayoutError, type GitbookConfig, type SourceFile, type TreePage, type TreeFile } from "./layout";
import { planExport } from "./sync-state";

/** What an export writes into an empty repository. */
async function writeLayout(pages: TreePage[], files: TreeFile[], config: GitbookConfig): Promise<Map<string, Buffer>> {
  return (await planExport({ pages, files, config, contentDir: "", head: new Map(), readText: async () => undefined })).writes;
}

let nextId = 0;
const newFileId = () => `f${++nextId}`;

function source(files: Record<string, string | Buffer>): Map<string, SourceFile> {
  return new Map(Object.entries(files).map(([path, data], i) => [path, { oid: `oid${i}`, data: Buffer.isBuffer(data) ? data : Buffer.from(data) }]));
}

/** What must survive a round trip: titles, slugs, bodies, metadata, nesting. */
function shape(pages: TreePage[]): unknown[] {
  return pages.map((p) => ({ title: p.title, slug: p.slug, markdown: p.markdown, description: p.description, icon: p.icon, hidden: p.hidden, pages: shape(p.pages) }));
}

const page = (title: string, slug: string, markdown: string, pages: TreePage[] = [], extra: Partial<TreePage> = {}): TreePage => ({ title, slug, markdown, pages, ...extra });

describe("importing GitBook's layout", () => {
  it("takes the tree and titles from SUMMARY.md, metadata from front matter, assets from .gitbook/assets", () => {
    const result = readLayout(
      source({
        "README.md": "# Welcome\n\nHello.\n",
        "SUMMARY.md": "# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n",
        "guide/README.md": "---\ndescription: All about it\nicon: book\n---\n\n# Guide\n\nGuide body.\n",
        "guide/install.md": "---\nhidden: true\ncover: ../.gitbook/assets/cover.png\ncoverY: 12\n---\n# Install\n\nRun it.\n",
        "reference/api.md": "# API\n\nCalls.\n",
        ".gitbook/assets/cover.png": Buffer.from([1, 2, 3]),
      }),
      { projectDir: "", newFileId },
    );
    expect(result.files).toHaveLength(1);
    expect(result.files[0]).toMatchObject({ name: "cover.png", contentType: "image/png", bytes: Buffer.from([1, 2, 3]), git: { path: ".gitbook/assets/cover.png" } });
    expect(result.pages.map((p) => [p.title, p.slug])).toEqual([["Intro", "intro"], ["Guide", "guide"], ["Reference", "reference"]]);
    const guide = result.pages[1];
    expect(guide).toMatchObject({ description: "All about it", icon: "book", git: { path: "guide/README.md" } });
    expect(guide.pages[0]).toMatchObject({ title: "Install", slug: "install", hidden: true, cover: { ref: { kind: "file", file: result.files[0].id }, yPos: 12 } });
    expect(guide.pages[0].markdown).toBe("# Install\n\nRun it.\n");
    expect(result.pages[2].pages[0]).toMatchObject({ title: "API", slug: "api", git: { path: "reference/api.md" } });
  });

  it("builds the tree from folders when there is no SUMMARY.md", () => {
    const result = readLayout(
      source({ "README.md": "# Home\n", "b.md": "# Bee\n", "a.md": "no heading", "docs/README.md": "# Docs\n", "docs/x.md": "# X\n", "empty/y.md": "# Y\n" }),
      { projectDir: "", newFileId },
    );
    expect(result.pages.map((p) => [p.title, p.slug, p.pages.map((c) => c.title)])).toEqual([
      ["Home", "home", []],
      ["a", "a", []],
      ["Bee", "b", []],
      ["Docs", "docs", ["X"]],
      ["empty", "empty", ["Y"]],
    ]);
  });

  it("follows .gitbook.yaml's root and structure, inside the project directory", () => {
    const result = readLayout(
      source({ ".gitbook.yaml": "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  old: new.md\n", "docs/intro.md": "# Intro\n", "docs/toc.md": "* [Start](intro.md)\n* [Next](next.md)\n", "docs/next.md": "# Next\n", "other.md": "# Other\n" }),
      { projectDir: "packages/site", newFileId },
    );
    expect(result.config).toMatchObject({ root: "docs", readme: "intro.md", summary: "toc.md", redirects: [{ source: "old", destination: "new.md" }] });
    expect(result.pages.map((p) => [p.title, p.git?.path])).toEqual([["Start", "packages/site/docs/intro.md"], ["Next", "packages/site/docs/next.md"]]);
  });

  it("refuses a root outside the repository", () => {
    expect(() => readGitbookConfig("root: ../../etc\n")).toThrow(LayoutError);
  });

  it("reads front matter and the heading as the title", () => {
    expect(readPageFile("---\ntitle: T\ndescription: D\n---\nBody")).toEqual({ title: "T", description: "D", body: "Body" });
    expect(readPageFile("# Heading\n\ntext")).toEqual({ title: "Heading", body: "# Heading\n\ntext" });
  });

  it("reads front matter as @docshelf/document's splitFrontMatter does (BOM, CRLF, `...` closer, invalid YAML split off)", () => {
    expect(readPageFile("\uFEFF---\r\ndescription: D\r\nhidden: true\r\n---\r\n\r\nBody\r\n")).toEqual({ description: "D", hidden: true, body: "Body\r\n" });
    expect(readPageFile("---\nicon: book\n...\n# T\n")).toEqual({ icon: "book", title: "T", body: "# T\n" });
    expect(readPageFile("---\n: [\n---\nBody")).toEqual({ body: "Body" });
  });

  it("takes the title from a leading `# heading` as written, the rule content strips it by (not a setext heading)", () => {
    expect(readPageFile("# A *b* #\n\ntext")).toMatchObject({ title: "A *b*" });
    expect(readPageFile("Title\n=====\n\ntext")).toEqual({ body: "Title\n=====\n\ntext" });
  });
});

describe("exporting to GitBook's layout", () => {
  const config = readGitbookConfig(undefined);

  it("writes README.md first, SUMMARY.md, folders for pages with children, groups as ## sections, assets", async () => {
    const files: TreeFile[] = [{ id: "file1", name: "logo.png", contentType: "image/png", data: Buffer.from("png").toString("base64") }];
    const out = await writeLayout(
      [
        page("Welcome", "welcome", "Hello.\n"),
        page("Guide", "guide", "Guide body.\n", [page("Install", "install", "Run it.\n", [], { hidden: true, cover: { ref: { kind: "file", file: "file1" }, yPos: 3 } })], { description: "About" }),
        page("Reference", "reference", "", [page("API", "api", "Calls.\n")]),
      ],
      files,
      config,
    );
    expect([...out.keys()].sort()).toEqual([".gitbook/assets/logo.png", "README.md", "SUMMARY.md", "guide/README.md", "guide/install.md", "reference/api.md"]);
    expect(out.get("README.md")!.toString()).toBe("# Welcome\n\nHello.\n");
    expect(out.get("guide/README.md")!.toString()).toBe("---\ndescription: About\n---\n\n# Guide\n\nGuide body.\n");
    expect(out.get("guide/install.md")!.toString()).toContain("cover: ../.gitbook/assets/logo.png\ncoverY: 3\n");
    expect(out.get("SUMMARY.md")!.toString()).toBe(
      "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n",
    );
  });

  it("round-trips: importing an export gives back the same tree and markdown", async () => {
    const pages = [
      page("Welcome", "welcome", "Hello **world**.\n\n- a\n- b\n"),
      page("Guide", "guide", "Guide body.\n", [page("Install", "install", "Run it.\n", [page("Linux", "linux", "apt\n")]), page("Configure [beta]", "configure-beta", "")], { description: "About", icon: "book" }),
      page("Hidden", "hidden", "secret\n", [], { hidden: true }),
      page("Reference", "reference", "", [page("API", "api", "Calls.\n")]),
    ];
    const out = await writeLayout(pages, [], config);
    const back = readLayout(new Map([...out].map(([path, data], i) => [path, { oid: `o${i}`, data }])), { projectDir: "", newFileId });
    // Content drops the `# title` heading the export wrote; the rest must be the same.
    const stripped = (list: TreePage[]): TreePage[] => list.map((p) => ({ ...p, markdown: p.markdown.replace(/^# .*\n\n?/, ""), pages: stripped(p.pages) }));
    expect(shape(stripped(back.pages))).toEqual(shape(pages));
  });
});

describe(".gitbook.yaml redirects", () => {
  const r = (source: string, destination: string) => ({ source, destination });

  it("are read in the file's order, number-like and dotted sources as written", () => {
    const config = readGitbookConfig("redirects:\n  b.-appendix.md: b.md\n  2019: old.md\n  1.10: ten.md\n  2.1-setup/overview: setup.md\n  $ref: r.md\n");
    expect(config.redirects).toEqual([r("b.-appendix.md", "b.md"), r("2019", "old.md"), r("1.10", "ten.md"), r("2.1-setup/overview", "setup.md"), r("$ref", "r.md")]);
  });

  it("an export adds the space's missing redirects and never changes or removes the file's own", () => {
    const text = "# ours\nroot: ./\nredirects:\n  a: b.md   # keep\n  z: y.md\n";
    const config = readGitbookConfig(text);
    expect(config.redirects).toEqual([r("a", "b.md"), r("z", "y.md")]);
    expect(addRedirects(text, config, [r("a", "b.md")])).toBeNull();
    expect(addRedirects(text, config, [r("a", "other.md")])).toBeNull();
    const added = addRedirects(text, config, [r("a", "c.md"), r("old.x", "README.md")])!;
    expect(added).toBe("# ours\nroot: ./\nredirects:\n  a: b.md # keep\n  z: y.md\n  old.x: README.md\n");
    expect(readGitbookConfig(addRedirects("root: ./\n", readGitbookConfig("root: ./\n"), [r("2019", "a.md"), r("1", "b.md")])!).redirects).toEqual([r("2019", "a.md"), r("1", "b.md")]);
  });

  it("a written .gitbook.yaml keeps their order", () => {
    const text = writeGitbookConfig({ root: "", readme: "README.md", summary: "SUMMARY.md", redirects: [r("z", "a.md"), r("10", "b.md"), r("2", "c.md")] });
    expect(readGitbookConfig(text).redirects).toEqual([r("z", "a.md"), r("10", "b.md"), r("2", "c.md")]);
  });
});

describe(".gitbook.yaml structure paths outside the content root (corpus: 0xProject/0x-mesh)", () => {
  it("accepts a readme or summary that leaves the root but stays in the repository, and refuses one that leaves the repository", () => {
    const config = readGitbookConfig("root: ./docs/\n\nstructure:\n    readme: ../README.md\n    summary: ./summary.md\n");
    expect(config).toMatchObject({ root: "docs", readme: "../README.md", summary: "summary.md" });
    expect(() => readGitbookConfig("root: ./docs/\nstructure:\n  readme: ../../README.md\n")).toThrow(LayoutError);
    expect(() => readGitbookConfig("structure:\n  summary: ../SUMMARY.md\n")).toThrow(/not a path inside the repository/);
  });

  it("imports the tree of a summary kept beside the content root", () => {
    const result = readLayout(source({ ".gitbook.yaml": "root: ./docs/\nstructure:\n  summary: ../SUMMARY.md\n", "SUMMARY.md": "# S\n\n* [Guide](docs/guide.md)\n", "docs/guide.md": "# Guide\n\nG\n" }), { projectDir: "", newFileId });
    expect(result.hasSummary).toBe(true);
    expect(result.pages.map((p) => [p.title, p.markdown.trim(), p.git?.path])).toEqual([["Guide", "# Guide\n\nG", "docs/guide.md"]]);
  });
});
