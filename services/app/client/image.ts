// An image block's alt text, caption and width as the block bar edits them. The alt text is GitBook's image
// `data.alt` (one line, at most 500 characters; none when emptied). The caption is GitBook's `caption` fragment
// (one paragraph; typed as plain text, so a caption's marks are kept until its text is changed); the width is
// GitBook's Length: whole pixels, or a percentage, the two forms the document's Markdown writes (`width="480"`,
// `width="50%"`), so what is typed is what comes back.
import type { Length } from "@docshelf/document";

type Loose = Record<string, unknown>;

interface CaptionFragment {
  fragment?: unknown;
  nodes?: Array<{ nodes?: Array<{ object?: string; leaves?: Array<{ text?: string }> }> }>;
}

/** The caption's text (its paragraphs' text runs), "" for none. */
export function captionOf(node: { attrs: Record<string, unknown> }): string {
  const fragments = Array.isArray(node.attrs.fragments) ? (node.attrs.fragments as CaptionFragment[]) : [];
  const caption = fragments.find((f) => f.fragment === "caption");
  return (caption?.nodes ?? [])
    .map((p) => (p.nodes ?? []).map((n) => (n.object === "text" ? (n.leaves ?? []).map((l) => l.text ?? "").join("") : "")).join(""))
    .join(" ");
}

/** The image's fragments with its caption set to `text` (no caption fragment for an empty one). */
export function withCaption(fragments: unknown, text: string): unknown[] {
  const others = (Array.isArray(fragments) ? (fragments as Loose[]) : []).filter((f) => f.fragment !== "caption");
  const caption = text.replace(/\s+/g, " ").trim();
  if (!caption) return others;
  const paragraph = { object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: caption, marks: [] }] }] };
  return [...others, { object: "fragment", fragment: "caption", type: "caption", nodes: [paragraph] }];
}

/** A width as typed: `480`, `480px` (pixels, 1 to 99999) or `50%` (above 0, at most 100, two decimals); undefined otherwise. */
export function parseLength(text: string): Length | undefined {
  const value = text.trim();
  const pixels = /^(\d{1,5})\s*(?:px)?$/i.exec(value);
  if (pixels) return Number(pixels[1]) > 0 ? Number(pixels[1]) : undefined;
  const percent = /^(\d{1,3}(?:\.\d{1,2})?)\s*%$/.exec(value);
  if (percent && Number(percent[1]) > 0 && Number(percent[1]) <= 100) return { unit: "%", value: Number(percent[1]) };
  return undefined;
}

/** A stored width as the field shows it ("" for none, or a unit the field does not write). */
export function lengthText(width: unknown): string {
  if (typeof width === "number" && Number.isFinite(width)) return String(width);
  if (width && typeof width === "object" && (width as Loose).unit === "%" && typeof (width as Loose).value === "number") return `${String((width as Loose).value)}%`;
  return "";
}

/** The image's data with its alt text set to `text` (one line, at most 500 characters), or without one when it is empty. */
export function withAlt(data: unknown, text: string): Loose {
  const out: Loose = { ...((data as Loose | null) ?? {}) };
  const alt = text.replace(/\s+/g, " ").trim().slice(0, 500);
  if (alt) out.alt = alt;
  else delete out.alt;
  return out;
}
