import { strToU8, zipSync } from "fflate";
import { filePages, pagePathOf, sourceFiles } from "./file-pages";

const LIMITS = { maxEntries: 100, maxUncompressedBytes: 1024 * 1024, maxRatio: 100 };

describe("file pages", () => {
  test("paths: folders nest, README and index are their folder's page, names are slugged", () => {
    expect(pagePathOf("README.md")).toBe("index");
    expect(pagePathOf("Guides/README.md")).toBe("guides");
    expect(pagePathOf("Guides/Getting Started.md")).toBe("guides/getting-started");
    expect(pagePathOf("api/v1/index.html")).toBe("api/v1");
  });

  test("a ZIP's Markdown and HTML entries become pages with titles from headings, in path order", async () => {
    const zip = Buffer.from(
      zipSync({
        "README.md": strToU8("# Welcome\n\nHello."),
        "guides/install.md": strToU8("---\ntitle: Installing\n---\nRun it."),
        "guides/deep/page.html": strToU8("<html><head><title>T</title></head><body><main><h1>Deep page</h1><p>Some <strong>bold</strong> text.</p></main></body></html>"),
        "images/logo.png": strToU8("png"),
        "notes_on-things.md": strToU8("No heading."),
      }),
    );
    const files = await sourceFiles([{ name: "docs.zip", kind: "zip", bytes: zip }], LIMITS);
    const { pages, totalResources } = filePages(files, 10);
    expect(totalResources).toBe(4);
    expect(pages.map((p) => [p.path, p.title])).toEqual([
      ["index", "Welcome"],
      ["notes-on-things", "notes on things"],
      ["guides/install", "Installing"],
      ["guides/deep/page", "Deep page"],
    ]);
    expect(pages[3].markdown).toBe("Some **bold** text.");
  });

  test("the page limit keeps the first pages and counts the rest; repeated paths get -2", async () => {
    const files = await sourceFiles(
      [
        { name: "a.md", kind: "markdown", bytes: Buffer.from("# A") },
        { name: "a.html", kind: "html", bytes: Buffer.from("<h1>A again</h1>") },
        { name: "b.md", kind: "markdown", bytes: Buffer.from("# B") },
      ],
      LIMITS,
    );
    const { pages, totalResources } = filePages(files, 2);
    expect(totalResources).toBe(3);
    expect(pages.map((p) => p.path)).toEqual(["a", "a-2"]);
  });
});
