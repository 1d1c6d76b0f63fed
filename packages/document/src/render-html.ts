// A page's markdown as safe HTML, for the published sites and the app alike: markdown-it (raw HTML off)
// then sanitize-html's allow-list, heading anchors and the table of contents, links between pages, and
// `{{ space.vars.NAME }}` substituted. The XSS corpus (xss-corpus.ts) is what it must render inert.
import sanitizeHtml from "sanitize-html";
import { headingAnchors, markdownIt as md } from "./headings";

export interface TocEntry {
  id: string;
  title: string;
  level: number;
}

export interface RenderedPage {
  html: string;
  toc: TocEntry[];
}

export interface RenderOptions {
  /** `space.vars` (and `vars`) of the revision. */
  spaceVars?: Record<string, string>;
  /** `page.vars` of the page. */
  pageVars?: Record<string, string>;
  /** A relative link of the markdown (`other.md`, `../guide/README.md`) as a URL of the site, or undefined to keep it. */
  resolveLink?: (href: string) => string | undefined;
  /** A relative image source as a URL (a file of the revision), or undefined to keep it. */
  resolveImage?: (src: string) => string | undefined;
}

/** The allow-list: markup markdown makes, with only the attributes it needs; no style, no on*, no frames. */
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
  // Everything inside these is dropped with them, not kept as text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "iframe", "object", "embed", "svg", "math", "template"],
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^(https?:)?\/\//i.test(attribs.href ?? "");
      return { tagName, attribs: external ? { ...attribs, rel: "noopener noreferrer nofollow" } : attribs };
    },
  },
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

const VARIABLE = /\{\{\s*(space\.vars|page\.vars|vars)\.([A-Za-z_][\w-]*)\s*\}\}/g;

/** Substitutes known variables, HTML-escaped; unknown ones stay as written so a reader sees what is missing. */
export function substituteVariables(html: string, spaceVars: Record<string, string>, pageVars: Record<string, string>): string {
  return html.replace(VARIABLE, (whole, scope: string, name: string) => {
    const vars = scope === "page.vars" ? pageVars : spaceVars;
    return Object.prototype.hasOwnProperty.call(vars, name) ? escapeHtml(String(vars[name])) : whole;
  });
}

/** Renders a page body; the HTML is sanitized whatever the markdown holds. */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): RenderedPage {
  const tokens = md.parse(markdown, {});
  const toc: TocEntry[] = [];
  for (const { index, level, title, anchor } of headingAnchors(tokens)) {
    tokens[index].attrSet("id", anchor);
    if (level <= 3 && title) toc.push({ id: anchor, title, level });
  }
  for (const token of tokens) {
    if (token.type === "inline") {
      for (const child of token.children ?? []) {
        const [attr, resolve] = child.type === "link_open" ? ["href", options.resolveLink] : child.type === "image" ? ["src", options.resolveImage] : [];
        if (!attr || !resolve) continue;
        const value = child.attrGet(attr);
        const resolved = typeof value === "string" && value ? resolve(value) : undefined;
        if (resolved !== undefined) child.attrSet(attr, resolved);
      }
    }
  }
  const html = sanitizeHtml(md.renderer.render(tokens, md.options, {}), SANITIZE);
  return { html: substituteVariables(html, options.spaceVars ?? {}, options.pageVars ?? {}), toc };
}

/** Sanitizes HTML with the pages' allow-list (exported for the XSS corpus tests). */
export function sanitize(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}
