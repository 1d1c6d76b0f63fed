// A pasted HTML table as GitBook's table block: its cells' text written as a Markdown table and read by
// the document parser (the one way the model's table records are made), so a table from a web page,
// Google Docs or Word is a table again. Text only: marks and links inside cells are not kept.
import { markdownToDocument } from "@docshelf/document/dist/parse";

/** The most rows and columns a pasted table keeps (the rest is left out: the work is bounded). */
export const TABLE_LIMITS = { rows: 500, columns: 30, cell: 2_000 };

function cell(text: string): string {
  const one = text.replace(/\s+/g, " ").trim().slice(0, TABLE_LIMITS.cell);
  // Markdown's own syntax inside a cell is text.
  return one.replace(/[\\|`*_~[\]<>!$&{}#]/g, (c) => `\\${c}`);
}

/** Rows of cell texts as a Markdown table, the first row its header; undefined for no table. */
export function tableMarkdown(rows: string[][]): string | undefined {
  const kept = rows.slice(0, TABLE_LIMITS.rows).map((r) => r.slice(0, TABLE_LIMITS.columns));
  const width = Math.max(0, ...kept.map((r) => r.length));
  if (kept.length === 0 || width === 0) return undefined;
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? "") || " ").join(" | ")} |`;
  return [line(kept[0]), `|${" --- |".repeat(width)}`, ...kept.slice(1).map(line)].join("\n");
}

/** The table block's attributes for rows of cell texts (false: not a table). */
export function tableAttrs(rows: string[][]): { data: unknown; isVoid: true; fragments: unknown } | false {
  const markdown = tableMarkdown(rows);
  const block = markdown === undefined ? undefined : markdownToDocument(markdown).nodes[0];
  if (block?.type !== "table") return false;
  const loose = block as unknown as { data: unknown; fragments?: unknown };
  return { data: loose.data, isVoid: true, fragments: loose.fragments ?? [] };
}

/** An HTML table's rows of cell texts (its own rows, not a nested table's). */
export function rowsOf(table: HTMLTableElement): string[][] {
  return [...table.rows].map((row) => [...row.cells].map((c) => c.textContent ?? ""));
}
