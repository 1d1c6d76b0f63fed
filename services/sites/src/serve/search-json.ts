// The site's search as JSON (`{base}/~search.json?q=`), for the search-as-you-type box of the pages'
// script: the search page's own ranking (`rankSiteSearch`), each page with the section that matched
// and a short snippet cut into plain-text pieces, the matched words flagged. No HTML travels: the
// script builds the DOM with text nodes and <mark> elements, so nothing in a page can inject markup.

/** A piece of a snippet or title: plain text, `match` when it is one of the query's words. */
export interface TextPiece {
  text: string;
  match?: true;
}

export interface SearchJsonItem {
  /** The page's title, cut into pieces with the query's words flagged. */
  title: TextPiece[];
  href: string;
  /** The heading the match is under, when not the page's top. */
  section?: string;
  /** The site space (and section) the page belongs to, when the site shows several. */
  space?: string;
  snippet: TextPiece[];
}

export interface SearchJsonAnswer {
  query: string;
  items: SearchJsonItem[];
}

/** Longest accepted query (the search page's and searchSiteContent's bound). */
export const SEARCH_JSON_MAX_QUERY = 512;
/** Results when `limit` is not given, and the most asked for at once. */
export const SEARCH_JSON_DEFAULT_LIMIT = 8;
export const SEARCH_JSON_MAX_LIMIT = 20;
/** Characters of a snippet around its first match. */
export const SNIPPET_CHARS = 160;
const MAX_TERMS = 16;

export type SearchJsonParams = { ok: true; q: string; limit: number } | { ok: false; field: "q" | "limit"; message: string };

/** The endpoint's query string checked: a non-empty `q` of at most 512 characters, `limit` an integer 1..20. */
export function searchJsonParams(query: Record<string, string>): SearchJsonParams {
  const raw = query.q;
  if (typeof raw !== "string" || !raw.trim()) return { ok: false, field: "q", message: "q is required: the words to search for." };
  if (raw.length > SEARCH_JSON_MAX_QUERY) return { ok: false, field: "q", message: `q is at most ${SEARCH_JSON_MAX_QUERY} characters.` };
  let limit = SEARCH_JSON_DEFAULT_LIMIT;
  if (query.limit !== undefined) {
    if (!/^\d{1,3}$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > SEARCH_JSON_MAX_LIMIT) {
      return { ok: false, field: "limit", message: `limit is an integer from 1 to ${SEARCH_JSON_MAX_LIMIT}.` };
    }
    limit = Number(query.limit);
  }
  return { ok: true, q: raw.trim(), limit };
}

/** The query's words (letters and digits of any script), lower-cased, each once, longest first. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS).sort((a, b) => b.length - a.length);
}

function termPattern(terms: string[]): RegExp | null {
  if (!terms.length) return null;
  // A word starting with a term, whole (the index matches prefixes and stems: "zeppelin" finds "zeppelins").
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})[\\p{L}\\p{N}]*`, "giu");
}

/** `text` cut into pieces, the words starting with one of `terms` (case-insensitive) flagged whole. */
export function highlight(text: string, terms: string[]): TextPiece[] {
  const pattern = termPattern(terms);
  if (!pattern || !text) return text ? [{ text }] : [];
  const out: TextPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    const start = m.index ?? 0;
    if (!m[0]) continue;
    if (start > at) out.push({ text: text.slice(at, start) });
    out.push({ text: m[0], match: true });
    at = start + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/**
 * About `SNIPPET_CHARS` characters of `body` (whitespace collapsed) around the first occurrence of a
 * term, cut at word boundaries, with "…" where text was left out; the start when nothing matches.
 */
export function snippetOf(body: string, terms: string[]): string {
  const text = body.replace(/\s+/g, " ").trim();
  if (text.length <= SNIPPET_CHARS) return text;
  const pattern = termPattern(terms);
  const first = pattern ? text.search(pattern) : -1;
  let start = first < 0 ? 0 : Math.max(0, first - Math.floor(SNIPPET_CHARS / 3));
  if (start > 0) {
    const space = text.indexOf(" ", start);
    start = space >= 0 && space < (first < 0 ? start + 20 : first) ? space + 1 : start;
  }
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > start + SNIPPET_CHARS / 2) end = space;
  }
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

export interface SearchSource {
  title: string;
  href: string;
  space?: string;
  sections: Array<{ title: string; path: string; body: string }>;
}

/** One result: the first section whose text has a word of the query, else whose title has one, else the page's first. */
export function searchItem(source: SearchSource, terms: string[]): SearchJsonItem {
  const pattern = termPattern(terms);
  const has = (s: string) => !!pattern && s.search(pattern) >= 0;
  const section = source.sections.find((s) => has(s.body)) ?? source.sections.find((s) => has(s.title)) ?? source.sections[0];
  const anchor = section && section.path.includes("#") ? section.path.split("#")[1] : "";
  const item: SearchJsonItem = {
    title: highlight(source.title || "Untitled", terms),
    href: anchor ? `${source.href}#${anchor}` : source.href,
    snippet: section ? highlight(snippetOf(section.body, terms), terms) : [],
  };
  if (anchor && section.title) item.section = section.title;
  if (source.space) item.space = source.space;
  return item;
}
