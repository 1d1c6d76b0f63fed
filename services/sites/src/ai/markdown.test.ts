import { LlmsFullWriter, llmsTxt, pageMarkdown, rewriteLinks, substituteMarkdownVariables } from "./markdown";
import { markdownPath } from "./serve-ai";

const page = (href: string) => (href === "install.md" ? "https://x/sites/a/install.md" : undefined);
const file = (src: string) => (src.endsWith("logo.png") ? "https://x/v1/files/t" : undefined);

describe("rewriteLinks", () => {
  test("page links, images, content-refs and files are rewritten; unknown and absolute links stay", () => {
    const md = [
      "See [install](install.md \"Install\") and [there](https://example.com) or [nowhere](missing.md).",
      "![logo](.gitbook/assets/logo.png)",
      '{% content-ref url="install.md" %}',
      '{% file src=".gitbook/assets/logo.png" %}',
    ].join("\n");
    expect(rewriteLinks(md, page, file)).toBe(
      [
        'See [install](https://x/sites/a/install.md "Install") and [there](https://example.com) or [nowhere](missing.md).',
        "![logo](https://x/v1/files/t)",
        '{% content-ref url="https://x/sites/a/install.md" %}',
        '{% file src="https://x/v1/files/t" %}',
      ].join("\n"),
    );
  });

  test("fenced code is left as written, up to its closing fence", () => {
    const md = "```md\n[install](install.md)\n```\n[install](install.md)\n~~~~\n[install](install.md)\n~~~\nstill code\n~~~~";
    const out = rewriteLinks(md, page, file).split("\n");
    expect(out[1]).toBe("[install](install.md)");
    expect(out[3]).toBe("[install](https://x/sites/a/install.md)");
    expect(out[5]).toBe("[install](install.md)");
    expect(out[7]).toBe("still code");
  });
});

test("variables are substituted as written (no HTML escaping); unknown ones stay", () => {
  expect(substituteMarkdownVariables("{{ space.vars.a }} {{vars.a}} {{ page.vars.b }} {{ vars.c }}", { a: "<A>" }, { b: "B" })).toBe("<A> <A> B {{ vars.c }}");
});

test("a page: the pointer, an H1 of one line, the description, the body", () => {
  expect(pageMarkdown({ title: "Two\nlines", description: "About", body: "\nBody.\n\n" }, "> ptr")).toBe("> ptr\n\n# Two lines\n\nAbout\n\nBody.\n");
  expect(pageMarkdown({ title: "", body: "" })).toBe("# Untitled\n");
});

test("llms.txt: H1, blockquote, H2 per group, list lines with brackets in titles escaped", () => {
  const text = llmsTxt({ title: "Site", description: "Desc", groups: [{ title: "Guide", entries: [{ title: "A [b]", url: "https://x/a.md", description: "one\ntwo" }, { title: "C", url: "https://x/c.md" }] }, { title: "Empty", entries: [] }] });
  expect(text).toBe("# Site\n\n> Desc\n\n## Guide\n\n- [A \\[b\\]](https://x/a.md): one two\n- [C](https://x/c.md)\n\n## Empty\n");
});

test("llms-full.txt stops before its bound and says so", () => {
  const writer = new LlmsFullWriter({ title: "Site", groups: [] }, "https://x/llms.txt", 2000);
  let added = 0;
  while (writer.add({ title: `P${added}`, body: "x".repeat(300) }, `https://x/p${added}.md`)) added++;
  expect(added).toBeGreaterThan(2);
  expect(Buffer.byteLength(writer.text())).toBeLessThanOrEqual(2000);
  expect(writer.truncated).toBe(true);
  expect(writer.text()).toContain("[llms.txt](https://x/llms.txt)");
  expect(writer.add({ title: "more", body: "" }, "u")).toBe(false);
});

test("llms-full.txt's pieces, taken as they are written, join into the whole document", () => {
  const writer = new LlmsFullWriter({ title: "Site", description: "About", groups: [] }, "https://x/llms.txt", 2000);
  const taken = [writer.take()];
  expect(taken[0]).toBe("# Site\n\n> About\n");
  for (let i = 0; writer.add({ title: `P${i}`, body: "y".repeat(300) }, `https://x/p${i}.md`); i++) taken.push(writer.take());
  taken.push(writer.take());
  expect(writer.take()).toBe("");
  expect(taken.join("")).toBe(writer.text());
  expect(taken.at(-1)).toContain("This document stops here");
});

test("a .md path is the page path without .md", () => {
  expect(markdownPath(["guide", "install.md"])).toEqual(["guide", "install"]);
  expect(markdownPath(["guide"])).toBeNull();
  expect(markdownPath([".md"])).toBeNull();
  expect(markdownPath([])).toBeNull();
});

test("llms.txt stops before its bound with a note", () => {
  const entries = Array.from({ length: 100 }, (_, i) => ({ title: `Page ${i}`, url: `https://x/p${i}.md`, description: "d".repeat(50) }));
  const text = llmsTxt({ title: "Site", groups: [{ title: "A", entries }, { title: "B", entries }] }, 3000);
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3000);
  expect(text).toContain("- [Page 0](https://x/p0.md)");
  expect(text).not.toContain("## B");
  expect(text.trimEnd().endsWith("or its search page.")).toBe(true);
});

test("llms-full.txt closed early (the page cap) ends with the same note", () => {
  const writer = new LlmsFullWriter({ title: "Site", groups: [] }, "https://x/llms.txt");
  writer.add({ title: "One", body: "b" }, "https://x/one.md");
  expect(writer.close()).toBe(false);
  expect(writer.text()).toContain("# One");
  expect(writer.text()).toContain("This document stops here");
  expect(writer.add({ title: "Two", body: "b" }, "u")).toBe(false);
});
