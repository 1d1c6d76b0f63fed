// GitBook's card view: an HTML table written `<table data-view="cards">` whose header says which column is
// the card's target (`data-card-target`), its cover (`data-card-cover`) and which are hidden (`data-hidden`).
// Rendered as a grid of cards, each a block with its visible cells and, when it has a target, a link over it.
import { parse, type HTMLElement } from "node-html-parser";

export interface CardsSource {
  /** The table's HTML as the author wrote it. */
  html: string;
}

export interface Card {
  /** Visible cells' HTML, as written (sanitized by the caller). */
  cells: string[];
  target?: string;
  cover?: string;
  title: string;
}

const CARDS = /^\s*<table\b[^>]*\bdata-view="cards"/i;

export function isCardsTable(html: string): boolean {
  return CARDS.test(html);
}

function hrefOf(cell: HTMLElement | undefined): string | undefined {
  if (!cell) return undefined;
  const link = cell.querySelector("a");
  const img = cell.querySelector("img");
  return link?.getAttribute("href") ?? img?.getAttribute("src") ?? (cell.text.trim() || undefined);
}

/** The cards of a card-view table, or undefined when it is not one that reads. */
export function readCards(html: string): Card[] | undefined {
  const root = parse(html);
  const table = root.querySelector("table");
  if (!table) return undefined;
  const headers = table.querySelectorAll("thead th");
  const hidden = headers.map((th) => th.hasAttribute("data-hidden"));
  const targetAt = headers.findIndex((th) => th.hasAttribute("data-card-target"));
  const coverAt = headers.findIndex((th) => th.hasAttribute("data-card-cover"));
  const rows = table.querySelectorAll("tbody tr");
  if (!rows.length) return undefined;
  return rows.map((row) => {
    const cells = row.querySelectorAll("td");
    const visible = cells.filter((_, i) => i !== targetAt && i !== coverAt && !hidden[i]);
    const card: Card = { cells: visible.map((c) => c.innerHTML.trim()).filter(Boolean), title: (visible[0]?.text ?? "").trim() };
    const target = targetAt >= 0 ? hrefOf(cells[targetAt]) : undefined;
    const cover = coverAt >= 0 ? hrefOf(cells[coverAt]) : undefined;
    if (target) card.target = target;
    if (cover) card.cover = cover;
    return card;
  });
}
