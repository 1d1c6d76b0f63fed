// The document renderer: every block of GitBook's model as GitBook shows it, no `{%` left on a page,
// server-side highlighting and math, embeds from the allow-list only, and the XSS corpus inert inside
// every block type (a hint's body, a tab's title, an embed's URL, a code title, a math expression…).
import { parse as parseHtml, type HTMLElement } from "node-html-parser";
import { BLOCK_SELECTORS, BLOCKS_PAGE } from "../blocks-fixture";
import { markdownToDocument } from "../parse";
import { renderMarkdown } from "../render-html";
import { markdownSections } from "../sections";
import { xssInBlocks } from "../xss-corpus";
import { EMBED_FRAME_HOSTS, EMBED_SANDBOX, embedFrame } from "./embeds";
import { highlightLines } from "./highlight";
import { renderDocument } from "./render-document";

/** The HTML as a tree, `<pre>` included (node-html-parser keeps its content as text by default). */
const parse = (html: string) => parseHtml(html, { blockTextElements: { script: true, noscript: true, style: true } });

const DANGEROUS_URL = /^(javascript|vbscript|data|file):/i;
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "xlink:href", "data", "srcdoc", "background", "poster", "cite", "srcset"];
const FORBIDDEN_ELEMENTS = ["script", "style", "object", "embed", "svg", "base", "meta", "form", "input", "button", "template", "link", "noscript", "textarea", "select"];
const MATHML = /^(math|semantics|annotation|mrow|mi|mo|mn|ms|mtext|mspace|msup|msub|msubsup|mfrac|msqrt|mroot|mtable|mtr|mtd|munder|mover|munderover|mstyle|mpadded|mphantom|menclose|merror|mprescripts|mmultiscripts|none)$/;

/** No script, handler, style or dangerous URL; MathML only as KaTeX writes it; iframes only of the allowed hosts, sandboxed. */
export function expectHarmless(html: string): void {
  const root = parse(html);
  for (const tag of FORBIDDEN_ELEMENTS) expect(root.querySelectorAll(tag)).toHaveLength(0);
  for (const el of root.querySelectorAll("*") as HTMLElement[]) {
    for (const [name, value] of Object.entries(el.attributes)) {
      const lower = name.toLowerCase();
      expect(lower.startsWith("on")).toBe(false);
      expect(lower).not.toBe("style");
      expect(lower).not.toBe("srcdoc");
      if (URL_ATTRIBUTES.includes(lower)) expect(value.replace(/[\s\u0000-\u001f]+/g, "")).not.toMatch(DANGEROUS_URL);
    }
  }
  for (const math of root.querySelectorAll("math")) {
    expect(math.parentNode?.classList.contains("katex")).toBe(true);
    for (const el of math.querySelectorAll("*")) {
      expect(el.tagName.toLowerCase()).toMatch(MATHML);
      expect(el.getAttribute("href")).toBeUndefined();
    }
  }
  for (const frame of root.querySelectorAll("iframe")) {
    expect(EMBED_FRAME_HOSTS).toContain(new URL(frame.getAttribute("src")!).hostname);
    expect(frame.getAttribute("sandbox")).toBe(EMBED_SANDBOX);
  }
}


describe("every block of GitBook's model", () => {
  const { html, toc } = renderMarkdown(BLOCKS_PAGE);
  const root = parse(html);

  test.each(Object.entries(BLOCK_SELECTORS))("%s renders (%s)", (_name, selector) => {
    expect(root.querySelector(selector)).not.toBeNull();
  });

  test("no liquid tag reaches the page", () => {
    expect(html).not.toContain("{%");
    expect(html).not.toContain("%}");
  });

  test("the table of contents lists levels 1 to 3, in page order", () => {
    expect(toc.slice(0, 4)).toEqual([
      { id: "hints", title: "Hints", level: 2 },
      { id: "code", title: "Code", level: 2 },
      { id: "tabs", title: "Tabs", level: 2 },
      { id: "expandable", title: "Expandable", level: 2 },
    ]);
    expect(toc.map((t) => t.id)).toContain("install");
  });

  test("tabs keep every panel, each with its title, readable without script", () => {
    const panels = root.querySelectorAll(".tabs .tab-panel");
    expect(panels.map((p) => p.getAttribute("data-title"))).toEqual(["npm", "yarn"]);
    expect(panels.map((p) => p.querySelector(".tab-title")?.text)).toEqual(["npm", "yarn"]);
  });

  test("code keeps its title, wrap, line numbers and one line element per line", () => {
    const block = root.querySelector(".code-block")!;
    expect(block.querySelector(".code-title")?.text).toBe("install.sh");
    expect(block.querySelector("pre")?.classList.contains("wrap")).toBe(true);
    expect(block.querySelectorAll(".line")).toHaveLength(2);
    expect(block.querySelector("code")?.text).toContain('npm install --save docshelf-cli && docshelf init --name "my docs"');
  });

  test("math is MathML from KaTeX, typeset on the server", () => {
    expect(root.querySelector(".math-block math mfrac")).not.toBeNull();
    expect(root.querySelector("p .katex math msup")).not.toBeNull();
  });

  test("a YouTube embed is a sandboxed iframe of youtube-nocookie; another site is a link card", () => {
    const frame = root.querySelector(".embed-frame iframe")!;
    expect(frame.getAttribute("src")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(frame.getAttribute("sandbox")).toBe(EMBED_SANDBOX);
    expect(root.querySelector("a.embed-card")?.getAttribute("href")).toBe("https://github.com/docshelf/docshelf");
  });

  test("cards link to their target, hidden columns are not shown", () => {
    const cards = root.querySelectorAll(".cards .card");
    expect(cards).toHaveLength(2);
    expect(cards[0].querySelector("a.card-link")?.getAttribute("href")).toBe("https://example.com/quickstart");
    expect(cards[0].querySelector(".card-body")?.text).toBe("QuickstartStart in five minutes.");
  });

  test("the legacy swagger block is a card with method, path, parameters and responses", () => {
    const card = root.querySelector(".api-card")!;
    expect(card.querySelector(".api-method")?.text).toBe("GET");
    expect(card.querySelector(".api-path")?.text).toBe("/pets");
    expect(card.text).toContain("limit");
    expect(card.text).toContain("200: OK");
    expect(card.querySelector("a.api-spec")?.getAttribute("href")).toBe("https://example.com/openapi.yaml");
  });
});

describe("verbatim parts and links", () => {
  test("unknown liquid tags show their body, never the tags", () => {
    const { html } = renderMarkdown('{% updates format="full" %}\n{% update date="2024-01-01" %}\n## News\n\nBody text.\n{% endupdate %}\n{% endupdates %}\n\nBefore {% @figma/embed url="https://figma.com/file/x" %} after.\n\n{% endhint %}');
    expect(html).not.toContain("{%");
    expect(parse(html).querySelector("h2")?.text).toBe("News");
    expect(html).toContain("Body text.");
    expect(parse(html).querySelector('a[href="https://figma.com/file/x"]')).not.toBeNull();
  });

  test("a container GitBook's schema does not allow where it stands still renders (tabs inside a hint)", () => {
    const { html } = renderMarkdown('{% hint style="info" %}\n{% tabs %}\n{% tab title="A" %}\nIn A\n{% endtab %}\n{% endtabs %}\n{% endhint %}');
    expect(parse(html).querySelector(".hint .tabs .tab-panel")?.text).toContain("In A");
  });

  test("GitBook's HTML is rendered and sanitized: figures, marks, buttons, alignment; scripts and handlers are not", () => {
    const { html } = renderMarkdown('<p align="center">Centered <b>bold</b></p>\n\n<div><script>alert(1)</script><img src="x.png" onerror="alert(1)"></div>');
    const root = parse(html);
    expect(root.querySelector("p.align-center b")?.text).toBe("bold");
    expect(root.querySelector("script")).toBeNull();
    expect(root.querySelector("img")?.getAttribute("onerror")).toBeUndefined();
  });

  test("relative links, images, files and content-refs go through the resolvers; content-ref cards take the page title", () => {
    const { html } = renderMarkdown('[a](guide.md) ![i](.gitbook/assets/a.png)\n\n{% file src=".gitbook/assets/m.pdf" %}\n\n{% content-ref url="guide.md" %}\n[guide.md](guide.md)\n{% endcontent-ref %}\n\n<a href="guide.md" class="button primary">Go</a>', {
      resolveLink: (href) => (href === "guide.md" ? "/s/guide" : undefined),
      resolveImage: (src) => `https://files.example/${src.split("/").pop()}`,
      describeLink: (href) => (href === "guide.md" ? { href: "/s/guide", title: "The guide", description: "How to" } : undefined),
    });
    const root = parse(html);
    expect(root.querySelector("p a")?.getAttribute("href")).toBe("/s/guide");
    expect(root.querySelector("p img")?.getAttribute("src")).toBe("https://files.example/a.png");
    expect(root.querySelector("a.file-card")?.getAttribute("href")).toBe("https://files.example/m.pdf");
    expect(root.querySelector("a.content-ref")?.getAttribute("href")).toBe("/s/guide");
    expect(root.querySelector("a.content-ref .content-ref-title")?.text).toBe("The guide");
    expect(root.querySelector("a.button")?.getAttribute("href")).toBe("/s/guide");
  });

  test("a document from the API (page and anchor references) renders through resolveRef", () => {
    const doc = markdownToDocument("[p](x)");
    const para = doc.nodes[0] as Extract<(typeof doc.nodes)[number], { type: "paragraph" }>;
    const link = para.nodes[0] as Extract<(typeof para.nodes)[number], { type: "link" }>;
    link.data.ref = { kind: "page", page: "pg1" };
    const { html } = renderDocument(doc, { resolveRef: (ref) => (ref.kind === "page" ? { href: `/pages/${ref.page}`, title: "P" } : undefined) });
    expect(parse(html).querySelector("a")?.getAttribute("href")).toBe("/pages/pg1");
  });

  test("GitBook's explicit heading anchors are kept, and the search sections use the same ones", () => {
    const markdown = '## Install the tool <a href="#setup" id="setup"></a>\n\nText\n\n## Other\n\n#### Deep';
    const ids = parse(renderMarkdown(markdown).html).querySelectorAll("h2, h4").map((h) => h.getAttribute("id"));
    expect(ids).toEqual(["setup", "other", "deep"]);
    expect(markdownSections(markdown).slice(1).map((s) => s.anchor)).toEqual(ids);
  });
});

describe("highlighting and embeds", () => {
  test("a comment spanning lines is closed and reopened on each line", () => {
    const { lines, language } = highlightLines("/* one\ntwo */\nconst x = 1;", "js");
    expect(language).toBe("js");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect((line.match(/<span/g) ?? []).length).toBe((line.match(/<\/span>/g) ?? []).length);
    expect(lines[1]).toBe('<span class="hljs-comment">two */</span>');
  });

  test("an unknown syntax is escaped text; GitBook's aliases are known", () => {
    expect(highlightLines("<b>&", "nosuchlang").lines).toEqual(["&lt;b&gt;&amp;"]);
    expect(highlightLines("echo hi", "sh").language).toBe("sh");
    expect(highlightLines("x", "c#").language).toBe("csharp");
  });

  test("only allowed providers become frames, built from an id", () => {
    expect(embedFrame("https://youtu.be/dQw4w9WgXcQ")?.src).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(embedFrame("https://vimeo.com/76979871")?.src).toBe("https://player.vimeo.com/video/76979871");
    expect(embedFrame("https://www.youtube.com/watch?v=%22%3E%3Cscript%3E")).toBeUndefined();
    expect(embedFrame("https://evil.example/embed/youtube.com")).toBeUndefined();
    expect(embedFrame("javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ")).toBeUndefined();
  });
});

describe("the XSS corpus inside every block type", () => {
  const cases = xssInBlocks().map((c) => [c.block, c.name, c.markdown] as const);

  test.each(cases)("%s: %s", (_block, _name, markdown) => {
    const { html } = renderMarkdown(markdown, { spaceVars: { evil: "<script>alert(1)</script><img src=x onerror=alert(1)>" } });
    expectHarmless(html);
    expect(html).not.toContain("{%");
  });
});
