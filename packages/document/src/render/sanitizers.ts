// The two allow-lists of rendered pages (sanitize-html):
// - `sanitizeAuthorHtml`: the HTML an author writes in GitBook Markdown (figures, HTML tables, cards,
//   `<mark>`, buttons, `<details>`, pictures): markdown's elements and those few, no script, style,
//   frames, svg, math, forms or ids; `style` and `align` become classes; relative links and images are
//   resolved like the Markdown ones.
// - `sanitizePage`: the final pass over a whole rendered page: the above plus what the renderer itself
//   writes (its classes, heading ids, KaTeX's MathML, embed iframes of the allowed hosts, sandboxed).
import sanitizeHtml from "sanitize-html";
import { EMBED_FRAME_HOSTS, EMBED_SANDBOX } from "./embeds";

export interface LinkResolvers {
  resolveLink?: (href: string) => string | undefined;
  resolveImage?: (src: string) => string | undefined;
}

const MARKDOWN_TAGS = [
  "h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "ul", "ol", "li", "blockquote", "code", "pre", "em", "strong", "s", "del",
  "hr", "br", "img", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "sup", "sub",
];
const AUTHOR_TAGS = [...MARKDOWN_TAGS, "div", "span", "figure", "figcaption", "picture", "source", "mark", "details", "summary", "kbd", "u", "b", "i", "small", "caption", "dl", "dt", "dd", "abbr", "ins"];
const MATHML_TAGS = [
  "math", "semantics", "annotation", "mrow", "mi", "mo", "mn", "ms", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot",
  "mtable", "mtr", "mtd", "munder", "mover", "munderover", "mstyle", "mpadded", "mphantom", "menclose", "merror", "mprescripts", "mmultiscripts", "none",
];
const MATHML_ATTRIBUTES = [
  "xmlns", "display", "mathvariant", "encoding", "stretchy", "fence", "separator", "lspace", "rspace", "accent", "accentunder", "width", "height", "depth",
  "columnalign", "rowalign", "rowspacing", "columnspacing", "columnlines", "rowlines", "frame", "linethickness", "minsize", "maxsize", "movablelimits",
  "scriptlevel", "displaystyle", "notation", "symmetric", "largeop", "mathcolor", "voffset",
];

/** Colours GitBook's editor writes in `<mark style="color:…">` / `background-color:…`. */
const MARK_COLORS = ["red", "orange", "yellow", "green", "blue", "purple", "pink", "gray", "grey"];
/** The few Font Awesome icons GitBook pages use most, as text glyphs (no icon font is shipped). */
const ICONS: Record<string, string> = {
  check: "✓", "circle-check": "✓", "square-check": "✓", xmark: "✕", times: "✕", "circle-xmark": "✕", "circle-info": "ℹ", info: "ℹ",
  "triangle-exclamation": "⚠", "circle-exclamation": "!", "arrow-right": "→", "arrow-left": "←", "arrow-up-right-from-square": "↗",
  "arrow-up-right": "↗", lightbulb: "💡", star: "★", heart: "♥", "circle-question": "?", rocket: "🚀", book: "📖", gear: "⚙", code: "</>",
};

const ALIGN = /^(left|center|right)$/i;
const RELATIVE_OR_WEB = /^(https?:|mailto:|[^:]*$)/i;

function alignClass(attribs: Record<string, string>): Record<string, string> {
  const { align, ...rest } = attribs;
  return align && ALIGN.test(align) ? { ...rest, class: `align-${align.toLowerCase()}` } : rest;
}

function externalRel(attribs: Record<string, string>): Record<string, string> {
  return /^(https?:)?\/\//i.test(attribs.href ?? "") ? { ...attribs, rel: "noopener noreferrer nofollow" } : attribs;
}

function resolved(value: string | undefined, resolve: ((v: string) => string | undefined) | undefined): string | undefined {
  if (!value || !resolve || !RELATIVE_OR_WEB.test(value) || /^https?:|^mailto:|^#|^\//i.test(value)) return value;
  return resolve(value) ?? value;
}

const BASE: sanitizeHtml.IOptions = {
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"], source: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite", "srcset"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "iframe", "object", "embed", "svg", "math", "template", "select"],
};

function authorOptions(resolvers: LinkResolvers): sanitizeHtml.IOptions {
  return {
    ...BASE,
    allowedTags: AUTHOR_TAGS,
    allowedAttributes: {
      a: ["href", "title", "rel", "class"],
      img: ["src", "alt", "title", "width", "height"],
      source: ["srcset", "media"],
      ol: ["start"],
      code: ["class"],
      td: ["colspan", "rowspan", "class"],
      th: ["colspan", "rowspan", "class"],
      p: ["class"],
      div: ["class"],
      mark: ["class"],
      span: ["class", "aria-hidden"],
      abbr: ["title"],
      h1: ["id", "class"], h2: ["id", "class"], h3: ["id", "class"], h4: ["id", "class"], h5: ["id", "class"], h6: ["id", "class"],
      details: ["open"],
    },
    allowedClasses: {
      a: ["button", "primary", "secondary"],
      code: [/^language-[\w-]+$/],
      td: ["align-left", "align-center", "align-right"],
      th: ["align-left", "align-center", "align-right"],
      p: ["align-left", "align-center", "align-right"],
      div: ["align-left", "align-center", "align-right"],
      mark: MARK_COLORS.flatMap((c) => [`mark-${c}`, `mark-bg-${c}`]),
      span: ["icon"],
      h1: ["heading"], h2: ["heading"], h3: ["heading"], h4: ["heading"], h5: ["heading"], h6: ["heading"],
    },
    allowedStyles: {},
    exclusiveFilter: (frame) => frame.tag === "source" && !/^\(prefers-color-scheme: (dark|light)\)$/.test(frame.attribs.media ?? ""),
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: externalRel({ ...attribs, href: resolved(attribs.href, resolvers.resolveLink) ?? "" }) }),
      img: (tagName, attribs) => {
        const size = (v: string | undefined) => (v && /^\d{1,5}$/.test(v) ? v : undefined);
        const out: Record<string, string> = { src: resolved(attribs.src, resolvers.resolveImage) ?? "", alt: attribs.alt ?? "" };
        if (attribs.title) out.title = attribs.title;
        if (size(attribs.width)) out.width = size(attribs.width)!;
        if (size(attribs.height)) out.height = size(attribs.height)!;
        out.loading = "lazy";
        return { tagName, attribs: out };
      },
      source: (tagName, attribs) => ({ tagName, attribs: { media: attribs.media ?? "", srcset: resolved(attribs.srcset, resolvers.resolveImage) ?? "" } }),
      p: (tagName, attribs) => ({ tagName, attribs: alignClass(attribs) }),
      div: (tagName, attribs) => ({ tagName, attribs: alignClass(attribs) }),
      td: (tagName, attribs) => ({ tagName, attribs: alignClass(attribs) }),
      th: (tagName, attribs) => ({ tagName, attribs: alignClass(attribs) }),
      mark: (tagName, attribs): sanitizeHtml.Tag => {
        const style = (attribs.style ?? "").toLowerCase();
        const classes: string[] = [];
        const bg = /background-color:\s*([a-z]+)/.exec(style)?.[1];
        const fg = /(?:^|;)\s*color:\s*([a-z]+)/.exec(style)?.[1];
        if (fg && MARK_COLORS.includes(fg)) classes.push(`mark-${fg}`);
        if (bg && MARK_COLORS.includes(bg)) classes.push(`mark-bg-${bg}`);
        const out: Record<string, string> = {};
        if (classes.length) out.class = classes.join(" ");
        return { tagName, attribs: out };
      },
      i: (tagName, attribs): sanitizeHtml.Tag => {
        const name = /(?:^|\s)fa-([a-z0-9-]+)/.exec(attribs.class ?? "")?.[1];
        if (!name || ["solid", "regular", "brands", "light", "duotone", "thin"].includes(name)) return { tagName, attribs: {} };
        const glyph = ICONS[name];
        return glyph ? { tagName: "span", attribs: { class: "icon", "aria-hidden": "true" }, text: glyph } : { tagName: "span", attribs: { class: "icon" }, text: "" };
      },
    },
  };
}

/** An author's HTML (a GitBook Markdown page's raw HTML), kept to the allow-list. */
export function sanitizeAuthorHtml(html: string, resolvers: LinkResolvers = {}): string {
  return sanitizeHtml(html, authorOptions(resolvers));
}

/** The classes the renderer writes (and the author allow-list's); nothing else survives the final pass. */
const RENDERER_CLASSES: Array<string | RegExp> = [
  /^hljs(-[\w-]+)?$/, /^language-[\w-]+$/, /^(title|function_|class_|inherited__)$/, /^hint(-(info|success|warning|danger|body|icon))?$/,
  /^align-(left|center|right)$/, /^mark-(bg-)?[a-z]+$/, "button", "primary", "secondary", "icon", "katex", "math-block", "math-source",
  "heading", "anchor", "code-block", "code-header", "code-title", "code", "wrap", "line-numbers", "line", "images", "image", "tabs",
  "tab-panel", "tab-title", "stepper", "step", "step-body", "expandable", "expandable-body", "embed", "embed-frame", "embed-card",
  "embed-host", "embed-url", "embed-caption", "content-ref", "content-ref-title", "content-ref-url", "file-card", "file-name", "file-caption",
  "table-wrap", "cards", "card", "card-cover", "card-body", "card-link", "columns", "column", "api-card", "api-try", "api-method", /^api-method-[a-z]+$/,
  "api-path", "api-summary", "api-spec", "api-body", "api-example", "api-deprecated", "reusable-content", "reusable-missing", "tasks", "task", "checked", "task-box",
  "raw", "caption", "button-row",
];

const PAGE_OPTIONS: sanitizeHtml.IOptions = (() => {
  const author = authorOptions({});
  const attributes = author.allowedAttributes as Record<string, string[]>;
  const headingAttrs = ["id", "class"];
  return {
    ...BASE,
    nonTextTags: (BASE.nonTextTags ?? []).filter((t) => t !== "math" && t !== "iframe"),
    allowedTags: [...AUTHOR_TAGS, "section", "iframe", ...MATHML_TAGS],
    allowedAttributes: {
      ...attributes,
      "*": ["class", "role", "aria-label", "aria-hidden", "aria-checked", "aria-disabled"],
      h1: headingAttrs, h2: headingAttrs, h3: headingAttrs, h4: headingAttrs, h5: headingAttrs, h6: headingAttrs,
      section: ["id", "class", "data-title"],
      a: attributes.a,
      img: [...attributes.img, "loading", "decoding"],
      iframe: ["src", "title", "loading", "sandbox", "allow", "referrerpolicy"],
      ...Object.fromEntries(MATHML_TAGS.map((t) => [t, MATHML_ATTRIBUTES])),
    },
    allowedClasses: { "*": RENDERER_CLASSES },
    allowedIframeHostnames: [...EMBED_FRAME_HOSTS],
    allowedSchemesByTag: { img: ["http", "https"], source: ["http", "https"], iframe: ["https"] },
    allowIframeRelativeUrls: false,
    transformTags: {
      ...Object.fromEntries(["mark", "i", "p", "div", "td", "th"].map((t) => [t, author.transformTags![t]])),
      a: (tagName, attribs) => ({ tagName, attribs: externalRel(attribs) }),
      iframe: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, sandbox: EMBED_SANDBOX, referrerpolicy: "strict-origin-when-cross-origin", loading: "lazy", allow: "fullscreen; picture-in-picture" },
      }),
    },
  };
})();

/** The final pass over a rendered page. */
export function sanitizePage(html: string): string {
  return sanitizeHtml(html, PAGE_OPTIONS);
}
