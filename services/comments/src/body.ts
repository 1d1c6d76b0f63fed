// Comment bodies: markdown in, markdown or a GitBook JSON document out.

/** Longest comment or reply body, in characters (UTF-16 code units, as JavaScript counts them). */
export const MAX_MARKDOWN_LENGTH = 65_536;

export const FORMATS = ["markdown", "document"] as const;
export type BodyFormat = (typeof FORMATS)[number];

/** fastest-validator rule of a `body` parameter: `{markdown}`, 1..MAX_MARKDOWN_LENGTH characters. */
export const bodyRule = {
  type: "object",
  strict: "remove",
  props: { markdown: { type: "string", min: 1, max: MAX_MARKDOWN_LENGTH } },
} as const;

export interface JsonDocument {
  object: "document";
  data: Record<string, never>;
  nodes: Array<{
    object: "block";
    type: "paragraph" | "heading-1" | "heading-2" | "heading-3";
    data: Record<string, never>;
    nodes: Array<{ object: "text"; leaves: Array<{ object: "leaf"; text: string; marks: [] }> }>;
  }>;
}

export type Body = { markdown: string } | { document: JsonDocument };

/** Blocks separated by blank lines; `#`..`###` lines become headings, the rest paragraphs of their text. */
export function markdownToDocument(markdown: string): JsonDocument {
  const blocks = markdown.split(/\n{2,}/).map((b) => b.trim()).filter(Boolean);
  return {
    object: "document",
    data: {},
    nodes: blocks.map((block) => {
      const heading = /^(#{1,3})\s+(.*)$/s.exec(block);
      const type = heading ? (["heading-1", "heading-2", "heading-3"] as const)[heading[1].length - 1] : "paragraph";
      const text = heading ? heading[2] : block;
      return { object: "block", type, data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] };
    }),
  };
}

export function presentBody(markdown: string, format: BodyFormat | undefined): Body {
  return format === "document" ? { document: markdownToDocument(markdown) } : { markdown };
}
