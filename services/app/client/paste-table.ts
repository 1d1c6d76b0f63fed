// A pasted HTML table as the editor's table (schema.ts): its cells' text, row by row, the first row the
// columns' titles, so a table from a web page, Google Docs or Word is a table again. Text only: marks and
// links inside cells are not kept; merged cells are one cell each, and short rows are filled with empty cells.

/** The most rows and columns a pasted table keeps (the rest is left out: the work is bounded). */
export const TABLE_LIMITS = { rows: 500, columns: 30, cell: 2_000 };

/** Rows of cell texts made rectangular and bounded; undefined for no table (no row, or no cell). */
export function tableRows(rows: string[][]): string[][] | undefined {
  const kept = rows.slice(0, TABLE_LIMITS.rows).map((r) => r.slice(0, TABLE_LIMITS.columns).map((c) => c.replace(/\s+/g, " ").trim().slice(0, TABLE_LIMITS.cell)));
  const width = Math.max(0, ...kept.map((r) => r.length));
  if (kept.length === 0 || width === 0) return undefined;
  return kept.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
}

/** An HTML table's rows of cell texts (its own rows, not a nested table's). */
export function rowsOf(table: HTMLTableElement): string[][] {
  return [...table.rows].map((row) => [...row.cells].map((c) => c.textContent ?? ""));
}

/** A pasted HTML table's rows, as the editor takes them (undefined: not a table). */
export function pastedTableRows(table: HTMLTableElement): string[][] | undefined {
  return tableRows(rowsOf(table));
}
