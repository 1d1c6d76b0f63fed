// Markdown (GitBook's Git Sync syntax) -> GitBook JSON document, from markdown-it's token stream.
// Two small markdown-it rules add what CommonMark lacks: `{% tag %}` lines and `$$` math blocks;
// everything else (lists, tables, code, quotes, inline marks) is markdown-it's own parsing.
import MarkdownIt from "markdown-it";
import {
  RAW_KEY_PREFIX,
  type Alignment,
  type Block,
  type ContentRef,
  type Fragment,
  type HintStyle,
  type Image,
  type ImageRef,
  type Inline,
  type InlineNode,
  type JSONDocument,
  type Leaf,
  type Length,
  type ListItem,
  type Mark,
  type MarkType,
  type Paragraph,
  type RefResolver,
  type Table,
  type Text,
} from "./types";

type Token = MarkdownIt.Token;
type StateBlock = MarkdownIt.StateBlock;
type StateInline = MarkdownIt.StateInline;

const LIQUID = /^\{%\s*(end)?([a-z][\w-]*)\s*(.*?)\s*%\}$/;

function liquidRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const start = state.bMarks[startLine] + state.tShift[startLine];
  const line = state.src.slice(start, state.eMarks[startLine]).trim();
  const m = LIQUID.exec(line);
  if (!m) return false;
  if (silent) return true;
  const token = state.push("liquid", "", 0);
  token.meta = { end: Boolean(m[1]), name: m[2], attrs: parseAttrs(m[3]) };
  token.info = m[3];
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

function mathBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const lineText = (n: number) => state.src.slice(state.bMarks[n] + state.tShift[n], state.eMarks[n]);
  if (lineText(startLine).trim() !== "$$") return false;
  let end = startLine + 1;
  while (end < endLine && lineText(end).trim() !== "$$") end++;
  if (end >= endLine) return false;
  if (silent) return true;
  const token = state.push("math_block", "", 0);
  const lines: string[] = [];
  for (let n = startLine + 1; n < end; n++) lines.push(lineText(n));
  token.content = lines.join("\n");
  token.map = [startLine, end + 1];
  state.line = end + 1;
  return true;
}

function inlineMathRule(state: StateInline, silent: boolean): boolean {
  if (!state.src.startsWith("$$", state.pos)) return false;
  const close = state.src.indexOf("$$", state.pos + 2);
  if (close <= state.pos + 2) return false;
  if (!silent) {
    const token = state.push("math_inline", "", 0);
    token.content = state.src.slice(state.pos + 2, close);
  }
  state.pos = close + 2;
  return true;
}

const md = new MarkdownIt({ html: true, linkify: false });
md.block.ruler.before("paragraph", "liquid", liquidRule, { alt: ["paragraph", "reference", "blockquote", "list"] });
md.block.ruler.before("fence", "math_block", mathBlockRule, { alt: ["paragraph", "reference", "blockquote", "list"] });
md.inline.ruler.before("escape", "math_inline", inlineMathRule);

const ALT_ENTITIES: Record<string, string> = { quot: '"', lt: "<", gt: ">", amp: "&" };
/** A figure's alt attribute as text: the entities serialize.ts's `escapeAlt` writes, decoded in one pass. */
export function unescapeAlt(alt: string): string {
  return alt.replace(/&(quot|lt|gt|amp);/g, (_, name: string) => ALT_ENTITIES[name]);
}

export function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)) attrs[m[1]] = m[2];
  return attrs;
}

const ESSENTIALS = ["paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "divider"];
/** What GitBook's schema lets each container hold (DocumentBlockHint, …TabsItem, …StepperStep, expandable-body). */
const ALLOWED = {
  hint: new Set([...ESSENTIALS, "embed", "table"]),
  listItem: new Set([...ESSENTIALS, "code", "hint", "blockquote", "math", "table"]),
  tab: new Set([...ESSENTIALS, "content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math"]),
  step: new Set([...ESSENTIALS, "content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math", "expandable"]),
  expandable: new Set([...ESSENTIALS, "file", "images", "code", "table", "hint", "blockquote", "reusable-content"]),
};

const HINT_STYLES: readonly HintStyle[] = ["info", "warning", "danger", "success"];

class Parser {
  private readonly lines: string[];
  private rawCount = 0;
  private fragmentCount = 0;

  constructor(
    private readonly source: string,
    private readonly resolver: RefResolver,
  ) {
    this.lines = source.split("\n");
  }

  document(): JSONDocument {
    const tokens = md.parse(this.source, {});
    return { object: "document", data: {}, nodes: this.blocks(tokens, 0, tokens.length) };
  }

  private ref(href: string, use: "link" | "image" | "file" | "include"): ContentRef {
    return this.resolver.toRef?.(href, use) ?? { kind: "url", url: href };
  }

  private imageRef(href: string): ImageRef {
    const ref = this.ref(href, "image");
    return ref.kind === "file" || ref.kind === "url" ? ref : { kind: "url", url: href };
  }

  private raw(text: string): Paragraph {
    return {
      object: "block",
      type: "paragraph",
      key: `${RAW_KEY_PREFIX}${++this.rawCount}`,
      nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
    };
  }

  /** Source lines [from, to) as a raw paragraph; `dedent` removes their common indentation (inside a list item). */
  private rawLines(from: number, to: number, dedent = false): Paragraph {
    let lines = this.lines.slice(from, to);
    while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines = lines.slice(0, -1);
    if (dedent) {
      const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)![0].length));
      lines = lines.map((l) => l.slice(Math.min(indent, /^ */.exec(l)![0].length)));
    }
    return this.raw(lines.join("\n"));
  }

  private fragmentId(): string {
    return `fragment-${++this.fragmentCount}`;
  }

  /** The index just past the token closing the one at `open` (same nesting level). */
  private closing(tokens: Token[], open: number): number {
    let depth = 0;
    for (let i = open; i < tokens.length; i++) {
      depth += tokens[i].nesting;
      if (depth === 0) return i + 1;
    }
    return tokens.length;
  }

  /** The index of the `{% end<name> %}` matching the liquid tag at `open` within [open, end), or -1. */
  private liquidEnd(tokens: Token[], open: number, end: number): number {
    const name = liquidMeta(tokens[open]).name;
    let depth = 0;
    for (let i = open; i < end; i++) {
      const t = tokens[i];
      if (t.type !== "liquid" || liquidMeta(t).name !== name) continue;
      depth += liquidMeta(t).end ? -1 : 1;
      if (depth === 0) return i;
    }
    return -1;
  }

  /**
   * The blocks of tokens [start, end). A block GitBook's schema does not allow where it stands
   * (`allowed`, for containers written with unindented tags) is kept as its source lines instead.
   */
  blocks(tokens: Token[], start: number, end: number, allowed?: ReadonlySet<string>, dedent = false): Block[] {
    const out: Block[] = [];
    let i = start;
    while (i < end) {
      const from = i;
      const before = out.length;
      i = this.block(tokens, i, end, out);
      if (allowed && out.length === before + 1 && !allowed.has(out[before].type)) {
        const lines = tokens.slice(from, i).flatMap((tk) => (tk.map ? [tk.map] : []));
        if (lines.length > 0) out[before] = this.rawLines(Math.min(...lines.map((m) => m[0])), Math.max(...lines.map((m) => m[1])), dedent);
      }
    }
    return out;
  }

  /** Adds the block starting at token `i` to `out`; returns the index after it. */
  private block(tokens: Token[], i: number, end: number, out: Block[]): number {
    const t = tokens[i];
    switch (t.type) {
      case "paragraph_open": {
        const close = this.closing(tokens, i);
        out.push(this.paragraph(tokens[i + 1]));
        return close;
      }
      case "heading_open": {
        const close = this.closing(tokens, i);
        const level = Number(t.tag.slice(1));
        if (level <= 3) {
          const id = headingId(tokens[i + 1]);
          out.push({ object: "block", type: `heading-${level as 1 | 2 | 3}`, data: id ? { id } : {}, nodes: this.inlines(tokens[i + 1]) });
        }
        else out.push(this.rawLines(t.map?.[0] ?? 0, t.map?.[1] ?? 0));
        return close;
      }
      case "bullet_list_open":
      case "ordered_list_open": {
        const close = this.closing(tokens, i);
        out.push(this.list(tokens, i, close));
        return close;
      }
      case "blockquote_open": {
        const close = this.closing(tokens, i);
        out.push({ object: "block", type: "blockquote", nodes: this.blocks(tokens, i + 1, close - 1) });
        return close;
      }
      case "fence":
      case "code_block":
        out.push(this.code(t, {}));
        return i + 1;
      case "hr":
        out.push({ object: "block", type: "divider", data: {}, isVoid: true });
        return i + 1;
      case "math_block":
        out.push({ object: "block", type: "math", data: { formula: t.content }, isVoid: true });
        return i + 1;
      case "table_open": {
        const close = this.closing(tokens, i);
        out.push(this.table(tokens, i, close));
        return close;
      }
      case "html_block":
        return this.html(tokens, i, end, out);
      case "liquid":
        return this.liquid(tokens, i, end, out);
      default:
        if (t.map) out.push(this.rawLines(t.map[0], t.map[1]));
        return t.nesting === 1 ? this.closing(tokens, i) : i + 1;
  }
}

  private paragraph(inline: Token): Paragraph {
    return { object: "block", type: "paragraph", nodes: this.inlines(inline) };
  }

  private code(t: Token, attrs: Record<string, string>): Block {
    const content = t.content.endsWith("\n") ? t.content.slice(0, -1) : t.content;
    const data: { syntax?: string; title?: string; overflow?: "scroll" | "wrap"; lineNumbers?: boolean } = {};
    const syntax = t.info.trim().split(/\s+/)[0];
    if (syntax) data.syntax = syntax;
    if (attrs.title !== undefined) data.title = attrs.title;
    if (attrs.overflow === "wrap" || attrs.overflow === "scroll") data.overflow = attrs.overflow;
    if (attrs.lineNumbers === "true" || attrs.lineNumbers === "false") data.lineNumbers = attrs.lineNumbers === "true";
    return {
      object: "block",
      type: "code",
      data,
      nodes: content.split("\n").map((line) => ({
        object: "block" as const,
        type: "code-line" as const,
        data: {},
        nodes: [{ object: "text" as const, leaves: [{ object: "leaf" as const, text: line, marks: [] }] }],
      })),
    };
  }

  private list(tokens: Token[], open: number, close: number): Block {
    const items: ListItem[] = [];
    let i = open + 1;
    while (i < close - 1) {
      const itemClose = this.closing(tokens, i);
      items.push({ object: "block", type: "list-item", nodes: this.blocks(tokens, i + 1, itemClose - 1, ALLOWED.listItem, true) });
      i = itemClose;
    }
    if (tokens[open].type === "ordered_list_open") {
      const start = Number(attr(tokens[open], "start") ?? 1);
      return { object: "block", type: "list-ordered", data: start !== 1 ? { start } : {}, nodes: items };
    }
    const tasks = items.length > 0 && items.every((item) => taskState(item) !== undefined);
    if (!tasks) return { object: "block", type: "list-unordered", nodes: items };
    for (const item of items) {
      item.data = { checked: taskState(item) };
      stripTaskMarker(item);
    }
    return { object: "block", type: "list-tasks", nodes: items };
  }

  private table(tokens: Token[], open: number, close: number): Table {
    const rows: { cells: Token[]; align: Alignment[] }[] = [];
    let row: Token[] = [];
    let align: Alignment[] = [];
    for (let i = open; i < close; i++) {
      const t = tokens[i];
      if (t.type === "tr_open") {
        row = [];
        align = [];
      } else if (t.type === "th_open" || t.type === "td_open") {
        const style = attr(t, "style") ?? "";
        align.push(/text-align:\s*right/.test(style) ? "right" : /text-align:\s*center/.test(style) ? "center" : "left");
        row.push(tokens[i + 1]);
      } else if (t.type === "tr_close") rows.push({ cells: row, align });
    }
    const [header, ...body] = rows;
    const columns = header.cells.map((_, n) => `column-${n + 1}`);
    const definition: Table["data"]["definition"] = {};
    columns.forEach((id, n) => {
      definition[id] = { id, title: header.cells[n].content, type: "text", textAlignment: header.align[n] };
    });
    const records: Table["data"]["records"] = {};
    const fragments: Fragment[] = [];
    body.forEach((r, n) => {
      const values: Record<string, string> = {};
      columns.forEach((id, c) => {
        const cell = r.cells[c];
        if (!cell) return;
        const fragment = this.fragmentId();
        fragments.push({ object: "fragment", fragment, nodes: [this.paragraph(cell)] });
        values[id] = fragment;
      });
      records[`record-${n + 1}`] = { orderIndex: String(n).padStart(4, "0"), values };
    });
    return {
      object: "block",
      type: "table",
      isVoid: true,
      data: { view: { type: "grid", columns, hideHeader: false }, records, definition },
      fragments,
    };
  }

  /** `<figure>` image blocks, `<div>` image groups and `<details>` expandables; other HTML stays raw. */
  private html(tokens: Token[], i: number, end: number, out: Block[]): number {
    const t = tokens[i];
    const content = t.content.trim();
    const figures = [...content.matchAll(/<figure>([\s\S]*?)<\/figure>/g)];
    if (figures.length > 0 && /^(<div[^>]*>\s*)?<figure>[\s\S]*<\/figure>(\s*<\/div>)?$/.test(content)) {
      const images = figures.map((f) => this.figure(f[1]));
      if (images.every((img): img is Image => img !== undefined)) {
        const align = /^<div\s+align="(left|center|right)"/.exec(content)?.[1] as "left" | "center" | "right" | undefined;
        out.push({ object: "block", type: "images", data: align ? { align } : {}, nodes: images, isVoid: false });
        return i + 1;
      }
    }
    if (/^<details>/.test(content)) {
      const close = this.detailsEnd(tokens, i, end);
      if (close !== -1) {
        const summary = /<summary>([\s\S]*?)<\/summary>/.exec(content);
        let bodyStart = i + 1;
        let title = summary?.[1];
        if (!summary && tokens[i + 1]?.type === "html_block") {
          title = /^<summary>([\s\S]*?)<\/summary>$/.exec(tokens[i + 1].content.trim())?.[1];
          bodyStart = i + 2;
        }
        if (title !== undefined) {
          const titleTokens = md.parseInline(title, {});
          out.push({
            object: "block",
            type: "expandable",
            data: {},
            isVoid: true,
            fragments: [
              { object: "fragment", fragment: "expandable-title", type: "expandable-title", nodes: [this.paragraph(titleTokens[0])] },
              { object: "fragment", fragment: "expandable-body", type: "expandable-body", nodes: this.blocks(tokens, bodyStart, close, ALLOWED.expandable) },
            ],
          });
          return close + 1;
        }
      }
    }
    out.push(this.raw(t.content.replace(/\n+$/, "")));
    return i + 1;
  }

  private detailsEnd(tokens: Token[], open: number, end: number): number {
    let depth = 0;
    for (let i = open; i < end; i++) {
      const t = tokens[i];
      if (t.type !== "html_block") continue;
      const c = t.content.trim();
      if (c.startsWith("<details>")) depth++;
      if (c.endsWith("</details>")) depth--;
      if (depth === 0) return c === "</details>" ? i : -1;
    }
    return -1;
  }

  private figure(inner: string): Image | undefined {
    const img = /<img\s([^>]*?)\/?>/.exec(inner);
    if (!img) return undefined;
    const attrs = parseAttrs(img[1]);
    if (attrs.src === undefined) return undefined;
    const image: Image = { object: "block", type: "image", data: { ref: this.imageRef(attrs.src) }, fragments: [], isVoid: true };
    if (attrs.alt !== undefined) image.data.alt = unescapeAlt(attrs.alt);
    const width = lengthOf(attrs.width);
    if (width !== undefined) image.data.width = width;
    // GitBook's dark-mode variant: <picture><source srcset="…" media="(prefers-color-scheme: dark)"><img …></picture>.
    for (const source of inner.matchAll(/<source\s([^>]*?)\/?>/g)) {
      const sourceAttrs = parseAttrs(source[1]);
      const srcset = sourceAttrs.srcset?.trim().split(/\s+/)[0];
      if (srcset && /^\(prefers-color-scheme:\s*dark\)$/.test(sourceAttrs.media?.trim() ?? "")) {
        image.data.refDark = this.imageRef(srcset);
        break;
      }
    }
    const caption = /<figcaption>\s*(?:<p>)?([\s\S]*?)(?:<\/p>)?\s*<\/figcaption>/.exec(inner);
    if (caption) {
      image.fragments.push({ object: "fragment", fragment: "caption", type: "caption", nodes: [this.paragraph(md.parseInline(caption[1], {})[0])] });
    }
    return image;
  }

  private liquid(tokens: Token[], i: number, end: number, out: Block[]): number {
    const t = tokens[i];
    const { name, attrs } = liquidMeta(t);
    const close = liquidMeta(t).end ? -1 : this.liquidEnd(tokens, i, end);
    const inner = () => this.blocks(tokens, i + 1, close, ALLOWED.hint);
    const rawRange = () => {
      const to = close === -1 ? t.map?.[1] ?? 0 : tokens[close].map?.[1] ?? 0;
      return this.rawLines(t.map?.[0] ?? 0, to);
    };
    if (liquidMeta(t).end) {
      out.push(this.rawLines(t.map?.[0] ?? 0, t.map?.[1] ?? 0));
      return i + 1;
    }
    switch (name) {
      case "hint": {
        const style = HINT_STYLES.find((s) => s === attrs.style);
        if (close === -1 || !style) break;
        out.push({ object: "block", type: "hint", data: { style }, nodes: inner() });
        return close + 1;
      }
      case "code": {
        const fence = tokens[i + 1];
        if (close !== i + 2 || (fence.type !== "fence" && fence.type !== "code_block")) break;
        out.push(this.code(fence, attrs));
        return close + 1;
      }
      case "tabs":
      case "stepper": {
        if (close === -1) break;
        const itemName = name === "tabs" ? "tab" : "step";
        const items: Block[] = [];
        let j = i + 1;
        let ok = true;
        while (j < close) {
          const it = tokens[j];
          const itEnd = it.type === "liquid" && liquidMeta(it).name === itemName ? this.liquidEnd(tokens, j, close) : -1;
          if (itEnd === -1) {
            ok = false;
            break;
          }
          const nodes = this.blocks(tokens, j + 1, itEnd, name === "tabs" ? ALLOWED.tab : ALLOWED.step);
          if (name === "tabs") items.push({ object: "block", type: "tabs-item", data: { title: liquidMeta(it).attrs.title ?? "" }, nodes });
          else items.push({ object: "block", type: "stepper-step", data: {}, nodes });
          j = itEnd + 1;
        }
        if (!ok) break;
        if (name === "tabs") out.push({ object: "block", type: "tabs", nodes: items as Extract<Block, { type: "tabs-item" }>[] });
        else out.push({ object: "block", type: "stepper", nodes: items as Extract<Block, { type: "stepper-step" }>[] });
        return close + 1;
      }
      case "file": {
        if (attrs.src === undefined) break;
        const resolved = this.ref(attrs.src, "file");
        const ref = resolved.kind === "file" ? resolved : { kind: "file" as const, file: attrs.src };
        if (close === -1 || close === i + 1) {
          out.push({ object: "block", type: "file", data: { ref }, isVoid: true });
          return close === -1 ? i + 1 : close + 1;
        }
        break;
      }
      case "embed": {
        if (attrs.url === undefined || (close !== -1 && close !== i + 1)) break;
        out.push({ object: "block", type: "embed", data: { url: attrs.url }, isVoid: true });
        return close === -1 ? i + 1 : close + 1;
      }
      case "content-ref": {
        if (attrs.url === undefined || close === -1) break;
        out.push({ object: "block", type: "content-ref", data: { ref: this.ref(attrs.url, "link") }, isVoid: true });
        return close + 1;
      }
      case "include": {
        const path = /^"([^"]+)"$/.exec(t.info.trim())?.[1];
        if (path === undefined) break;
        const ref = this.ref(path, "include");
        const rc = ref.kind === "reusable-content" ? ref : { kind: "reusable-content" as const, reusableContent: path };
        out.push({ object: "block", type: "reusable-content", data: { ref: rc }, isVoid: true });
        return i + 1;
      }
    }
    out.push(rawRange());
    return close === -1 ? i + 1 : close + 1;
  }

  inlines(inline: Token): InlineNode[] {
    const nodes: InlineNode[] = [];
    const marks: MarkType[] = [];
    let link: { ref: ContentRef; nodes: InlineNode[] } | undefined;
    const target = () => (link ? link.nodes : nodes);
    const pushLeaf = (text: string, extra?: MarkType) => {
      if (text === "") return;
      const list = target();
      const leaf: Leaf = { object: "leaf", text, marks: markList(extra ? [...marks, extra] : marks) };
      const last = list[list.length - 1];
      const previous = last?.object === "text" ? last.leaves[last.leaves.length - 1] : undefined;
      if (previous && sameMarks(previous, leaf)) previous.text += text;
      else if (last?.object === "text") last.leaves.push(leaf);
      else list.push({ object: "text", leaves: [leaf] });
    };
    for (const t of inline.children ?? []) {
      switch (t.type) {
        case "text":
        case "html_inline":
          pushLeaf(t.content);
          break;
        case "softbreak":
        case "hardbreak":
          pushLeaf("\n");
          break;
        case "code_inline":
          pushLeaf(t.content, "code");
          break;
        case "strong_open":
          marks.push("bold");
          break;
        case "em_open":
          marks.push("italic");
          break;
        case "s_open":
          marks.push("strikethrough");
          break;
        case "strong_close":
        case "em_close":
        case "s_close":
          marks.pop();
          break;
        case "link_open":
          link = { ref: this.ref(attr(t, "href") ?? "", "link"), nodes: [] };
          break;
        case "link_close":
          if (link) {
            const l: Inline = { object: "inline", type: "link", data: { ref: link.ref }, nodes: link.nodes.filter((n) => n.object === "text" || n.type === "inline-image") as (Text | Extract<Inline, { type: "inline-image" }>)[] };
            nodes.push(l);
            link = undefined;
          }
          break;
        case "image": {
          const alt = t.content;
          const img: Inline = { object: "inline", type: "inline-image", data: { ref: this.imageRef(attr(t, "src") ?? "") }, isVoid: true };
          if (alt) img.data.alt = alt;
          target().push(img);
          break;
        }
        case "math_inline":
          target().push({ object: "inline", type: "inline-math", data: { formula: t.content }, isVoid: true });
          break;
        default:
          pushLeaf(t.content);
      }
    }
    if (nodes.length === 0) nodes.push({ object: "text", leaves: [{ object: "leaf", text: "", marks: [] }] });
    return nodes;
  }
}

interface LiquidMeta {
  end: boolean;
  name: string;
  attrs: Record<string, string>;
}

function liquidMeta(t: Token): LiquidMeta {
  return t.meta as unknown as LiquidMeta;
}

function attr(t: Token, name: string): string | undefined {
  const v = t.attrGet(name);
  return v === null ? undefined : String(v);
}

function sameMarks(a: Leaf, b: Leaf): boolean {
  return a.marks.length === b.marks.length && a.marks.every((m) => b.marks.some((n) => n.type === m.type)) && !a.marks.some((m) => m.type === "code");
}

/** GitBook's heading anchor, written after the title: `## Title <a href="#id" id="id"></a>`. */
const HEADING_ANCHOR = /^<a href="#([^"]+)" id="\1">$/;

function headingId(inline: Token): string | undefined {
  const children = inline.children ?? [];
  const n = children.length;
  if (n < 2 || children[n - 1].type !== "html_inline" || children[n - 1].content !== "</a>") return undefined;
  const open = HEADING_ANCHOR.exec(children[n - 2].type === "html_inline" ? children[n - 2].content : "");
  if (!open) return undefined;
  const rest = children.slice(0, n - 2);
  const before = rest[rest.length - 1];
  if (before?.type === "text") before.content = before.content.replace(/ $/, "");
  inline.children = rest;
  return open[1];
}

function markList(types: MarkType[]): Mark[] {
  const order: MarkType[] = ["bold", "italic", "strikethrough", "code"];
  return order.filter((type) => types.includes(type)).map((type) => ({ object: "mark" as const, type }));
}

const TASK = /^\[([ xX])\] /;

function firstLeaf(item: ListItem): Leaf | undefined {
  const first = item.nodes[0];
  if (first?.type !== "paragraph" || first.key?.startsWith(RAW_KEY_PREFIX)) return undefined;
  const text = first.nodes[0];
  return text?.object === "text" ? text.leaves[0] : undefined;
}

function taskState(item: ListItem): boolean | undefined {
  const leaf = firstLeaf(item);
  const m = leaf && leaf.marks.length === 0 ? TASK.exec(leaf.text) : null;
  return m ? m[1] !== " " : undefined;
}

function stripTaskMarker(item: ListItem): void {
  const leaf = firstLeaf(item);
  if (leaf) leaf.text = leaf.text.slice(4);
}

/** Markdown in GitBook's Git Sync syntax as GitBook's JSON document. */
export function markdownToDocument(markdown: string, resolver: RefResolver = {}): JSONDocument {
  return new Parser(markdown.replace(/\r\n?/g, "\n"), resolver).document();
}

/** An image's width attribute as GitBook's Length: whole pixels, or a percentage. */
function lengthOf(value: string | undefined): Length | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d{1,5}(?:px)?$/.test(v)) return Number.parseInt(v, 10);
  const percent = /^(\d{1,3}(?:\.\d{1,2})?)%$/.exec(v);
  if (percent && Number(percent[1]) <= 100) return { unit: "%", value: Number(percent[1]) };
  return undefined;
}
