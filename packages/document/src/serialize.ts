// GitBook JSON document -> Markdown in GitBook's Git Sync syntax: the inverse of parse.ts, so that
// Markdown -> document -> Markdown gives back the Markdown for every block the model has.
import { RAW_KEY_PREFIX, type Block, type ContentRef, type Fragment, type InlineNode, type JSONDocument, type Leaf, type MarkType, type RefResolver } from "./types";

const MARK_ORDER: MarkType[] = ["bold", "italic", "strikethrough"];
const DELIMITER: Record<Exclude<MarkType, "code">, string> = { bold: "**", italic: "_", strikethrough: "~~" };
/** A letter or digit of any script: `_` beside one cannot open or close emphasis. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

function escapeText(text: string): string {
  return text
    .replace(/[\\*`[\]]/g, (c) => `\\${c}`)
    .replace(/(^|\W)_|_(?=\W|$)/g, (m) => m.replace("_", "\\_"))
    .replace(/~~/g, "\\~\\~")
    .replace(/\$\$/g, "\\$\\$")
    .replace(/\{%/g, "\\{%")
    .replace(/&(?=#?\w+;)/g, "&amp;")
    .replace(/<(?=[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>)/g, "\\<")
    .replace(/^([#>])/gm, "\\$1");
}

/** Spaces that Markdown would drop at the start or end of a line, written as GitBook does (`&#x20;`). */
function keepEdgeSpaces(markdown: string): string {
  return markdown.replace(/^ | $/gm, "&#x20;");
}

function codeSpan(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

class Serializer {
  constructor(private readonly resolver: RefResolver) {}

  href(ref: ContentRef): string {
    const own = this.resolver.toHref?.(ref);
    if (own !== undefined) return own;
    switch (ref.kind) {
      case "url":
        return ref.url;
      case "file":
        return ref.file;
      case "page":
        return ref.page;
      case "anchor":
        return `${ref.page ?? ""}#${ref.anchor}`;
      case "reusable-content":
        return ref.reusableContent;
      case "space":
        return ref.space;
    }
  }

  leaves(leaves: Leaf[]): string {
    let out = "";
    const open: MarkType[] = [];
    // The delimiter each open mark was written with (italic's may be `*`, see below).
    const written = new Map<MarkType, string>();
    const has = (leaf: Leaf, m: MarkType) => leaf.marks.some((mk) => mk.type === m);
    for (const [index, leaf] of leaves.entries()) {
      const want = MARK_ORDER.filter((m) => has(leaf, m));
      while (open.length > 0 && !open.every((m) => want.includes(m))) out += written.get(open.pop() as MarkType);
      for (const m of want) {
        if (!open.includes(m)) {
          open.push(m);
          let delimiter = DELIMITER[m as Exclude<MarkType, "code">];
          // `_` opens or closes emphasis only at a word's edge: italic text touching a letter or digit outside
          // (`传*mystruct 类型*`, common in Chinese and Japanese) is written with `*`, which works inside words.
          if (m === "italic") {
            let end = index;
            while (end < leaves.length && has(leaves[end], "italic")) end++;
            const after = leaves[end]?.text.charAt(0) ?? "";
            if (WORD_CHAR.test(out.slice(-1)) || WORD_CHAR.test(after)) delimiter = "*";
          }
          written.set(m, delimiter);
          out += delimiter;
        }
      }
      out += has(leaf, "code") ? codeSpan(leaf.text) : escapeText(leaf.text);
    }
    while (open.length > 0) out += written.get(open.pop() as MarkType);
    return out;
  }

  inlines(nodes: InlineNode[]): string {
    return nodes
      .map((node) => {
        if (node.object === "text") return this.leaves(node.leaves);
        switch (node.type) {
          case "link":
            return `[${this.inlines(node.nodes)}](${this.href(node.data.ref)})`;
          case "inline-image":
            return `![${node.data.alt ?? ""}](${this.href(node.data.ref)})`;
          case "inline-math":
            return `$$${node.data.formula}$$`;
        }
        return "";
      })
      .join("");
  }

  blocks(nodes: Block[], separator = "\n\n"): string {
    return nodes.map((b) => this.block(b)).join(separator);
  }

  fragment(fragments: Fragment[], name: string): Fragment | undefined {
    return fragments.find((f) => f.fragment === name);
  }

  block(block: Block): string {
    switch (block.type) {
      case "paragraph":
        if (block.key?.startsWith(RAW_KEY_PREFIX)) return block.nodes.map((n) => (n.object === "text" ? n.leaves.map((l) => l.text).join("") : "")).join("");
        return keepEdgeSpaces(this.inlines(block.nodes)).replace(/^\n/, "\\\n");
      case "heading-1":
      case "heading-2":
      case "heading-3":
        return `${"#".repeat(Number(block.type.slice(-1)))} ${keepEdgeSpaces(this.inlines(block.nodes))}${block.data.id ? ` <a href="#${block.data.id}" id="${block.data.id}"></a>` : ""}`;
      case "divider":
        return "***";
      case "blockquote":
        return prefixLines(this.blocks(block.nodes), "> ", ">");
      case "list-ordered":
      case "list-unordered":
      case "list-tasks": {
        const start = block.type === "list-ordered" ? block.data.start ?? 1 : 1;
        return block.nodes
          .map((item, n) => {
            let marker = block.type === "list-ordered" ? `${start + n}. ` : "* ";
            if (block.type === "list-tasks") marker += item.data?.checked ? "[x] " : "[ ] ";
            const indent = " ".repeat(block.type === "list-ordered" ? `${start + n}. `.length : 2);
            // A nested list follows tightly; any other second block needs a blank line, or it would join the first.
            const body = item.nodes.map((b, i) => (i === 0 ? "" : b.type.startsWith("list-") ? "\n" : "\n\n") + this.block(b)).join("");
            return marker + body.split("\n").map((line, i) => (i === 0 || line === "" ? line : indent + line)).join("\n");
          })
          .join("\n");
      }
      case "list-item":
        return this.blocks(block.nodes, "\n");
      case "code": {
        const content = block.nodes.map((line) => line.nodes.map((t) => t.leaves.map((l) => l.text).join("")).join("")).join("\n");
        const runs = content.match(/^`{3,}/gm) ?? [];
        const fence = "`".repeat(Math.max(2, ...runs.map((r) => r.length)) + 1);
        const code = `${fence}${block.data.syntax ?? ""}\n${content}\n${fence}`;
        const attrs: string[] = [];
        if (block.data.title !== undefined) attrs.push(`title="${block.data.title}"`);
        if (block.data.overflow !== undefined) attrs.push(`overflow="${block.data.overflow}"`);
        if (block.data.lineNumbers !== undefined) attrs.push(`lineNumbers="${block.data.lineNumbers}"`);
        return attrs.length > 0 ? `{% code ${attrs.join(" ")} %}\n${code}\n{% endcode %}` : code;
      }
      case "code-line":
        return block.nodes.map((t) => t.leaves.map((l) => l.text).join("")).join("");
      case "hint":
        return `{% hint style="${block.data.style}" %}\n${closeBody(this.blocks(block.nodes))}{% endhint %}`;
      case "math":
        return `$$\n${block.data.formula}\n$$`;
      case "image":
      case "images": {
        const images = block.type === "image" ? [block] : block.nodes;
        const figures = images.map((img) => {
          const alt = img.data.alt !== undefined ? ` alt="${escapeAlt(img.data.alt)}"` : "";
          const caption = this.fragment(img.fragments, "caption");
          const cap = caption ? `<figcaption><p>${figcaptionText(this.blocks(caption.nodes, " "))}</p></figcaption>` : "";
          const w = img.data.width;
          const width = typeof w === "number" ? ` width="${w}"` : w && w.unit === "%" ? ` width="${w.value}%"` : "";
          const tag = `<img src="${this.href(img.data.ref)}"${alt}${width}>`;
          const picture = img.data.refDark ? `<picture><source srcset="${this.href(img.data.refDark)}" media="(prefers-color-scheme: dark)">${tag}</picture>` : tag;
          return `<figure>${picture}${cap}</figure>`;
        });
        if (block.type === "images" && (images.length > 1 || block.data.align !== undefined)) {
          const align = block.data.align !== undefined ? ` align="${block.data.align}"` : "";
          return `<div${align}>${figures.join(" ")}</div>`;
        }
        return figures.join("\n\n");
      }
      case "file":
        return `{% file src="${this.href(block.data.ref)}" %}`;
      case "embed":
        return `{% embed url="${block.data.url}" %}`;
      case "content-ref": {
        const url = this.href(block.data.ref);
        return `{% content-ref url="${url}" %}\n[${url}](${url})\n{% endcontent-ref %}`;
      }
      case "reusable-content":
        return `{% include "${this.href(block.data.ref)}" %}`;
      case "expandable": {
        const title = this.fragment(block.fragments, "expandable-title");
        const body = this.fragment(block.fragments, "expandable-body");
        return `<details>\n\n<summary>${title ? this.blocks(title.nodes, " ") : ""}</summary>\n\n${body ? this.blocks(body.nodes) : ""}\n\n</details>`;
      }
      case "tabs":
        return `{% tabs %}\n${block.nodes.map((tab) => this.block(tab)).join("\n\n")}\n{% endtabs %}`;
      case "tabs-item":
        return `{% tab title="${block.data.title ?? ""}" %}\n${closeBody(this.blocks(block.nodes))}{% endtab %}`;
      case "stepper":
        return `{% stepper %}\n${block.nodes.map((step) => this.block(step)).join("\n\n")}\n{% endstepper %}`;
      case "stepper-step":
        return `{% step %}\n${closeBody(this.blocks(block.nodes))}{% endstep %}`;
      case "table": {
        const { view, definition, records } = block.data;
        const cell = (fragmentId: string | undefined) => {
          const f = fragmentId === undefined ? undefined : this.fragment(block.fragments, fragmentId);
          return f ? this.blocks(f.nodes, " ").replace(/\|/g, "\\|").replace(/\n/g, " ") : "";
        };
        // A title is kept as written (Markdown the parser read as the header cell's source), but for what would end the cell.
        const header = `| ${view.columns.map((c) => (definition[c]?.title ?? "").replace(/\\?\|/g, "\\|").replace(/\s*\n\s*/g, " ")).join(" | ")} |`;
        const rule = `| ${view.columns.map((c) => ({ left: "---", center: ":-:", right: "--:" })[definition[c]?.textAlignment ?? "left"]).join(" | ")} |`;
        const rows = Object.values(records)
          .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
          .map((r) => `| ${view.columns.map((c) => cell(r.values[c])).join(" | ")} |`);
        return [header, rule, ...rows].join("\n");
      }
    }
  }
}

/**
 * A caption's Markdown inside `<figcaption><p>…</p></figcaption>`: on one line (a blank line would end the HTML
 * block), and no tag of the figure written as text (`</figcaption>` typed in a caption) read as the figure's own.
 */
function figcaptionText(markdown: string): string {
  return markdown.replace(/\s*\n\s*/g, " ").replace(/<(?=\/?(?:figcaption|figure|picture|source|img|div)\b)/gi, "&lt;");
}

/** A container's body before its closing tag: HTML (a figure, `</details>`) runs on to the next blank line, so one follows it. */
function closeBody(body: string): string {
  return body.endsWith(">") ? `${body}\n\n` : `${body}\n`;
}

function prefixLines(text: string, prefix: string, emptyPrefix: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? emptyPrefix : prefix + line))
    .join("\n");
}

/** GitBook's JSON document as Markdown in GitBook's Git Sync syntax (ends with one newline). */
export function documentToMarkdown(document: JSONDocument, resolver: RefResolver = {}): string {
  const body = new Serializer(resolver).blocks(document.nodes);
  return body === "" ? "" : `${body}\n`;
}

/**
 * An image's alt text as an attribute of the figure's `<img>`: `"`, `<` and `>` as entities (the tag and the
 * attribute would end there), and `&` where it would start one; any other `&` stays as written. parse.ts's
 * `unescapeAlt` reads it back, the same text.
 */
export function escapeAlt(alt: string): string {
  return alt.replace(/&(?=#?\w+;)/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
