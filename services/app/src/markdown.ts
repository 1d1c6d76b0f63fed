// A page's Markdown as safe HTML, the way the published sites render it: markdown-it with raw HTML off,
// then sanitize-html with the same allow-list (no script, style, frames or event attributes; http(s) and
// mailto links only), heading anchors from @docshelf/slugs.
//
// The published sites' renderer lives in services/sites/src/serve/markdown.ts and no package exports it;
// a service must not import another's source, so this is the same configuration, kept equal by the
// end-to-end test test/src/app-markdown.test.ts (the sites' XSS corpus and ordinary pages through both).
// Moving both into a shared package is left for later.
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";
import { slugifyHeading, uniqueAnchor } from "@docshelf/slugs";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "ul", "ol", "li", "blockquote", "code", "pre", "em", "strong", "s", "del",
    "hr", "br", "img", "table", "thead", "tbody", "tr", "th", "td", "sup", "sub",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title"],
    h1: ["id"], h2: ["id"], h3: ["id"], h4: ["id"], h5: ["id"], h6: ["id"],
    ol: ["start"],
    code: ["class"],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "iframe", "object", "embed", "svg", "math", "template"],
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^(https?:)?\/\//i.test(attribs.href ?? "");
      return { tagName, attribs: external ? { ...attribs, rel: "noopener noreferrer nofollow" } : attribs };
    },
  },
};

/** Renders Markdown; the HTML is sanitized whatever the Markdown holds. */
export function renderMarkdown(markdown: string): string {
  const tokens = md.parse(markdown, {});
  const used = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== "heading_open") continue;
    const inline = tokens[i + 1];
    const title = (inline?.children ?? []).map((c) => (c.type === "text" || c.type === "code_inline" ? c.content : "")).join("").trim();
    token.attrSet("id", uniqueAnchor(slugifyHeading(title), used));
  }
  return sanitizeHtml(md.renderer.render(tokens, md.options, {}), SANITIZE);
}

/** The allow-list alone (for tests). */
export function sanitize(markup: string): string {
  return sanitizeHtml(markup, SANITIZE);
}
