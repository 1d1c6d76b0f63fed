// GitBook's JSON document as HTML: every block and mark of the model, as GitBook's own sites show them.
// Text is escaped where it is written; the author's own HTML goes through `sanitizeAuthorHtml`, KaTeX
// writes MathML, highlight.js writes classes; then the whole page goes through `sanitizePage`, so an
// escaping slip here still cannot put a script, handler, style or dangerous URL on a page.
// What the model keeps verbatim (raw paragraphs: unknown `{% tags %}`, HTML, `####` headings) is
// rendered too: tags this renderer knows (columns, swagger/openapi, …) as blocks, others by their body,
// so no `{% … %}` ever reaches a page.
import type { ApiBody, ApiOperation } from "./api-operation";
import MarkdownIt from "markdown-it";
import { slugifyHeading } from "@docshelf/slugs";
import { UniqueAnchors } from "@docshelf/slugs";
import { headingAnchors, headingTitleAnchor } from "../headings";
import { parseAttrs, markdownToDocument } from "../parse";
import {
  RAW_KEY_PREFIX,
  type Block,
  type ContentRef,
  type Fragment,
  type InlineNode,
  type JSONDocument,
  type Leaf,
} from "../types";
import { readCards, isCardsTable } from "./cards";
import { embedFrame } from "./embeds";
import { highlightLines } from "./highlight";
import { renderMath } from "./math";
import { sanitizeAuthorHtml, sanitizePage, type LinkResolvers } from "./sanitizers";

export interface TocEntry {
  id: string;
  title: string;
  level: number;
}

export interface RenderedPage {
  html: string;
  toc: TocEntry[];
}

export interface LinkCard {
  href: string;
  title: string;
  description?: string;
}

export interface RenderOptions extends LinkResolvers {
  /** `space.vars` (and `vars`) of the revision. */
  spaceVars?: Record<string, string>;
  /** `page.vars` of the page. */
  pageVars?: Record<string, string>;
  /** A relative link of the markdown (`other.md`, `../guide/README.md`) as a URL of the site, or undefined to keep it. */
  resolveLink?: (href: string) => string | undefined;
  /** A relative image source as a URL (a file of the revision), or undefined to keep it. */
  resolveImage?: (src: string) => string | undefined;
  /** A `{% file src %}` as a download URL; defaults to `resolveImage`. */
  resolveFile?: (src: string) => string | undefined;
  /** The page a content-ref (or card) names: its URL and title, for a page card; undefined when unknown. */
  describeLink?: (href: string) => LinkCard | undefined;
  /** A reference that is not a URL (a document from the API: page, file, anchor, space) as a link. */
  resolveRef?: (ref: ContentRef) => LinkCard | undefined;
  /** The Markdown of a reusable content block (`{% include %}`), when the caller has it. */
  reusableContent?: (ref: Extract<ContentRef, { kind: "reusable-content" }>) => string | undefined;
  /**
   * The URL of the "Test it" console of an API block's operation (`spec` is a hosted spec's slug), or undefined
   * for no console link (the published sites give one: their `~api-console` page).
   */
  apiConsoleHref?: (operation: { spec: string; method: string; path: string }) => string | undefined;
  /**
   * An API block's operation as its hosted spec describes it (`operationFromSpec` of the spec's document), or
   * undefined: the card then shows only what the block itself says.
   */
  apiOperation?: (operation: { spec: string; method: string; path: string }) => ApiOperation | undefined;
  /**
   * The slug of the hosted spec registered with this URL, for an API block that names its spec by URL (GitBook's
   * `{% openapi src="…" %}` and `{% swagger src="…" %}`): the block then shows and tests it as a `spec=` block would.
   */
  apiSpecOfSource?: (src: string) => string | undefined;
}

const e = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** markdown-it for the verbatim parts: raw HTML on (it is sanitized right after), bare URLs linked. */
const rawMarkdown = new MarkdownIt({ html: true, linkify: true, typographer: false });

/** Inline HTML GitBook writes inside text (buttons, marks, icons, pictures…); anything else stays text. */
const INLINE_TAG = /<\/?(a|mark|span|i|br|sup|sub|kbd|b|strong|em|u|s|code|img|picture|source|small|abbr|ins)(\s[^<>]*)?\/?>/gi;
/** A liquid tag GitBook writes (`{% name … %}`, `{% @integration/block … %}`, `{% endname %}`). */
const LIQUID_LINE = /^\{%\s*(end)?([@a-z][\w@/.-]*)\s*(.*?)\s*%\}$/;
const LIQUID_ANYWHERE = /\{%\s*(end)?([@a-z][\w@/.-]*)\s*(.*?)\s*%\}/gi;
const MAX_DEPTH = 12;

function safeHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const compact = href.replace(/[\s\u0000-\u001f]+/g, "");
  if (/^(https?:|mailto:)/i.test(compact)) return href;
  if (compact.startsWith("//")) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(compact)) return undefined;
  return href;
}

function isExternal(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

function leafText(leaves: Leaf[]): string {
  return leaves.map((l) => l.text).join("");
}

export function plainText(nodes: InlineNode[]): string {
  return nodes
    .map((n) => (n.object === "text" ? leafText(n.leaves) : n.type === "link" ? plainText(n.nodes) : n.type === "inline-math" ? n.data.formula : ""))
    .join("");
}

/** A readable title for a link without one: the last path segment, without `.md`, dashes as spaces. */
function titleFromHref(href: string): string {
  const path = href.split(/[?#]/)[0].replace(/\/+$/, "");
  const last = path.split("/").pop() ?? href;
  let name = last.replace(/\.md$/i, "");
  if (/^readme$/i.test(name)) name = path.split("/").slice(-2, -1)[0] ?? name;
  try {
    name = decodeURIComponent(name);
  } catch {
    /* as written */
  }
  name = name.replace(/[-_]+/g, " ").trim();
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : href;
}

/**
 * A paragraph's HTML without the liquid tags markdown-it cut apart (a tag whose attributes held a link):
 * the tag goes, its content stays; inline code keeps what it shows. The final pass balances the markup.
 */
function withoutLiquid(html: string): string {
  if (!html.includes("{%")) return html;
  return html
    .split(/(<code>[\s\S]*?<\/code>)/)
    .map((part, i) => (i % 2 ? part : part.replace(/\{%[\s\S]*?%\}/g, "")))
    .join("");
}

class DocumentRenderer {
  readonly toc: TocEntry[] = [];
  private readonly used = new UniqueAnchors();
  private tabsCount = 0;

  constructor(private readonly options: RenderOptions) {}

  // ---- links ----

  private link(href: string): string | undefined {
    const resolved = !isExternal(href) && !href.startsWith("/") && !href.startsWith("#") && !/^mailto:/i.test(href) ? this.options.resolveLink?.(href) ?? href : href;
    return safeHref(resolved);
  }

  private image(src: string): string | undefined {
    const resolved = isExternal(src) ? src : this.options.resolveImage?.(src) ?? src;
    const safe = safeHref(resolved);
    return safe && !/^mailto:/i.test(safe) ? safe : undefined;
  }

  private refLink(ref: ContentRef): LinkCard | undefined {
    if (ref.kind === "url") {
      const href = this.link(ref.url);
      if (!href) return undefined;
      const described = this.options.describeLink?.(ref.url);
      return described ?? { href, title: titleFromHref(ref.url) };
    }
    const card = this.options.resolveRef?.(ref);
    if (card) return { ...card, href: safeHref(card.href) ?? "" };
    if (ref.kind === "anchor" && !ref.page) return { href: `#${ref.anchor}`, title: ref.anchor };
    return undefined;
  }

  // ---- inline ----

  private leaf(leaf: Leaf): string {
    const types = new Set(leaf.marks.map((m) => m.type));
    let html = types.has("code") ? e(leaf.text) : this.textWithInlineHtml(leaf.text);
    if (types.has("code")) html = `<code>${html}</code>`;
    if (types.has("strikethrough")) html = `<s>${html}</s>`;
    if (types.has("italic")) html = `<em>${html}</em>`;
    if (types.has("bold")) html = `<strong>${html}</strong>`;
    return html;
  }

  /** Text in which GitBook's inline HTML tags are kept (sanitized with the page) and liquid tags become links or nothing. */
  private textWithInlineHtml(text: string): string {
    let out = "";
    let at = 0;
    const pattern = new RegExp(`${INLINE_TAG.source}|${LIQUID_ANYWHERE.source}`, "gi");
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      out += e(text.slice(at, m.index)).replace(/\n/g, "<br>");
      at = m.index + m[0].length;
      if (m[0].startsWith("{%")) out += this.inlineLiquid(m[0]);
      else out += this.inlineTag(m[0]);
    }
    return out + e(text.slice(at)).replace(/\n/g, "<br>");
  }

  /** An author's inline tag with its `href`/`src` resolved like Markdown links and images (the final pass sanitizes the rest). */
  private inlineTag(tag: string): string {
    return tag.replace(/\b(href|src)\s*=\s*("([^"]*)"|'([^']*)')/gi, (_w, name: string, _q: string, dq?: string, sq?: string) => {
      const value = dq ?? sq ?? "";
      const resolved = name.toLowerCase() === "href" ? this.link(value) : this.image(value);
      return `${name}="${e(resolved ?? "")}"`;
    });
  }

  /** An inline `{% … %}`: an integration or embed with a URL becomes a link to it; anything else is dropped. */
  private inlineLiquid(tag: string): string {
    const m = /^\{%\s*(end)?([@a-z][\w@/.-]*)\s*(.*?)\s*%\}$/i.exec(tag);
    const attrs = parseAttrs(m?.[3] ?? "");
    const url = attrs.url ?? attrs.src;
    const href = url && isExternal(url) ? url : undefined;
    return href ? `<a href="${e(href)}">${e(attrs.title ?? href)}</a>` : "";
  }

  inlines(nodes: InlineNode[]): string {
    return nodes
      .map((node) => {
        if (node.object === "text") return node.leaves.map((l) => this.leaf(l)).join("");
        switch (node.type) {
          case "link": {
            const target = this.refLink(node.data.ref);
            const inner = node.nodes.map((n) => (n.object === "text" ? n.leaves.map((l) => this.leaf(l)).join("") : this.inlineImage(n))).join("");
            if (!target?.href) return inner;
            const rel = isExternal(target.href) ? ' rel="noopener noreferrer nofollow"' : "";
            return `<a href="${e(target.href)}"${rel}>${inner}</a>`;
          }
          case "inline-image":
            return this.inlineImage(node);
          case "inline-math":
            return renderMath(node.data.formula, false);
          default:
            return "";
        }
      })
      .join("");
  }

  private inlineImage(node: Extract<InlineNode, { type: "inline-image" }>): string {
    const src = node.data.ref.kind === "url" ? this.image(node.data.ref.url) : this.options.resolveRef?.(node.data.ref)?.href;
    if (!src) return e(node.data.alt ?? "");
    return `<img src="${e(src)}" alt="${e(node.data.alt ?? "")}" loading="lazy">`;
  }

  // ---- blocks ----

  blocks(nodes: Block[], depth: number): string {
    return nodes.map((b) => this.block(b, depth)).join("\n");
  }

  private fragment(fragments: Fragment[], name: string, depth: number): string {
    const f = fragments.find((fr) => fr.fragment === name || fr.type === name);
    return f ? this.blocks(f.nodes, depth) : "";
  }

  /** A fragment's text for a title (expandable), inline HTML only. */
  private fragmentInline(fragments: Fragment[], name: string): string {
    const f = fragments.find((fr) => fr.fragment === name || fr.type === name);
    return (f?.nodes ?? []).map((b) => ("nodes" in b && b.type === "paragraph" ? this.inlines(b.nodes) : "")).join(" ");
  }

  private heading(level: number, nodes: InlineNode[], explicitId: string | undefined): string {
    const named = headingTitleAnchor(plainText(nodes));
    const title = named.title;
    const anchor = this.used.take(explicitId ?? (named.anchor || slugifyHeading(title)));
    if (level <= 3 && title) this.toc.push({ id: anchor, title, level });
    return `<h${level} id="${e(anchor)}" class="heading">${this.inlines(nodes)}<a class="anchor" href="#${e(anchor)}" aria-label="Link to this heading"></a></h${level}>`;
  }

  block(block: Block, depth: number): string {
    if (depth > MAX_DEPTH) return "";
    const d = depth + 1;
    switch (block.type) {
      case "paragraph":
        if (block.key?.startsWith(RAW_KEY_PREFIX)) return this.raw(plainText(block.nodes), d);
        {
          // A paragraph that is one liquid tag (an integration block, `{% @figma/embed url=… %}`, which the parser leaves to Markdown).
          const tag = LIQUID_LINE.exec(plainText(block.nodes).trim());
          if (tag && !tag[1]) return this.liquidBlock(tag[2].toLowerCase(), parseAttrs(tag[3]), "", d);
          if (tag) return "";
        }
        return `<p>${withoutLiquid(this.inlines(block.nodes))}</p>`;
      case "heading-1":
      case "heading-2":
      case "heading-3":
        return this.heading(Number(block.type.slice(-1)), block.nodes, block.data.id);
      case "list-unordered":
        return `<ul>${block.nodes.map((item) => `<li>${this.blocks(item.nodes, d)}</li>`).join("")}</ul>`;
      case "list-ordered": {
        const start = block.data.start !== undefined && block.data.start !== 1 ? ` start="${Number(block.data.start) || 1}"` : "";
        return `<ol${start}>${block.nodes.map((item) => `<li>${this.blocks(item.nodes, d)}</li>`).join("")}</ol>`;
      }
      case "list-tasks":
        return `<ul class="tasks">${block.nodes
          .map((item) => {
            const checked = !!item.data?.checked;
            return `<li class="task${checked ? " checked" : ""}"><span class="task-box" role="checkbox" aria-checked="${checked}" aria-disabled="true" aria-label="${checked ? "Done" : "Not done"}"></span>${this.blocks(item.nodes, d)}</li>`;
          })
          .join("")}</ul>`;
      case "list-item":
        return `<li>${this.blocks(block.nodes, d)}</li>`;
      case "divider":
        return "<hr>";
      case "blockquote":
        return `<blockquote>${this.blocks(block.nodes, d)}</blockquote>`;
      case "hint":
        return this.hint(block.data.style, this.blocks(block.nodes, d));
      case "code":
        return this.code(
          block.nodes.map((line) => line.nodes.map((t) => leafText(t.leaves)).join("")).join("\n"),
          block.data,
        );
      case "code-line":
        return `<pre class="code"><code>${e(block.nodes.map((t) => leafText(t.leaves)).join(""))}</code></pre>`;
      case "images":
        return `<div class="images${block.data.align ? ` align-${block.data.align}` : ""}">${block.nodes.map((img) => this.blockImage(img, d)).join("")}</div>`;
      case "image":
        return `<div class="images">${this.blockImage(block, d)}</div>`;
      case "file":
        return this.file(block.data.ref.file, undefined);
      case "embed":
        return this.embed(block.data.url, "");
      case "math":
        return renderMath(block.data.formula, true);
      case "expandable":
        return `<details class="expandable"><summary>${this.fragmentInline(block.fragments, "expandable-title") || "Details"}</summary><div class="expandable-body">${this.fragment(block.fragments, "expandable-body", d)}</div></details>`;
      case "tabs":
        return this.tabs(block.nodes.map((item) => ({ title: item.data.title ?? "", body: this.blocks(item.nodes, d) })));
      case "tabs-item":
        return this.tabs([{ title: block.data.title ?? "", body: this.blocks(block.nodes, d) }]);
      case "stepper":
        return `<ol class="stepper">${block.nodes.map((step) => `<li class="step"><div class="step-body">${this.blocks(step.nodes, d)}</div></li>`).join("")}</ol>`;
      case "stepper-step":
        return `<ol class="stepper"><li class="step"><div class="step-body">${this.blocks(block.nodes, d)}</div></li></ol>`;
      case "content-ref":
        return this.contentRef(block.data.ref);
      case "reusable-content": {
        const markdown = this.options.reusableContent?.(block.data.ref);
        if (markdown !== undefined && depth < MAX_DEPTH - 2) {
          return `<div class="reusable-content">${this.blocks(markdownToDocument(markdown).nodes, d + 2)}</div>`;
        }
        return `<p class="reusable-missing">${e(`Reusable content “${titleFromHref(block.data.ref.reusableContent)}” is not available here.`)}</p>`;
      }
      case "table":
        return this.table(block, d);
      default:
        return "";
    }
  }

  private hint(style: string, body: string): string {
    const s = ["info", "success", "warning", "danger"].includes(style) ? style : "info";
    const label = { info: "Info", success: "Success", warning: "Warning", danger: "Danger" }[s];
    return `<div class="hint hint-${s}" role="note" aria-label="${label}"><span class="hint-icon" aria-hidden="true"></span><div class="hint-body">${body}</div></div>`;
  }

  private code(text: string, data: { syntax?: string; title?: string; overflow?: "scroll" | "wrap"; lineNumbers?: boolean }): string {
    const { lines, language } = highlightLines(text, data.syntax);
    const classes = ["code", data.overflow === "wrap" ? "wrap" : "", data.lineNumbers ? "line-numbers" : ""].filter(Boolean).join(" ");
    const langClass = language ? `hljs language-${e(language)}` : data.syntax && /^[\w-]+$/.test(data.syntax) ? `language-${e(data.syntax)}` : "";
    const title = data.title ? `<div class="code-header"><span class="code-title">${e(data.title)}</span></div>` : "";
    const body = lines.map((l) => `<span class="line">${l}</span>`).join("\n");
    return `<div class="code-block">${title}<pre class="${classes}"><code${langClass ? ` class="${langClass}"` : ""}>${body}</code></pre></div>`;
  }

  private blockImage(img: Extract<Block, { type: "image" }>, depth: number): string {
    const srcOf = (ref: typeof img.data.ref) => (ref.kind === "url" ? this.image(ref.url) : this.options.resolveRef?.(ref)?.href);
    const src = srcOf(img.data.ref);
    const dark = img.data.refDark ? srcOf(img.data.refDark) : undefined;
    const w = img.data.width;
    const width = typeof w === "number" && Number.isInteger(w) && w > 0 && w < 100_000 ? String(w) : typeof w === "object" && w.unit === "%" && w.value > 0 && w.value <= 100 ? `${w.value}%` : "";
    const captionFragment = img.fragments.find((f) => f.fragment === "caption" || f.type === "caption");
    const caption = captionFragment && captionFragment.nodes.some((b) => b.type !== "paragraph" || plainText(b.nodes).trim()) ? this.fragment(img.fragments, "caption", depth) : "";
    const tag = src ? `<img src="${e(src)}" alt="${e(img.data.alt ?? "")}"${width ? ` width="${e(width)}"` : ""} loading="lazy" decoding="async">` : "";
    // The dark variant as GitBook writes it: the site's script makes it follow a theme the reader picks too.
    const imgHtml = !tag ? `<span>${e(img.data.alt ?? "")}</span>` : dark && dark !== src ? `<picture><source srcset="${e(dark)}" media="(prefers-color-scheme: dark)">${tag}</picture>` : tag;
    return `<figure class="image">${imgHtml}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>`;
  }

  private file(src: string, caption: string | undefined): string {
    const resolve = this.options.resolveFile ?? this.options.resolveImage;
    const href = safeHref(isExternal(src) ? src : resolve?.(src) ?? src);
    const name = src.split(/[?#]/)[0].split("/").pop() ?? src;
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      /* as written */
    }
    const inner = `<span class="file-name">${e(decoded)}</span>${caption ? `<span class="file-caption">${e(caption)}</span>` : ""}`;
    return href ? `<a class="file-card" href="${e(href)}">${inner}</a>` : `<div class="file-card">${inner}</div>`;
  }

  private embed(url: string, captionHtml: string): string {
    const href = isExternal(url) ? safeHref(url) : undefined;
    if (!href) return `<p>${e(url)}</p>`;
    const frame = embedFrame(href);
    let host = "";
    try {
      host = new URL(href).hostname.replace(/^www\./, "");
    } catch {
      /* no host */
    }
    const caption = captionHtml ? `<div class="embed-caption">${captionHtml}</div>` : "";
    if (frame) {
      return `<figure class="embed"><div class="embed-frame"><iframe src="${e(frame.src)}" title="${e(`${frame.provider} video`)}" loading="lazy"></iframe></div>${caption}<a class="embed-url" href="${e(href)}" rel="noopener noreferrer nofollow">${e(href)}</a></figure>`;
    }
    return `<a class="embed-card" href="${e(href)}" rel="noopener noreferrer nofollow"><span class="embed-host">${e(host)}</span><span class="embed-url">${e(href)}</span></a>${caption}`;
  }

  private tabs(items: Array<{ title: string; body: string }>): string {
    const id = ++this.tabsCount;
    return `<div class="tabs">${items
      .map((item, i) => `<section class="tab-panel" id="tabs-${id}-${i + 1}" data-title="${e(item.title)}"><p class="tab-title">${e(item.title || `Tab ${i + 1}`)}</p>${item.body}</section>`)
      .join("")}</div>`;
  }

  private contentRef(ref: ContentRef): string {
    const target = this.refLink(ref);
    if (!target?.href) {
      const label = ref.kind === "url" ? ref.url : "";
      return label ? `<p class="content-ref"><span class="content-ref-title">${e(titleFromHref(label))}</span></p>` : "";
    }
    const description = target.description ? `<span class="content-ref-url">${e(target.description)}</span>` : "";
    return `<a class="content-ref" href="${e(target.href)}"><span class="content-ref-title">${e(target.title)}</span>${description}</a>`;
  }

  private table(block: Extract<Block, { type: "table" }>, depth: number): string {
    const { view, records, definition } = block.data;
    const cols = view.columns.filter((c) => definition[c]);
    const cellOf = (fragmentId: string | undefined) => {
      const f = block.fragments.find((fr) => fr.fragment === fragmentId);
      if (!f) return "";
      return f.nodes.map((b) => (b.type === "paragraph" && !b.key?.startsWith(RAW_KEY_PREFIX) ? this.inlines(b.nodes) : this.block(b, depth))).join("");
    };
    const align = (c: string) => {
      const a = definition[c].textAlignment;
      return a && a !== "left" ? ` class="align-${a}"` : "";
    };
    const head = view.hideHeader ? "" : `<thead><tr>${cols.map((c) => `<th${align(c)}>${this.textWithInlineHtml(definition[c].title)}</th>`).join("")}</tr></thead>`;
    const rows = Object.values(records)
      .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
      .map((r) => `<tr>${cols.map((c) => `<td${align(c)}>${cellOf(r.values[c])}</td>`).join("")}</tr>`);
    return `<div class="table-wrap"><table>${head}<tbody>${rows.join("")}</tbody></table></div>`;
  }

  // ---- verbatim parts ----

  /** A raw paragraph: a liquid construct the model has no block for, the author's HTML, or Markdown it keeps as written. */
  private raw(text: string, depth: number): string {
    const lines = text.split("\n");
    const first = LIQUID_LINE.exec(lines[0].trim());
    if (first && !first[1]) {
      const name = first[2];
      const close = this.closingLine(lines, name);
      const body = close > 0 ? lines.slice(1, close).join("\n") : "";
      const after = close > 0 ? lines.slice(close + 1).join("\n") : lines.slice(1).join("\n");
      const html = this.liquidBlock(name.toLowerCase(), parseAttrs(first[3]), body, depth);
      return after.trim() ? `${html}\n${this.markdown(after, depth)}` : html;
    }
    const html = text.trim();
    if (isCardsTable(html)) return this.cards(html);
    return this.markdownHtml(text, depth);
  }

  private closingLine(lines: string[], name: string): number {
    let level = 0;
    for (let i = 0; i < lines.length; i++) {
      const m = LIQUID_LINE.exec(lines[i].trim());
      if (!m || m[2] !== name) continue;
      level += m[1] ? -1 : 1;
      if (level === 0) return i;
    }
    return -1;
  }

  /** Markdown as blocks (parsed into the model again, so the known tags inside render as blocks). */
  private markdown(markdown: string, depth: number): string {
    if (depth > MAX_DEPTH) return "";
    const doc = markdownToDocument(markdown);
    const only = doc.nodes.length === 1 ? doc.nodes[0] : undefined;
    // The same text back as one raw paragraph: render it as Markdown and HTML, with stray tag lines left out.
    if (only?.type === "paragraph" && only.key?.startsWith(RAW_KEY_PREFIX) && plainText(only.nodes).trim() === markdown.trim()) {
      const lines = markdown.split("\n");
      if (LIQUID_LINE.test(lines[0].trim())) return this.markdown(lines.slice(1).join("\n"), depth + 1);
      return this.raw(markdown, depth + 1);
    }
    return this.blocks(doc.nodes, depth + 1);
  }

  private liquidBlock(name: string, attrs: Record<string, string>, body: string, depth: number): string {
    switch (name) {
      case "hint":
        return this.hint(attrs.style ?? "info", this.markdown(body, depth));
      case "columns": {
        const columns = this.items(body, "column").map((c) => `<div class="column">${this.markdown(c.body, depth)}</div>`);
        return `<div class="columns">${columns.join("")}</div>`;
      }
      case "tabs":
        return this.tabs(this.items(body, "tab").map((t) => ({ title: t.attrs.title ?? "", body: this.markdown(t.body, depth) })));
      case "stepper":
        return `<ol class="stepper">${this.items(body, "step").map((s) => `<li class="step"><div class="step-body">${this.markdown(s.body, depth)}</div></li>`).join("")}</ol>`;
      case "embed":
        return attrs.url ? this.embed(attrs.url, body.trim() ? this.markdown(body, depth) : "") : this.markdown(body, depth);
      case "file":
        return attrs.src ? this.file(attrs.src, body.trim() || undefined) : "";
      case "content-ref":
        return attrs.url ? this.contentRef({ kind: "url", url: attrs.url }) : "";
      case "code":
        return this.markdown(body, depth);
      case "swagger":
      case "openapi":
      case "openapi-operation":
      case "openapi-webhook":
        return this.apiCard(attrs, body, depth);
      case "openapi-schemas":
        return this.apiCard({ ...attrs, method: "", path: attrs.schemas ?? "Schemas" }, "", depth);
      default: {
        // An integration block (`{% @figma/embed url=… %}`) with a URL is a link card; anything else shows its body.
        const url = attrs.url ?? attrs.src;
        const card = url && isExternal(url) ? this.embed(url, "") : "";
        return card + (body.trim() ? this.markdown(body, depth) : "");
      }
    }
  }

  /** The `{% item %}…{% enditem %}` children of a container body. */
  private items(body: string, item: string): Array<{ attrs: Record<string, string>; body: string }> {
    const lines = body.split("\n");
    const out: Array<{ attrs: Record<string, string>; body: string }> = [];
    for (let i = 0; i < lines.length; i++) {
      const m = LIQUID_LINE.exec(lines[i].trim());
      if (!m || m[1] || m[2] !== item) continue;
      const rest = lines.slice(i);
      const close = this.closingLine(rest, item);
      const end = close > 0 ? i + close : lines.length;
      out.push({ attrs: parseAttrs(m[3]), body: lines.slice(i + 1, end).join("\n") });
      i = end;
    }
    return out;
  }

  /** GitBook's API blocks as a card: method, path, summary and description, a link to the spec. */
  private apiCard(attrs: Record<string, string>, body: string, depth: number): string {
    const method = (attrs.method ?? "").toLowerCase().replace(/[^a-z]/g, "");
    const path = attrs.path ?? "";
    const summary = attrs.summary ?? "";
    const src = attrs.src && isExternal(attrs.src) ? attrs.src : undefined;
    // The legacy swagger block's sub-tags (`{% swagger-description %}`, `{% swagger-parameter … %}`,
    // `{% swagger-response … %}`): descriptions as text, parameters and responses as a list.
    const parts: string[] = [];
    const params: string[] = [];
    const responses: string[] = [];
    const lines = body.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const m = LIQUID_LINE.exec(lines[i].trim());
      if (!m || m[1]) continue;
      const close = this.closingLine(lines.slice(i), m[2]);
      const end = close > 0 ? i + close : i;
      const inner = lines.slice(i + 1, end).join("\n");
      const a = parseAttrs(m[3]);
      if (m[2] === "swagger-description") parts.push(this.markdown(inner, depth));
      else if (m[2] === "swagger-parameter") {
        params.push(`<li><code>${e(a.name ?? "")}</code> <small>${e([a.in, a.type, a.required === "true" ? "required" : ""].filter(Boolean).join(", "))}</small> ${e(inner.trim())}</li>`);
      } else if (m[2] === "swagger-response") {
        responses.push(`<li><code>${e(a.status ?? "")}</code> ${e(a.description ?? "")}${inner.trim() ? this.markdown(inner, depth) : ""}</li>`);
      }
      i = end;
    }
    if (!params.length && !responses.length && !parts.length && body.trim()) parts.push(this.markdown(body, depth));
    const methodHtml = method ? `<span class="api-method api-method-${e(method)}">${e(method.toUpperCase())}</span>` : "";
    const spec = src ? `<a class="api-spec" href="${e(src)}" rel="noopener noreferrer nofollow">OpenAPI specification</a>` : attrs.spec ? `<span class="api-spec">${e(attrs.spec)}</span>` : "";
    // The hosted spec the block names: by slug, or by the URL the organization registered it with.
    const specSlug = attrs.spec || (src ? this.options.apiSpecOfSource?.(src) : undefined);
    const consoleHref = specSlug && method && path.startsWith("/") ? safeHref(this.options.apiConsoleHref?.({ spec: specSlug, method, path })) : undefined;
    const tryIt = consoleHref ? `<a class="button secondary api-try" href="${e(consoleHref)}">Test it</a>` : "";
    // The hosted spec's own description of the operation, when the block names one and the caller has it.
    const op = specSlug && method && path.startsWith("/") ? this.options.apiOperation?.({ spec: specSlug, method, path }) : undefined;
    if (op) {
      if (op.description && !parts.length) parts.push(this.markdown(op.description, depth));
      for (const p of op.parameters) {
        params.push(`<li><code>${e(p.name)}</code> <small>${e([p.in, p.type, p.required ? "required" : ""].filter(Boolean).join(", "))}</small>${p.description ? ` ${this.markdown(p.description, depth)}` : ""}</li>`);
      }
      for (const r of op.responses) {
        responses.push(`<li><code>${e(r.status)}</code> ${r.description ? e(r.description) : ""}${this.apiBody(r.body)}</li>`);
      }
    }
    const title = summary || op?.summary || "";
    const requestBody = op?.requestBody ? `<p><strong>Request body</strong>${op.requestBody.required ? " <small>required</small>" : ""}</p>${this.apiBody(op.requestBody)}` : "";
    return [
      '<div class="api-card">',
      `<p>${methodHtml} <code class="api-path">${e(path)}</code>${op?.deprecated ? ' <small class="api-deprecated">deprecated</small>' : ""}</p>`,
      title ? `<p class="api-summary">${e(title)}</p>` : "",
      parts.length ? `<div class="api-body">${parts.join("")}</div>` : "",
      params.length ? `<p><strong>Parameters</strong></p><ul>${params.join("")}</ul>` : "",
      requestBody,
      responses.length ? `<p><strong>Responses</strong></p><ul>${responses.join("")}</ul>` : "",
      spec || tryIt ? `<p>${[tryIt, spec].filter(Boolean).join(" ")}</p>` : "",
      "</div>",
    ].join("");
  }

  /** A request or response body of an API card: its media type and its example, as code. */
  private apiBody(body: ApiBody | undefined): string {
    if (!body) return "";
    const example = body.example ? `<pre class="api-example"><code>${e(body.example)}</code></pre>` : "";
    return `<p><small><code>${e(body.contentType)}</code></small></p>${example}`;
  }

  private cards(html: string): string {
    const cards = readCards(html);
    if (!cards) return sanitizeAuthorHtml(html, this.options);
    const items = cards.map((card) => {
      const target = card.target ? this.refLink({ kind: "url", url: card.target }) : undefined;
      const cover = card.cover ? this.image(card.cover) : undefined;
      const body = card.cells.map((c) => `<div>${sanitizeAuthorHtml(c, this.options)}</div>`).join("");
      const link = target?.href ? `<a class="card-link" href="${e(target.href)}" aria-label="${e(card.title || target.title)}"></a>` : "";
      return `<div class="card">${cover ? `<img class="card-cover" src="${e(cover)}" alt="" loading="lazy">` : ""}<div class="card-body">${body}</div>${link}</div>`;
    });
    return `<div class="cards">${items.join("")}</div>`;
  }

  /** Markdown and HTML kept verbatim: rendered, sanitized with the author allow-list, headings anchored in page order. */
  private markdownHtml(markdown: string, _depth: number): string {
    const text = markdown.replace(LIQUID_ANYWHERE, (tag) => this.inlineLiquidPlaceholder(tag));
    const tokens = rawMarkdown.parse(text, {});
    for (const { index, level, title, anchor } of headingAnchors(tokens, this.used)) {
      tokens[index].attrSet("id", anchor);
      tokens[index].attrJoin("class", "heading");
      if (level <= 3 && title) this.toc.push({ id: anchor, title, level });
    }
    const html = sanitizeAuthorHtml(rawMarkdown.renderer.render(tokens, rawMarkdown.options, {}), this.options);
    return html.replace(/<(h[1-6]) id="([^"]+)" class="heading">([\s\S]*?)<\/\1>/g, (_w, tag: string, id: string, inner: string) => `<${tag} id="${id}" class="heading">${inner}<a class="anchor" href="#${id}" aria-label="Link to this heading"></a></${tag}>`);
  }

  private inlineLiquidPlaceholder(tag: string): string {
    const m = /^\{%\s*(end)?([@a-z][\w@/.-]*)\s*(.*?)\s*%\}$/i.exec(tag);
    const attrs = parseAttrs(m?.[3] ?? "");
    const url = attrs.url ?? attrs.src;
    return url && isExternal(url) ? `<${url}>` : "";
  }
}

/** The author allow-list keeps ids off; headings of verbatim Markdown get theirs back (the allow-list for h1–h6 is widened here). */
export function renderDocument(document: JSONDocument, options: RenderOptions = {}): RenderedPage {
  const renderer = new DocumentRenderer(options);
  const body = renderer.blocks(document.nodes, 0);
  return { html: sanitizePage(body), toc: renderer.toc };
}

