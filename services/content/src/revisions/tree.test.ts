import { applyChanges, changesForPaths, findPage, findPageByPath, resolveLinkPath, slugify, type RevisionContent } from "./tree";
import { documentIdOf } from "./documents";

const NOW = "2026-01-01T00:00:00.000Z";
const empty = (): RevisionContent => ({ pages: [], files: [], reusableContents: [], variables: {} });

describe("applyChanges", () => {
  test("computed sets a page's builtin:openapi source (models defaults to false) and null removes it", () => {
    const source = { type: "builtin:openapi" as const, dependencies: { spec: { ref: { kind: "openapi" as const, spec: "pets" } } } };
    const set = applyChanges(empty(), [{ type: "insert_page", id: "p1", title: "API", computed: source }], NOW);
    expect(set.pages[0].computed).toEqual({ ...source, props: { models: false } });
    const cleared = applyChanges(set, [{ type: "update_page", page: "p1", computed: null }], NOW);
    expect(cleared.pages[0].computed).toBeUndefined();
  });

  test("a leading heading becomes the title and is left out of the stored body", () => {
    const out = applyChanges(empty(), [{ type: "insert_page", id: "p1", markdown: "# Getting started\n\nHello" }], NOW);
    expect(out.pages[0]).toMatchObject({ id: "p1", title: "Getting started", slug: "getting-started", path: "getting-started" });
    expect(out.documents.get(out.pages[0].documentId!)).toBe("Hello");
    expect(out.pages[0].documentId).toBe(documentIdOf("Hello"));
  });

  test("front matter sets title and description; an explicit title wins over both", () => {
    const fm = applyChanges(empty(), [{ type: "insert_page", markdown: "---\ntitle: \"From FM\"\ndescription: Short\n---\n# Heading\nBody" }], NOW);
    expect(fm.pages[0]).toMatchObject({ title: "From FM", description: "Short" });
    const explicit = applyChanges(empty(), [{ type: "insert_page", title: "Explicit", markdown: "# Heading" }], NOW);
    expect(explicit.pages[0].title).toBe("Explicit");
  });

  test("sibling slugs are made unique and paths follow the tree", () => {
    const out = applyChanges(
      empty(),
      [
        { type: "insert_page", id: "a", title: "Guide" },
        { type: "insert_page", id: "b", title: "Guide" },
        { type: "insert_page", id: "c", title: "Install", parent: "a" },
        { type: "insert_page", id: "d", title: "Install", parent: "b" },
      ],
      NOW,
    );
    expect([...out.pages.map((p) => p.path), out.pages[0].pages[0].path, out.pages[1].pages[0].path]).toEqual(["guide", "guide-2", "guide/install", "guide-2/install"]);
  });

  test("never modifies the base revision", () => {
    const base = applyChanges(empty(), [{ type: "insert_page", id: "a", title: "A" }], NOW);
    const snapshot = JSON.stringify(base.pages);
    applyChanges(base, [{ type: "update_page", page: "a", title: "B" }, { type: "delete_page", page: "a" }], NOW);
    expect(JSON.stringify(base.pages)).toBe(snapshot);
  });

  test("update keeps the slug unless one is given, and moves pages between parents", () => {
    const base = applyChanges(empty(), [{ type: "insert_page", id: "a", title: "A" }, { type: "insert_page", id: "b", title: "B" }], NOW);
    const out = applyChanges(base, [{ type: "update_page", page: "b", title: "Bee", parent: "a", position: 0 }], NOW);
    expect(out.pages.map((p) => p.id)).toEqual(["a"]);
    expect(out.pages[0].pages[0]).toMatchObject({ id: "b", title: "Bee", slug: "b", path: "a/b" });
  });

  test("a page cannot move inside itself", () => {
    const base = applyChanges(empty(), [{ type: "insert_page", id: "a", title: "A" }, { type: "insert_page", id: "b", title: "B", parent: "a" }], NOW);
    expect(() => applyChanges(base, [{ type: "update_page", page: "a", parent: "b" }], NOW)).toThrow(/inside itself/);
  });

  test("unknown pages and duplicate ids are 400s naming the change", () => {
    expect(() => applyChanges(empty(), [{ type: "update_page", page: "x", title: "t" }], NOW)).toThrow(/changes\[0\]\.page/);
    expect(() => applyChanges(empty(), [{ type: "insert_page", title: "t", parent: "x" }], NOW)).toThrow(/parent/);
    expect(() => applyChanges(empty(), [{ type: "insert_page", id: "a" }, { type: "insert_page", id: "a" }], NOW)).toThrow(/changes\[1\]\.id/);
  });

  test("a page group is inserted at the top level without content, holds pages, and stays a group at the top level", () => {
    const out = applyChanges(
      empty(),
      [
        { type: "insert_page", id: "g", pageType: "group", title: "Guides", markdown: "" },
        { type: "insert_page", id: "p", title: "Install", parent: "g", markdown: "Steps" },
        { type: "update_page", page: "g", title: "All guides", position: 0 },
      ],
      NOW,
    );
    expect(out.pages[0]).toMatchObject({ id: "g", type: "group", title: "All guides", path: "guides", pages: [{ id: "p", type: "document", path: "guides/install" }] });
    expect(out.pages[0].documentId).toBeUndefined();
    expect(() => applyChanges(out, [{ type: "insert_page", pageType: "group", title: "Nested", parent: "p" }], NOW)).toThrow("'changes[0].parent': a page group stays at the top level");
    expect(() => applyChanges(out, [{ type: "insert_page", pageType: "group", title: "Full", markdown: "# Full\n\nA body" }], NOW)).toThrow("'changes[0].markdown': a page group has no content");
    expect(() => applyChanges(out, [{ type: "update_page", page: "g", parent: "p" }], NOW)).toThrow("'changes[0].parent'");
    expect(() => applyChanges(out, [{ type: "update_page", page: "g", markdown: "Text" }], NOW)).toThrow("'changes[0].markdown'");
    // Moved among the top-level pages, renamed, emptied: still a group.
    const moved = applyChanges(out, [{ type: "insert_page", id: "q", title: "Top" }, { type: "update_page", page: "g", parent: null, position: 1, markdown: "" }], NOW);
    expect(moved.pages.map((p) => [p.id, p.type])).toEqual([["q", "document"], ["g", "group"]]);
  });

  test("deleting a page removes its children; deleting a missing page changes nothing", () => {
    const base = applyChanges(empty(), [{ type: "insert_page", id: "a", title: "A" }, { type: "insert_page", id: "b", title: "B", parent: "a" }], NOW);
    const out = applyChanges(base, [{ type: "delete_page", page: "a" }, { type: "delete_page", page: "zzz" }], NOW);
    expect(out.pages).toEqual([]);
    expect(() => applyChanges(out, [{ type: "insert_page", id: "b", title: "again" }], NOW)).not.toThrow();
  });

  test("files, variables and reusable content", () => {
    const out = applyChanges(
      empty(),
      [
        { type: "insert_file", id: "f", name: "a.png", contentType: "image/png", size: 3, sha256: "x" },
        { type: "set_variables", variables: { a: "1" } },
        { type: "set_variables", variables: { b: "2" } },
        { type: "upsert_reusable_content", id: "r", title: "Snippet", markdown: "hi" },
      ],
      NOW,
    );
    expect(out.files.map((f) => f.id)).toEqual(["f"]);
    expect(out.variables).toEqual({ a: "1", b: "2" });
    expect(out.reusableContents).toEqual([{ id: "r", title: "Snippet", documentId: documentIdOf("hi") }]);
    const removed = applyChanges(out, [{ type: "delete_file", file: "f" }, { type: "delete_reusable_content", id: "r" }], NOW);
    expect(removed.files).toEqual([]);
    expect(removed.reusableContents).toEqual([]);
  });

  test("identical bodies share one document id", () => {
    const out = applyChanges(empty(), [{ type: "insert_page", markdown: "same" }, { type: "insert_page", markdown: "same" }], NOW);
    expect(out.pages[0].documentId).toBe(out.pages[1].documentId);
    expect(out.documents.size).toBe(1);
  });
});

describe("lookups and links", () => {
  const tree = applyChanges(empty(), [{ type: "insert_page", id: "a", title: "Guide" }, { type: "insert_page", id: "b", title: "Install", parent: "a" }], NOW);

  test("pages are found by id and by path, with or without slashes around it", () => {
    expect(findPage(tree.pages, "b")?.title).toBe("Install");
    expect(findPageByPath(tree.pages, "/guide/install/")?.id).toBe("b");
    expect(findPageByPath(tree.pages, "guide/nope")).toBeUndefined();
  });

  test.each([
    ["guide/install", "../other.md", "other"],
    ["guide/install", "setup.md", "guide/setup"],
    ["intro", "guide/README.md", "guide"],
    ["intro", "/guide/install", "guide/install"],
    ["intro", "./faq.md#answer", "faq"],
    ["intro", ".gitbook/assets/logo.svg", ".gitbook/assets/logo.svg"],
  ])("a link from %s to %s resolves to %s", (from, href, expected) => {
    expect(resolveLinkPath(from, href)).toBe(expected);
  });

  test("slugify keeps lower-case words and never answers an empty slug", () => {
    expect(slugify("Héllo, World!")).toBe("hello-world");
    expect(slugify("!!!")).toBe("page");
  });
});

describe("changesForPaths", () => {
  test("nests pages by path, making empty pages for missing levels and updating pages that exist", () => {
    const base = applyChanges(empty(), [{ type: "insert_page", id: "g", title: "Guides", slug: "guides" }], NOW);
    const changes = changesForPaths(base.pages, [
      { title: "Install", path: "guides/install", markdown: "# Install\nSteps" },
      { title: "Deep", path: "api/v1/deep", markdown: "Deep body" },
      { title: "Guides home", path: "guides", markdown: "Home" },
    ]);
    const out = applyChanges(base, changes, NOW);
    expect(findPageByPath(out.pages, "guides")?.title).toBe("Guides home");
    expect(findPageByPath(out.pages, "guides/install")?.title).toBe("Install");
    expect(findPageByPath(out.pages, "api/v1/deep")?.title).toBe("Deep");
    expect(findPageByPath(out.pages, "api")?.documentId).toBeUndefined();
  });
});
