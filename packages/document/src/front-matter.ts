// YAML front matter at the top of a page file (`---` lines around YAML), as Git sync reads and writes it.
import { parse as parseYaml } from "yaml";

export interface FrontMatterSplit {
  /** The YAML text between the `---` lines; null when the markdown starts without front matter. */
  raw: string | null;
  /** The parsed YAML when it is a mapping; null when there is none, it is not valid YAML, or not a mapping. */
  data: Record<string, unknown> | null;
  /** The markdown after the front matter, leading blank lines removed (all of it when there is none). */
  body: string;
  /**
   * The front matter exactly as written, for byte-faithful rewriting (Git sync): from the opening `---`
   * through the closing line and its line break, byte-order mark excluded; null when there is none.
   */
  block: string | null;
}

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(---|\.\.\.)[ \t]*$/;

/** Splits leading YAML front matter (after an optional byte-order mark) from the markdown body. */
export function splitFrontMatter(markdown: string): FrontMatterSplit {
  const source = markdown.replace(/^\uFEFF/, "");
  const lines = source.split("\n");
  const none: FrontMatterSplit = { raw: null, data: null, body: source, block: null };
  if (lines.length < 2 || !OPEN.test(lines[0].replace(/\r$/, ""))) return none;
  const close = lines.findIndex((line, i) => i > 0 && CLOSE.test(line.replace(/\r$/, "")));
  if (close < 0) return none;
  const raw = lines.slice(1, close).map((line) => line.replace(/\r$/, "")).join("\n");
  let data: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = parseYaml(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    data = null;
  }
  const block = lines.slice(0, close + 1).join("\n") + (close + 1 < lines.length ? "\n" : "");
  const body = lines.slice(close + 1).join("\n").replace(/^(\r?\n)+/, "");
  return { raw, data, body, block };
}
