// Every page of the Git sync fixtures (real GitBook repositories, test/fixtures/git-sync) through the one
// renderer of sites and app: no GitBook tag (`{%`) reaches the HTML, and nothing on it can run script.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "node-html-parser";
import { renderMarkdown } from "@docshelf/document";

const FIXTURES = join(__dirname, "..", "fixtures", "git-sync");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return markdownFiles(path);
      return name.endsWith(".md") && name !== "SUMMARY.md" ? [path] : [];
    });
}

// The folder's own README.md describes the fixtures (and names GitBook's tags in code spans): not a page.
const files = markdownFiles(FIXTURES).filter((file) => file !== join(FIXTURES, "README.md"));

describe("the Git sync fixtures render without GitBook tags", () => {
  test("the fixtures hold pages, and GitBook blocks among them", () => {
    expect(files.length).toBeGreaterThan(40);
    const tags = files.reduce((n, f) => n + (readFileSync(f, "utf8").match(/\{%/g) ?? []).length, 0);
    expect(tags).toBeGreaterThan(40);
  });

  test.each(files.map((f) => [relative(FIXTURES, f), f]))("%s", (_name, file) => {
    const markdown = readFileSync(file, "utf8");
    const { html } = renderMarkdown(markdown, { resolveLink: (href) => `/site/${href}`, resolveImage: (src) => `https://files.example/${src.split("/").pop()}` });
    expect(html).not.toContain("{%");
    expect(html).not.toContain("%}");
    const root = parse(html);
    expect(root.querySelectorAll("script, style, object, form")).toHaveLength(0);
    for (const el of root.querySelectorAll("*")) {
      for (const name of Object.keys(el.attributes)) expect(name.toLowerCase().startsWith("on")).toBe(false);
    }
    // Every hint written in the file is a hint on the page.
    const hints = (markdown.match(/^\{% hint /gm) ?? []).length;
    expect(root.querySelectorAll(".hint").length).toBeGreaterThanOrEqual(hints);
  });
});
