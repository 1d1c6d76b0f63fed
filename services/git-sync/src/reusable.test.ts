import { readLayout, LayoutError, type SourceFile } from "./layout";
import { composeInclude, planReusable, readIncludeFile, readVariablesFile, ReusableError } from "./reusable";
import { composePage } from "./sync-state";

const INCLUDE = "---\ntitle: Reusable Block\n---\n\nTop of the block\n\nThis is for product <code class=\"expression\">space.vars.PRODUCT_NAME</code>.\n";

function repo(files: Record<string, string>): Map<string, SourceFile> {
  return new Map(Object.entries(files).map(([path, text], i) => [path, { oid: `oid${i}`, data: Buffer.from(text, "utf8") }]));
}

describe("reusable content and variables in a repository", () => {
  test("an import reads .gitbook/includes as reusable contents, vars.yaml as variables and front matter vars as the page's", () => {
    const layout = readLayout(
      repo({
        ".gitbook.yaml": "root: ./docs/\n",
        "docs/README.md": "---\nvars:\n  version: 2\n---\n\n# Home\n\n{% include \".gitbook/includes/reusable-block.md\" %}\n",
        "docs/SUMMARY.md": "# Summary\n\n* [Home](README.md)\n",
        "docs/.gitbook/includes/reusable-block.md": INCLUDE,
        "docs/.gitbook/includes/no-title.md": "Just text.\n",
        "docs/.gitbook/vars.yaml": "PRODUCT_NAME: Xopera One\nrelease: 3\nbeta: true\n",
        ".gitbook/includes/outside-the-root.md": "Not ours.\n",
      }),
      { projectDir: "", newFileId: () => "f" },
    );
    expect(layout.reusableContents).toEqual([
      { title: "no-title", markdown: "Just text.\n", git: { oid: "oid4", path: "docs/.gitbook/includes/no-title.md" } },
      { title: "Reusable Block", markdown: INCLUDE.slice(INCLUDE.indexOf("Top")), git: { oid: "oid3", path: "docs/.gitbook/includes/reusable-block.md" } },
    ]);
    expect(layout.variables).toEqual({ PRODUCT_NAME: "Xopera One", release: "3", beta: "true" });
    expect(layout.pages[0].variables).toEqual({ version: "2" });
    // The include files are no pages.
    expect(layout.pages).toHaveLength(1);
  });

  test("a variable a space cannot take fails the import naming the file and the variable", () => {
    const bad = (vars: string) => () => readLayout(repo({ "README.md": "# A\n", ".gitbook/vars.yaml": vars }), { projectDir: "", newFileId: () => "f" });
    expect(bad("1abc: x\n")).toThrow(LayoutError);
    expect(bad("1abc: x\n")).toThrow(/\.gitbook\/vars\.yaml: the variable name "1abc"/);
    expect(bad(`long: ${"x".repeat(300)}\n`)).toThrow(/the value of "long" has 300 characters/);
    expect(bad("nested:\n  a: 1\n")).toThrow(/"nested" is not a single value/);
    expect(bad("- a\n- b\n")).toThrow(/not a mapping/);
    const page = () => readLayout(repo({ "README.md": "---\nvars: [1, 2]\n---\n# A\n" }), { projectDir: "", newFileId: () => "f" });
    expect(page).toThrow(/README\.md: The front matter's vars is not a mapping/);
    expect(() => readVariablesFile("a: [", "vars.yaml")).toThrow(ReusableError);
  });

  test("an export writes nothing for unchanged reusable contents and variables", async () => {
    const head = new Map<string, unknown>([["docs/.gitbook/includes/reusable-block.md", {}], ["docs/.gitbook/vars.yaml", {}]]);
    const texts: Record<string, string> = { "docs/.gitbook/includes/reusable-block.md": INCLUDE, "docs/.gitbook/vars.yaml": "# the product\nPRODUCT_NAME: Xopera One\nrelease: 3\n" };
    const read = readIncludeFile(INCLUDE, "x.md");
    const { writes } = await planReusable({
      reusableContents: [{ id: "r1", title: read.title, markdown: read.markdown, git: { oid: "o", path: "docs/.gitbook/includes/reusable-block.md" } }],
      variables: { PRODUCT_NAME: "Xopera One", release: "3" },
      contentDir: "docs",
      head,
      readText: async (path) => texts[path],
    });
    expect(writes.size).toBe(0);
  });

  test("an export writes a changed body under the front matter as written, a new reusable content, and changed variables with comments kept", async () => {
    const head = new Map<string, unknown>([["docs/.gitbook/includes/reusable-block.md", {}], ["docs/.gitbook/vars.yaml", {}], ["docs/.gitbook/includes/new-hint.md", {}]]);
    const texts: Record<string, string> = { "docs/.gitbook/includes/reusable-block.md": INCLUDE, "docs/.gitbook/vars.yaml": "# the product\nPRODUCT_NAME: Xopera One\nrelease: 3\n" };
    const { writes } = await planReusable({
      reusableContents: [
        { id: "r1", title: "Reusable Block", markdown: "New body.\n", git: { oid: "o", path: "docs/.gitbook/includes/reusable-block.md" } },
        { id: "r2", title: "New hint", markdown: "{% hint %}\nHi\n{% endhint %}\n" },
      ],
      variables: { PRODUCT_NAME: "Xopera Two", release: "3" },
      contentDir: "docs",
      head,
      readText: async (path) => texts[path],
    });
    expect(writes.get("docs/.gitbook/includes/reusable-block.md")?.toString()).toBe("---\ntitle: Reusable Block\n---\n\nNew body.\n");
    // A file the space has no record of keeps its name: the new one takes the next.
    expect(writes.get("docs/.gitbook/includes/new-hint-2.md")?.toString()).toBe("---\ntitle: New hint\n---\n\n{% hint %}\nHi\n{% endhint %}\n");
    expect(writes.get("docs/.gitbook/vars.yaml")?.toString()).toBe("# the product\nPRODUCT_NAME: Xopera Two\nrelease: 3\n");
    expect(writes.size).toBe(3);
  });

  test("a space with no variables leaves the repository's vars.yaml alone; a retitled include sets only its title", async () => {
    const { writes } = await planReusable({ reusableContents: [], variables: {}, contentDir: "", head: new Map([[".gitbook/vars.yaml", {}]]), readText: async () => "a: 1\n" });
    expect(writes.size).toBe(0);
    expect(composeInclude("---\ntitle: Old # kept comment\nother: 1\n---\n\nBody\n", { title: "New", markdown: "Body\n" })).toBe("---\ntitle: New # kept comment\nother: 1\n---\n\nBody\n");
  });

  test("an export deletes the include file of a reusable content deleted in the space, only when the record says the space imported or wrote it", async () => {
    const head = new Map<string, unknown>([
      ["docs/.gitbook/includes/kept.md", {}],
      ["docs/.gitbook/includes/gone.md", {}],
      ["docs/.gitbook/includes/users-own.md", {}],
      ["docs/.gitbook/includes/space-made.md", {}],
    ]);
    const texts: Record<string, string> = { "docs/.gitbook/includes/kept.md": "---\ntitle: Kept\n---\n\nBody\n", "docs/.gitbook/includes/space-made.md": "---\ntitle: Space made\n---\n\nMine\n" };
    const recorded = {
      r1: { path: "docs/.gitbook/includes/kept.md" },
      r2: { path: "docs/.gitbook/includes/gone.md" },
      r3: { path: "docs/.gitbook/includes/space-made.md" },
      r4: { path: "docs/.gitbook/includes/already-deleted-in-git.md" },
    };
    const plan = await planReusable({
      reusableContents: [
        { id: "r1", title: "Kept", markdown: "Body\n", git: { oid: "o", path: "docs/.gitbook/includes/kept.md" } },
        // Made in the space and written by an earlier export (no git path): the same file again, not a "-2".
        { id: "r3", title: "Space made", markdown: "Mine\n" },
      ],
      variables: {},
      contentDir: "docs",
      head,
      readText: async (path) => texts[path],
      recorded,
    });
    expect([...plan.deletes]).toEqual(["docs/.gitbook/includes/gone.md"]);
    expect(plan.writes.size).toBe(0);
    expect(plan.record).toEqual({ r1: recorded.r1, r3: recorded.r3 });

    // Without a record (none yet, or one rebuilt from the branch) nothing is deleted.
    const stateless = await planReusable({ reusableContents: [], variables: {}, contentDir: "docs", head, readText: async (path) => texts[path] });
    expect(stateless.deletes.size).toBe(0);

    // A reusable content made in the space and retitled moves to its new name (the one pages' includes use); a new
    // one may take the name of a deleted one.
    const moved = await planReusable({
      reusableContents: [
        { id: "r3", title: "Renamed", markdown: "Mine\n" },
        { id: "r5", title: "Gone", markdown: "New\n" },
      ],
      variables: {},
      contentDir: "docs",
      head,
      readText: async (path) => texts[path],
      recorded,
    });
    expect([...moved.deletes].sort()).toEqual(["docs/.gitbook/includes/kept.md", "docs/.gitbook/includes/space-made.md"]);
    expect([...moved.writes.keys()].sort()).toEqual(["docs/.gitbook/includes/gone.md", "docs/.gitbook/includes/renamed.md"]);
    expect(moved.record).toEqual({ r3: { path: "docs/.gitbook/includes/renamed.md" }, r5: { path: "docs/.gitbook/includes/gone.md" } });
  });

  test("a page's changed front matter vars are set in its front matter, the rest kept", () => {
    const original = "---\ndescription: Hello\nvars:\n  a: \"1\"\n---\n\n# Title\n\nBody\n";
    const page = { title: "Title", slug: "t", markdown: "Body\n", description: "Hello", variables: { a: "2" }, pages: [] };
    const previous = { path: "t.md", parent: null, slug: "t", title: "Title", fp: "", meta: "" };
    expect(composePage(original, page, previous, undefined, "Body\n")).toBe("---\ndescription: Hello\nvars:\n  a: \"2\"\n---\n\n# Title\n\nBody\n");
  });
});
