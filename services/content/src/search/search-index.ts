// The embedded full-text index over the pages of each space's indexed revision.
import { checkLimit, checkOffset, checkQuery } from "./query";
import { excerpt } from "./excerpt";
import { type PageInput } from "./sections";
import { FIELDS, infixBytes, isDense, queryTerms, SpaceIndex, usesInfix, wordsHolding, type AnalyzePages } from "./space-index";

export type { PageInput } from "./sections";

export interface SearchSectionHit {
  /** The section's anchor, or the page id for the text before the first heading. */
  id: string;
  title: string;
  /** The page path, with "#anchor" for a section under a heading. */
  path: string;
  /** An excerpt of the section's text around the first match. */
  body: string;
}

export interface SearchPageHit {
  spaceId: string;
  revisionId: string;
  id: string;
  title: string;
  path: string;
  /** Score of the page's best section; results are ordered by it. */
  score: number;
  /** The page's best matching sections, best first. */
  sections: SearchSectionHit[];
}

export interface SearchSpaceHit {
  spaceId: string;
  pages: SearchPageHit[];
}

export interface SearchOptions {
  /** Spaces the caller may read; nothing outside them is ever returned. */
  spaceIds: readonly string[];
  /** Pages (for `search`) or spaces (for `searchBySpace`) to return: 1..1000, default 50. */
  limit?: number;
  /** Results to skip, for paging. */
  offset?: number;
  /** Sections shown per page, default 3. */
  sectionsPerPage?: number;
  /** Pages shown per space in `searchBySpace`, default 10. */
  pagesPerSpace?: number;
}

// Ranking, as MiniSearch's BM25+ with the tuning this module always used: titles weigh 3× body text;
// prefixes from 3 characters (search as you type); one typo in words of 5+ letters, two in words of
// 8+, and none in terms with digits (versions, codes), which are meant exactly. Terms of two characters
// in Korean, Chinese or Japanese (already a word there) match by prefix too, so 설치 finds 설치를 and 설치하기.
// A term of 5+ letters (2+ characters in those scripts) also matches inside longer words (compounds:
// anleitung finds installationsanleitung). Prefix, infix and fuzzy matches weigh less than exact ones,
// and less the further they are from the query term.
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const FIELD_BOOSTS = [3, 1]; // in FIELDS order: title, text
const PREFIX_WEIGHT = 0.4;
const INFIX_WEIGHT = 0.3;
const FUZZY_WEIGHT = 0.25;
const usesPrefix = (term: string) => term.length >= 3 || (term.length === 2 && isDense(term));
const typosAllowed = (term: string) => (term.length >= 5 && term.length <= FUZZY_MAX_LENGTH && /^\p{L}+$/u.test(term) ? Math.min(2, Math.round(term.length * 0.2)) : 0);

// Work per query is capped (issue 36: 512-character queries of 56 random words against a page of 90,000
// distinct words took 100-800 ms each, all of it on the event loop, so a few clients within the rate limit
// slowed every tenant). Typo lookups walk the whole term dictionary's tree and are the costly part.
/** Distinct query terms used (stop words left out); later ones are ignored. */
export const MAX_QUERY_TERMS = 32;
/** Query terms that get typo matching: the first ones that qualify (letters only, 5 to FUZZY_MAX_LENGTH long). */
export const MAX_FUZZY_TERMS = 4;
/**
 * A typo lookup's cost grows with the dictionary it walks: the terms that get one are fewer when the spaces
 * searched hold many distinct words together, so that terms × words stays within this (at least one term
 * always gets one; a space of 50,000 distinct words keeps all four).
 */
export const FUZZY_WORDS_BUDGET = 200_000;
/** Longer terms are matched exactly and by prefix only. */
export const FUZZY_MAX_LENGTH = 24;
/** Index words examined for one term's prefix matches, per space. */
export const MAX_PREFIX_CANDIDATES = 1000;
/** Query terms that get infix matching: the first ones that qualify. */
export const MAX_INFIX_TERMS = 8;
/** Words of the infix side index examined for one term (those of its rarest n-gram), per space. */
export const MAX_INFIX_CANDIDATES = 2000;
/** Prefix and typo variants kept per query term (the best weighted), besides the term itself. */
export const MAX_VARIANTS_PER_TERM = 64;

/** A word of the index that matches a query term (the term itself, a longer word it starts, or a near miss). */
interface Variant {
  term: string;
  weight: number;
  /** Its term number in each searched space, in `Plan.spaces` order. */
  ids: Array<number | undefined>;
  /** Per field, the sections holding it across the searched spaces (BM25's document frequency). */
  holders: number[];
}

/** A query prepared against the spaces searched: statistics are those of exactly these spaces. */
interface Plan {
  spaces: SpaceIndex[];
  /** The variants of each query term. */
  variants: Variant[][];
  sectionCount: number;
  averageFieldLengths: number[];
}

/** One space's sections scored for a query. */
interface ScoredSpace {
  space: SpaceIndex;
  order: number;
  /** Summed weighted BM25 of the matched variants, per section. */
  scores: Float64Array;
  /** How many of the query terms each section holds. */
  matched: Uint16Array;
}

interface RankedPage {
  scored: ScoredSpace;
  page: number;
  score: number;
}

/** The memory the spaces' indexes of one content node may use together before the least recently used go. */
export const DEFAULT_BUDGET_BYTES = 256 * 1024 * 1024;
/**
 * A space indexed or searched this recently is never evicted, whatever the budget: an organization search
 * indexes its stale spaces one after the other and then searches them all, and none may go in between.
 */
export const MIN_KEEP_MS = 60_000;

export interface SearchIndexOptions {
  budgetBytes?: number;
  minKeepMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * What one distinct word of a space costs in its term dictionary (minisearch's SearchableMap: a radix tree of
 * Maps and the word's pieces as strings), beyond its postings and side-index entries, which are counted apart.
 * Measured with `node --expose-gc bench/dist/search-memory.js` (2026-11-28, Node 22): 287 B per added distinct
 * word all told, of which the postings, the side index and the words' text account for about 40 B.
 */
export const BYTES_PER_TERM = 250;

/** Bytes of a string in V8's heap: one a character when every character is Latin-1, two otherwise. */
const stringBytes = (text: string): number => (/[^\u0000-\u00ff]/u.test(text) ? 2 : 1) * text.length;

/**
 * Roughly what a space's index holds in memory: its pages' text, postings, term dictionary and side index.
 * Within a quarter of the measured memory on content-large's corpus, with and without many distinct words
 * (bench/src/search-memory.ts).
 */
export function approximateBytes(space: SpaceIndex): number {
  let bytes = 0;
  for (const page of space.pages) bytes += stringBytes(page.markdown ?? "") + 2 * (page.title.length + page.path.length + page.id.length) + 64;
  for (const postings of space.postings) bytes += postings.start.byteLength + postings.sections.byteLength + postings.freqs.byteLength;
  bytes += space.firstSection.byteLength + space.sectionPage.byteLength + space.fieldLengths.reduce((sum, a) => sum + a.byteLength, 0);
  return bytes + space.termCount * BYTES_PER_TERM + infixBytes(space.infix);
}

interface Held {
  space: SpaceIndex;
  bytes: number;
  usedAt: number;
}

export class SearchIndex {
  /** In order of last use, least recent first. */
  private readonly spaces = new Map<string, Held>();
  private totalBytes = 0;
  private readonly budgetBytes: number;
  private readonly minKeepMs: number;
  private readonly now: () => number;

  constructor(options: SearchIndexOptions = {}) {
    this.budgetBytes = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.minKeepMs = options.minKeepMs ?? MIN_KEEP_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Replaces whatever was indexed for the space by the given revision's pages. Idempotent. Then evicts the
   * least recently used spaces while over the budget (an evicted space is built again on its next search).
   */
  indexRevision(spaceId: string, revisionId: string, pages: readonly PageInput[]): void {
    if (this.spaces.get(spaceId)?.space.revisionId === revisionId) return;
    this.hold(spaceId, SpaceIndex.build(spaceId, revisionId, pages));
  }

  /**
   * indexRevision, the index built in turns of the event loop (SpaceIndex.buildInTurns): the space keeps its
   * previous index for searches until the new one replaces it at once. The caller runs one build of a space
   * at a time (search-indexing.ts).
   */
  async indexRevisionInTurns(spaceId: string, revisionId: string, pages: readonly PageInput[], analyzeLarge?: AnalyzePages): Promise<void> {
    if (this.spaces.get(spaceId)?.space.revisionId === revisionId) return;
    this.hold(spaceId, await SpaceIndex.buildInTurns(spaceId, revisionId, pages, undefined, analyzeLarge));
  }

  private hold(spaceId: string, space: SpaceIndex): void {
    this.removeSpace(spaceId);
    const held = { space, bytes: approximateBytes(space), usedAt: this.now() };
    this.spaces.set(spaceId, held);
    this.totalBytes += held.bytes;
    this.evict();
  }

  private evict(): void {
    const keepAfter = this.now() - this.minKeepMs;
    for (const [spaceId, held] of this.spaces) {
      if (this.totalBytes <= this.budgetBytes || held.usedAt > keepAfter) return;
      this.removeSpace(spaceId);
    }
  }

  removeSpace(spaceId: string): void {
    const held = this.spaces.get(spaceId);
    if (!held) return;
    this.spaces.delete(spaceId);
    this.totalBytes -= held.bytes;
  }

  /** The revision indexed for a space, if any. */
  revisionOf(spaceId: string): string | undefined {
    return this.spaces.get(spaceId)?.space.revisionId;
  }

  /** The spaces held and the memory they take (approximately). */
  get usage(): { spaces: number; bytes: number } {
    return { spaces: this.spaces.size, bytes: this.totalBytes };
  }

  /** The indexes of the given spaces that are held, each marked as just used. */
  private use(spaceIds: readonly string[]): SpaceIndex[] {
    const now = this.now();
    const out: SpaceIndex[] = [];
    for (const id of new Set(spaceIds)) {
      const held = this.spaces.get(id);
      if (!held) continue;
      held.usedAt = now;
      this.spaces.delete(id);
      this.spaces.set(id, held);
      out.push(held.space);
    }
    return out;
  }

  /** Pages of the given spaces that match the query, best first. */
  search(query: string, options: SearchOptions): SearchPageHit[] {
    const limit = checkLimit(options.limit);
    const offset = checkOffset(options.offset);
    const match = this.match(checkQuery(query), options.spaceIds);
    if (!match) return [];
    const pages = match.scored.flatMap((scored) => topPages(scored, match.minMatched, offset + limit));
    return pages
      .sort(byRank)
      .slice(offset, offset + limit)
      .map((page) => presentHit(match.plan, page, match.minMatched, options.sectionsPerPage ?? 3));
  }

  /** Matching pages grouped by space (organization search), spaces ordered by their best page. */
  searchBySpace(query: string, options: SearchOptions): SearchSpaceHit[] {
    const limit = checkLimit(options.limit);
    const offset = checkOffset(options.offset);
    const match = this.match(checkQuery(query), options.spaceIds);
    if (!match) return [];
    const pagesPerSpace = options.pagesPerSpace ?? 10;
    return match.scored
      .map((scored) => topPages(scored, match.minMatched, pagesPerSpace).sort(byRank))
      .filter((pages) => pages.length > 0)
      .sort((a, b) => byRank(a[0], b[0]))
      .slice(offset, offset + limit)
      .map((pages) => ({
        spaceId: pages[0].scored.space.spaceId,
        pages: pages.map((page) => presentHit(match.plan, page, match.minMatched, options.sectionsPerPage ?? 3)),
      }));
  }

  /**
   * Scores every section of the given spaces. Sections holding every term of the query are the
   * matches; when no section holds them all, sections holding any term are (`minMatched` says which).
   */
  private match(query: string, spaceIds: readonly string[]): { plan: Plan; scored: ScoredSpace[]; minMatched: number } | undefined {
    const spaces = this.use(spaceIds);
    const terms = queryTerms(query).slice(0, MAX_QUERY_TERMS);
    if (spaces.length === 0 || terms.length === 0) return undefined;
    const plan = planQuery(terms, spaces);
    const scored = spaces.map((space, order) => scoreSpace(plan, space, order));
    const everyTerm = scored.some(({ matched }) => matched.includes(terms.length));
    return { plan, scored, minMatched: everyTerm ? terms.length : 1 };
  }
}

function planQuery(terms: string[], spaces: SpaceIndex[]): Plan {
  const sectionCount = spaces.reduce((sum, space) => sum + space.sectionCount, 0);
  const averageFieldLengths = FIELDS.map((_, f) => spaces.reduce((sum, space) => sum + space.totalFieldLengths[f], 0) / sectionCount || 1);
  const words = spaces.reduce((sum, space) => sum + space.termCount, 0);
  const fuzzyMax = Math.max(1, Math.min(MAX_FUZZY_TERMS, Math.floor(FUZZY_WORDS_BUDGET / Math.max(words, 1))));
  let fuzzyTerms = 0;
  let infixTerms = 0;
  const variants = terms.map((term) => {
    const weights = new Map<string, number>([[term, 1]]);
    const typos = fuzzyTerms < fuzzyMax ? typosAllowed(term) : 0;
    if (typos > 0) fuzzyTerms++;
    const infix = infixTerms < MAX_INFIX_TERMS && usesInfix(term);
    if (infix) infixTerms++;
    for (const space of spaces) {
      if (usesPrefix(term)) {
        let examined = 0;
        for (const [word] of space.terms.atPrefix(term)) {
          if (++examined > MAX_PREFIX_CANDIDATES) break;
          if (word !== term) weights.set(word, (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - term.length)));
        }
      }
      if (infix) {
        for (const word of wordsHolding(space.infix, term, MAX_INFIX_CANDIDATES)) {
          if (!weights.has(word)) weights.set(word, (INFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - term.length)));
        }
      }
      if (typos > 0) {
        for (const [word, [, distance]] of space.terms.fuzzyGet(term, typos)) {
          // A word that is also a longer form of the term counts as a prefix match.
          if (distance > 0 && !weights.has(word)) weights.set(word, (FUZZY_WEIGHT * word.length) / (word.length + distance));
        }
      }
    }
    // The term itself, then its best variants (ties in word order, so the cut never depends on the tree's).
    const kept = [...weights].sort(([a, wa], [b, wb]) => (a === term ? -1 : b === term ? 1 : wb - wa || (a < b ? -1 : a > b ? 1 : 0))).slice(0, MAX_VARIANTS_PER_TERM + 1);
    return kept.map(([word, weight]): Variant => {
      const ids = spaces.map((space) => space.terms.get(word));
      const holders = FIELDS.map((_, f) =>
        spaces.reduce((sum, space, i) => {
          const t = ids[i];
          return t === undefined ? sum : sum + space.postings[f].start[t + 1] - space.postings[f].start[t];
        }, 0),
      );
      return { term: word, weight, ids, holders };
    });
  });
  return { spaces, variants, sectionCount, averageFieldLengths };
}

/** BM25+ of every section of one space for the plan's variants (the hot loop: typed arrays only). */
function scoreSpace(plan: Plan, space: SpaceIndex, order: number): ScoredSpace {
  const scores = new Float64Array(space.sectionCount);
  const matched = new Uint16Array(space.sectionCount);
  const lastTerm = new Int32Array(space.sectionCount).fill(-1);
  const { k, b, d } = BM25;
  plan.variants.forEach((variants, q) => {
    for (const variant of variants) {
      const t = variant.ids[order];
      if (t === undefined) continue;
      for (let f = 0; f < FIELDS.length; f++) {
        const { start, sections, freqs } = space.postings[f];
        const lengths = space.fieldLengths[f];
        const holders = variant.holders[f];
        const idf = Math.log(1 + (plan.sectionCount - holders + 0.5) / (holders + 0.5));
        const factor = variant.weight * FIELD_BOOSTS[f] * idf;
        const lengthFactor = (k * b) / plan.averageFieldLengths[f];
        for (let i = start[t], end = start[t + 1]; i < end; i++) {
          const s = sections[i];
          const tf = freqs[i];
          scores[s] += factor * (d + (tf * (k + 1)) / (tf + k * (1 - b) + lengthFactor * lengths[s]));
          if (lastTerm[s] !== q) {
            lastTerm[s] = q;
            matched[s]++;
          }
        }
      }
    }
  });
  // As MiniSearch: a section's score grows with how many of the query terms it holds.
  for (let s = 0; s < scores.length; s++) scores[s] *= matched[s];
  return { space, order, scores, matched };
}

/** Best first; equal scores in the order of the spaces asked for, then of the pages in the revision. */
function byRank(a: RankedPage, b: RankedPage): number {
  return b.score - a.score || a.scored.order - b.scored.order || a.page - b.page;
}

/**
 * The `count` best pages of a scored space, each ranked by its best matching section (in no
 * particular order). A heap keeps the worst page kept on top, so a broad query costs no sort of
 * every matching page.
 */
function topPages(scored: ScoredSpace, minMatched: number, count: number): RankedPage[] {
  const { space, scores, matched } = scored;
  const heap: RankedPage[] = [];
  for (let page = 0; page < space.pages.length; page++) {
    let score = 0;
    for (let s = space.firstSection[page], end = space.firstSection[page + 1]; s < end; s++) {
      if (matched[s] >= minMatched && scores[s] > score) score = scores[s];
    }
    if (score === 0) continue;
    if (heap.length < count) {
      heap.push({ scored, page, score });
      siftUp(heap, heap.length - 1);
    } else if (byRank({ scored, page, score }, heap[0]) < 0) {
      heap[0] = { scored, page, score };
      siftDown(heap, 0);
    }
  }
  return heap;
}

function siftUp(heap: RankedPage[], at: number): void {
  for (let i = at; i > 0; ) {
    const parent = (i - 1) >> 1;
    if (byRank(heap[parent], heap[i]) >= 0) return;
    [heap[parent], heap[i]] = [heap[i], heap[parent]];
    i = parent;
  }
}

function siftDown(heap: RankedPage[], at: number): void {
  for (let i = at; ; ) {
    let worst = i;
    for (const child of [2 * i + 1, 2 * i + 2]) {
      if (child < heap.length && byRank(heap[child], heap[worst]) > 0) worst = child;
    }
    if (worst === i) return;
    [heap[worst], heap[i]] = [heap[i], heap[worst]];
    i = worst;
  }
}

/** A ranked page with its best matching sections and their excerpts (only the pages returned get here). */
function presentHit(plan: Plan, ranked: RankedPage, minMatched: number, sectionsPerPage: number): SearchPageHit {
  const { space, order, scores, matched } = ranked.scored;
  const page = space.pages[ranked.page];
  const first = space.firstSection[ranked.page];
  const hits: number[] = [];
  for (let s = first; s < space.firstSection[ranked.page + 1]; s++) if (matched[s] >= minMatched) hits.push(s);
  hits.sort((a, b) => scores[b] - scores[a] || a - b);
  const sections = space.sectionsOf(ranked.page);
  return {
    spaceId: space.spaceId,
    revisionId: space.revisionId,
    id: page.id,
    title: page.title,
    path: page.path,
    score: ranked.score,
    sections: hits.slice(0, sectionsPerPage).map((s) => {
      const section = sections[s - first];
      // The words of the index this section matched, to find where the excerpt starts.
      const words = plan.variants.flat().filter(({ ids }) => ids[order] !== undefined && space.holds(ids[order], s));
      return {
        id: section.anchor || page.id,
        title: section.title,
        path: section.anchor ? `${page.path}#${section.anchor}` : page.path,
        body: excerpt(section.text, words.map(({ term }) => term)),
      };
    }),
  };
}
