// The page renderer: headings, table of contents, links between pages, variables, and an XSS corpus
// whose every case comes out without script, handlers, style or a dangerous URL.
import { parse, type HTMLElement } from "node-html-parser";
import { renderMarkdown, sanitize, substituteVariables } from "./render-html";
import { markdownSections } from "./sections";
import { markdownToDocument } from "./parse";
import { documentToMarkdown } from "./serialize";
import { XSS_CORPUS } from "./xss-corpus";

const DANGEROUS_URL = /^(javascript|vbscript|data|file):/i;
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "xlink:href", "data", "srcdoc", "background", "poster", "cite"];
const FORBIDDEN_ELEMENTS = ["script", "style", "iframe", "object", "embed", "svg", "math", "base", "meta", "form", "input", "button", "template", "link", "noscript"];

/** A URL as a browser reads it: node-html-parser's `attributes` are entity-decoded once, as a browser does; whitespace and control characters are dropped. */
function normalizedUrl(value: string): string {
  return value.replace(/[\s\u0000-\u001f]+/g, "");
}

function expectHarmless(html: string): void {
  const root = parse(html);
  const all: HTMLElement[] = root.querySelectorAll("*");
  for (const tag of FORBIDDEN_ELEMENTS) expect(root.querySelectorAll(tag)).toHaveLength(0);
  for (const el of all) {
    for (const [name, value] of Object.entries(el.attributes)) {
      const lower = name.toLowerCase();
      expect(lower.startsWith("on")).toBe(false);
      expect(lower).not.toBe("style");
      if (URL_ATTRIBUTES.includes(lower)) expect(normalizedUrl(value)).not.toMatch(DANGEROUS_URL);
    }
  }
}

describe("XSS corpus", () => {
  test("has at least 40 cases with distinct names", () => {
    expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(XSS_CORPUS.map((c) => c.name)).size).toBe(XSS_CORPUS.length);
  });

  test.each(XSS_CORPUS.map((c) => [c.name, c.markdown]))("%s renders without script, handlers, style or dangerous URLs", (_name, markdown) => {
    const { html } = renderMarkdown(markdown, { spaceVars: { evil: "<script>alert(1)</script><img src=x onerror=alert(1)>" } });
    expectHarmless(html);
  });

  test.each(XSS_CORPUS.map((c) => [c.name, c.markdown]))("%s given to the sanitizer as raw HTML comes out harmless", (_name, markdown) => {
    expectHarmless(sanitize(markdown));
  });

  test("GitBook's inline HTML is kept through the allow-list; other tags (script) are shown as text", () => {
    const { html } = renderMarkdown("<b>bold</b> <script>alert(1)</script>");
    expect(html).toBe("<p><b>bold</b> &lt;script&gt;alert(1)&lt;/script&gt;</p>");
  });

  test("safe links and images keep their URLs; external links get rel noopener", () => {
    const { html } = renderMarkdown("[a](https://example.com/x) [m](mailto:a@example.com) [r](../other) ![i](https://example.com/i.png)");
    const root = parse(html);
    expect(root.querySelectorAll("a").map((a) => a.getAttribute("href"))).toEqual(["https://example.com/x", "mailto:a@example.com", "../other"]);
    expect(root.querySelector("a")?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(root.querySelector("img")?.getAttribute("src")).toBe("https://example.com/i.png");
  });

  test("the sanitizer drops protocol-relative URLs and keeps code language classes only", () => {
    const root = parse(sanitize('<a href="//evil.example/x">x</a><code class="language-ts other">c</code><p class="x">p</p>'));
    expect(root.querySelector("a")?.getAttribute("href")).toBeUndefined();
    expect(root.querySelector("code")?.getAttribute("class")).toBe("language-ts");
    expect(root.querySelector("p")?.getAttribute("class")).toBeUndefined();
  });
});

describe("renderMarkdown", () => {
  test("headings get unique GitBook-style anchors and the table of contents lists levels 1 to 3", () => {
    const { html, toc } = renderMarkdown("## Getting started\n\n### Install `cli`\n\n## Getting started\n\n#### Deep\n\n## Ünïcode Ärger!\n");
    expect(toc).toEqual([
      { id: "getting-started", title: "Getting started", level: 2 },
      { id: "install-cli", title: "Install cli", level: 3 },
      { id: "getting-started-1", title: "Getting started", level: 2 },
      { id: "unicode-arger", title: "Ünïcode Ärger!", level: 2 },
    ]);
    expect(parse(html).querySelector("h4")?.getAttribute("id")).toBe("deep");
  });

  test("relative links are resolved through resolveLink; other links are left alone", () => {
    const seen: string[] = [];
    const { html } = renderMarkdown("[a](guide.md) [b](https://x.example) [c](#top)", {
      resolveLink: (href) => {
        seen.push(href);
        return href === "guide.md" ? "/sites/docs/guide" : undefined;
      },
    });
    expect(parse(html).querySelectorAll("a").map((a) => a.getAttribute("href"))).toEqual(["/sites/docs/guide", "https://x.example", "#top"]);
    // Only relative links are asked about.
    expect(seen).toEqual(["guide.md"]);
  });

  test("relative images are resolved through resolveImage; web images stay", () => {
    const { html } = renderMarkdown("![a](.gitbook/assets/a.png) ![b](https://x.example/b.png)", {
      resolveImage: (src) => (src === ".gitbook/assets/a.png" ? "https://docs.example/v1/files/token" : undefined),
    });
    expect(parse(html).querySelectorAll("img").map((i) => i.getAttribute("src"))).toEqual(["https://docs.example/v1/files/token", "https://x.example/b.png"]);
  });

  test("variables: space, short and page forms are substituted and escaped; unknown ones stay", () => {
    expect(substituteVariables("{{ space.vars.a }} {{vars.a}} {{ page.vars.p }} {{ space.vars.zz }}", { a: "<A&B>" }, { p: "P" })).toBe(
      "&lt;A&amp;B&gt; &lt;A&amp;B&gt; P {{ space.vars.zz }}",
    );
    const { html } = renderMarkdown("Version {{ space.vars.v }}", { spaceVars: { v: '"1.0"' } });
    expect(html).toBe("<p>Version &quot;1.0&quot;</p>");
  });

  test("GitBook's expression markdown shows the variable's value, escaped; an included reusable content renders with its variables", () => {
    const { html } = renderMarkdown('For <code class="expression">space.vars.PRODUCT</code>.', { spaceVars: { PRODUCT: "<X>" } });
    expect(html).toBe("<p>For &lt;X&gt;.</p>");
    const included = renderMarkdown('{% include "../.gitbook/includes/block.md" %}\n', {
      spaceVars: { PRODUCT: "Xopera" },
      reusableContent: (ref) => (ref.reusableContent === "../.gitbook/includes/block.md" ? 'Product <code class="expression">space.vars.PRODUCT</code>.' : undefined),
    });
    expect(included.html).toContain("Product Xopera.");
    expect(included.html).toContain('class="reusable-content"');
  });
});

describe("search anchors and rendered heading ids", () => {
  const SAMPLE = [
    "Intro text before any heading.",
    "",
    "# Getting started",
    "",
    "Setext title",
    "============",
    "",
    "## Install `cli` on *Linux*",
    "",
    "## Getting started",
    "",
    "Setext second",
    "-------------",
    "",
    "### See [the guide](guide.md) & **more**",
    "",
    "> ## Quoted heading",
    "",
    "- ### Heading in a list",
    "",
    "```",
    "# not a heading",
    "```",
    "",
    "#### Ünïcode Ärger!",
    "",
    "## Getting started",
    "",
    "###### C# and C++ <b>bold</b>",
    "",
  ].join("\n");

  test("every markdownSections anchor is the id of a heading in renderMarkdown's HTML, in the same order", () => {
    const sections = markdownSections(SAMPLE).slice(1);
    const ids = parse(renderMarkdown(SAMPLE).html)
      .querySelectorAll("h1, h2, h3, h4, h5, h6")
      .map((h) => h.getAttribute("id"));
    expect(sections.length).toBe(11);
    for (const section of sections) expect(ids).toContain(section.anchor);
    expect(ids).toEqual(sections.map((s) => s.anchor));
  });
});

describe("images: width and dark-mode variants (GitBook's refDark)", () => {
  const PICTURE = '<figure><picture><source srcset="https://img.example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://img.example.com/light.png" alt="A diagram" width="320"></picture><figcaption><p>The diagram</p></figcaption></figure>\n';

  test("parsed into the image block, rendered as a picture, written back as GitBook writes it", () => {
    const doc = markdownToDocument(PICTURE);
    const image = (doc.nodes[0] as { nodes: Array<{ data: Record<string, unknown> }> }).nodes[0];
    expect(image.data).toEqual({ ref: { kind: "url", url: "https://img.example.com/light.png" }, refDark: { kind: "url", url: "https://img.example.com/dark.png" }, alt: "A diagram", width: 320 });
    expect(documentToMarkdown(doc).trim()).toBe(PICTURE.trim());
    const root = parse(renderMarkdown(PICTURE, {}).html);
    expect(root.querySelector("figure.image picture source")?.getAttribute("srcset")).toBe("https://img.example.com/dark.png");
    expect(root.querySelector("figure.image picture source")?.getAttribute("media")).toBe("(prefers-color-scheme: dark)");
    expect(root.querySelector("figure.image picture img")?.getAttribute("width")).toBe("320");
  });

  test("a percentage width is kept; a bad width or an unsafe dark URL is dropped", () => {
    const percent = markdownToDocument('<figure><img src="https://a.example/x.png" alt="x" width="50%"></figure>\n');
    expect((percent.nodes[0] as { nodes: Array<{ data: Record<string, unknown> }> }).nodes[0].data.width).toEqual({ unit: "%", value: 50 });
    expect(parse(renderMarkdown('<figure><img src="https://a.example/x.png" alt="x" width="50%"></figure>\n', {}).html).querySelector("img")?.getAttribute("width")).toBe("50%");
    const bad = parse(renderMarkdown('<figure><picture><source srcset="javascript:alert(1)" media="(prefers-color-scheme: dark)"><img src="https://a.example/l.png" width="1e3" onerror="x"></picture></figure>\n', {}).html);
    expect(bad.querySelectorAll("picture, source")).toHaveLength(0);
    expect(bad.querySelector("img")?.getAttribute("width")).toBeUndefined();
    expect(bad.querySelector("img")?.getAttribute("onerror")).toBeUndefined();
  });
});
