// Structural check of a JSON document sent by a client, before it is turned into Markdown: the first
// problem is reported with its path (`document.nodes[2].type`) so the API can answer 400 naming it.
import type { JSONDocument } from "./types";

const BLOCK_TYPES = new Set([
  "paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "list-item",
  "divider", "blockquote", "hint", "code", "code-line", "image", "images", "file", "embed", "math", "expandable",
  "tabs", "tabs-item", "stepper", "stepper-step", "content-ref", "reusable-content", "table",
]);
const INLINE_TYPES = new Set(["link", "inline-image", "inline-math"]);
const MARK_TYPES = new Set(["bold", "italic", "strikethrough", "code"]);

export class DocumentError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkNode(node: unknown, path: string): void {
  if (!isObject(node)) throw new DocumentError(path, "must be an object.");
  switch (node.object) {
    case "block":
      if (typeof node.type !== "string" || !BLOCK_TYPES.has(node.type)) throw new DocumentError(`${path}.type`, `is not a supported block type (${String(node.type)}).`);
      break;
    case "inline":
      if (typeof node.type !== "string" || !INLINE_TYPES.has(node.type)) throw new DocumentError(`${path}.type`, `is not a supported inline type (${String(node.type)}).`);
      break;
    case "text": {
      if (!Array.isArray(node.leaves)) throw new DocumentError(`${path}.leaves`, "must be an array.");
      node.leaves.forEach((leaf, n) => {
        const lp = `${path}.leaves[${n}]`;
        if (!isObject(leaf) || leaf.object !== "leaf" || typeof leaf.text !== "string") throw new DocumentError(lp, "must be a leaf with a text.");
        if (leaf.marks !== undefined && !Array.isArray(leaf.marks)) throw new DocumentError(`${lp}.marks`, "must be an array.");
        (leaf.marks as unknown[] | undefined)?.forEach((mark, m) => {
          if (!isObject(mark) || typeof mark.type !== "string" || !MARK_TYPES.has(mark.type)) throw new DocumentError(`${lp}.marks[${m}]`, "is not a supported mark.");
        });
      });
      return;
    }
    default:
      throw new DocumentError(`${path}.object`, `must be "block", "inline" or "text".`);
  }
  if (node.data !== undefined && !isObject(node.data)) throw new DocumentError(`${path}.data`, "must be an object.");
  if (node.nodes !== undefined) {
    if (!Array.isArray(node.nodes)) throw new DocumentError(`${path}.nodes`, "must be an array.");
    node.nodes.forEach((child, n) => checkNode(child, `${path}.nodes[${n}]`));
  }
  if (node.fragments !== undefined) {
    if (!Array.isArray(node.fragments)) throw new DocumentError(`${path}.fragments`, "must be an array.");
    node.fragments.forEach((f, n) => {
      const fp = `${path}.fragments[${n}]`;
      if (!isObject(f) || !Array.isArray(f.nodes)) throw new DocumentError(fp, "must be a fragment with nodes.");
      f.nodes.forEach((child, c) => checkNode(child, `${fp}.nodes[${c}]`));
    });
  }
  const data = (node.data ?? {}) as Record<string, unknown>;
  const needsRef = ["link", "inline-image", "image", "file", "content-ref", "reusable-content"];
  if (needsRef.includes(node.type as string) && (!isObject(data.ref) || typeof data.ref.kind !== "string")) {
    throw new DocumentError(`${path}.data.ref`, "must be a content reference.");
  }
}

/** `value` as a JSON document, or a DocumentError naming the first field that is wrong (under `base`). */
export function checkDocument(value: unknown, base = "document"): JSONDocument {
  if (!isObject(value) || value.object !== "document") throw new DocumentError(`${base}.object`, `must be "document".`);
  if (!Array.isArray(value.nodes)) throw new DocumentError(`${base}.nodes`, "must be an array.");
  value.nodes.forEach((node, n) => checkNode(node, `${base}.nodes[${n}]`));
  return value as unknown as JSONDocument;
}
