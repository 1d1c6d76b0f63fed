// One space's indexed revision as a compact inverted index: postings in typed arrays, no section text.
import SearchableMap from "minisearch/SearchableMap";
import { splitIntoSections, type PageInput, type Section } from "./sections";
import { processTerm } from "./stop-words";

/** Markdown indexed per turn of the event loop by SpaceIndex.buildInTurns. */
export const BUILD_TURN_CHARS = 256 * 1024;

/**
 * A page of this much Markdown or more is analysed by buildInTurns' `analyzeLarge` (a worker thread or process)
 * when it is given: its parse alone (markdown-it, then the words) holds a thread about 2 s per MiB, too long for
 * one turn of the event loop that answers requests.
 */
export const LARGE_PAGE_CHARS = 32 * 1024;

/** One section of a page as the index counts it: per field (FIELDS), its distinct words' count and its terms with their frequencies. */
export interface AnalyzedSection {
  lengths: number[];
  terms: string[][];
  counts: number[][];
}

/** Analyses pages (analyzeSections of each), somewhere else than this thread: its answer is copied back. */
export type AnalyzePages = (pages: PageInput[]) => Promise<AnalyzedSection[][]>;

/** A page's sections, each split into the terms the index counts (what buildInTurns' `analyzeLarge` answers per page). */
export function analyzeSections(page: PageInput): AnalyzedSection[] {
  const counts = new Map<string, number>();
  const words = new Set<string>();
  return splitIntoSections(page).map((section) => {
    const out: AnalyzedSection = { lengths: [], terms: [], counts: [] };
    for (const field of FIELDS) {
      counts.clear();
      words.clear();
      for (const token of wordsOf(section[field])) {
        words.add(token);
        const term = processTerm(token);
        if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
      out.lengths.push(words.size);
      out.terms.push([...counts.keys()]);
      out.counts.push([...counts.values()]);
    }
    return out;
  });
}

/** Word separators, as MiniSearch's default tokenizer: Unicode spaces, line breaks, punctuation. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;

/** Scripts written without spaces between words: their runs are split into words by Intl.Segmenter. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let segmenter: Intl.Segmenter | undefined;

/**
 * The words of a text: split at spaces and punctuation, then each piece holding Chinese, Japanese, Thai, Lao,
 * Khmer or Burmese split again into words by ICU's dictionaries (Intl.Segmenter), so that 网关 or インストール
 * is a word of a page written without spaces. The index and the queries split the same way. Pieces in other
 * scripts (most) skip the segmenter, which is several times slower than the split.
 */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(SPACE_OR_PUNCTUATION)) {
    if (!token) continue;
    if (!UNSPACED.test(token)) {
      out.push(token);
      continue;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
    for (const piece of segmenter.segment(token)) if (piece.isWordLike) out.push(piece.segment);
  }
  return out;
}

/**
 * Scripts of thousands of letters, a syllable or a word per character (Korean Hangul, Chinese, Japanese): a
 * term of two characters is already a word there, so such terms get prefix and infix matching, and their
 * side-index keys are character bigrams (trigrams elsewhere).
 */
const DENSE = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export const isDense = (term: string): boolean => DENSE.test(term);

/** Letters (and their combining marks) only: numbers, versions and codes are never matched inside words. */
const LETTERS = /^[\p{L}\p{M}]+$/u;

/**
 * The shortest query term matched inside a longer word of the index (Installationsanleitung for anleitung,
 * 게이트웨이설치 for 설치): two characters of a dense script, five letters elsewhere, so that a short query
 * (an, ung, tion) finds only words, never pieces of them.
 */
export function infixMinLength(term: string): number {
  return isDense(term) ? 2 : 5;
}

/** Whether a query term is looked for inside longer words. */
export const usesInfix = (term: string): boolean => term.length >= infixMinLength(term) && LETTERS.test(term);

/** The distinct n-grams of a term, as the infix side index keys them (trigrams; bigrams in dense scripts). */
function gramsOf(term: string): Set<string> {
  const n = isDense(term) ? 2 : 3;
  const grams = new Set<string>();
  for (let i = 0; i + n <= term.length; i++) grams.add(term.slice(i, i + n));
  return grams;
}

/**
 * The side index for matching a query term inside longer words (German and Dutch compounds, Korean
 * compounds, words with particles): the words of the dictionary that could hold a shorter term, in one
 * string, and for each n-gram the words holding it. It is built from the term dictionary, not the text, so it
 * grows with the distinct words of a space (a fraction of its postings), and it counts toward the budget.
 */
export interface InfixIndex {
  /** The words, each followed by a NUL: word w is `text.slice(start[w], start[w + 1] - 1)`. */
  text: string;
  /** Bytes per character of `text`: 1 when it is all Latin-1 (V8 then stores it one byte a character), else 2. */
  charBytes: 1 | 2;
  start: Uint32Array;
  /** N-gram → its number; the words holding gram g are `words[gramStart[g] .. gramStart[g + 1])`. */
  grams: Map<string, number>;
  gramStart: Uint32Array;
  words: Uint32Array;
}

function buildInfix(terms: Iterable<string>): InfixIndex {
  const kept: string[] = [];
  const gramIds = new Map<string, number>();
  const lists: number[][] = [];
  for (const term of terms) {
    if (term.length <= infixMinLength(term) || !LETTERS.test(term)) continue;
    const w = kept.length;
    kept.push(term);
    const n = isDense(term) ? 2 : 3;
    for (let i = 0; i + n <= term.length; i++) {
      const gram = term.slice(i, i + n);
      let g = gramIds.get(gram);
      if (g === undefined) {
        gramIds.set(gram, (g = gramIds.size));
        lists.push([]);
      }
      // A gram twice in one word lists the word once (the word's entries are the list's last).
      const list = lists[g];
      if (list[list.length - 1] !== w) list.push(w);
    }
  }
  const start = new Uint32Array(kept.length + 1);
  let at = 0;
  kept.forEach((word, w) => {
    start[w] = at;
    at += word.length + 1;
  });
  start[kept.length] = at;
  const gramStart = new Uint32Array(lists.length + 1);
  let total = 0;
  lists.forEach((list, g) => {
    gramStart[g] = total;
    total += list.length;
  });
  gramStart[lists.length] = total;
  const words = new Uint32Array(total);
  lists.forEach((list, g) => words.set(list, gramStart[g]));
  // One flat string: joining copies the words out of any larger text they were sliced from.
  const text = [...kept, ""].join("\0");
  return { text, charBytes: /[^\u0000-\u00ff]/u.test(text) ? 2 : 1, start, grams: gramIds, gramStart, words };
}

/** How many bytes an infix side index holds, roughly. */
export function infixBytes(infix: InfixIndex): number {
  return infix.charBytes * infix.text.length + infix.start.byteLength + infix.gramStart.byteLength + infix.words.byteLength + infix.grams.size * 64;
}

/**
 * The words of the index that hold `term` inside them (not at their start: prefixes are found by the term
 * dictionary), from the words of the term's rarest n-gram, at most `maxExamined` of them.
 */
export function wordsHolding(infix: InfixIndex, term: string, maxExamined: number): string[] {
  let best: number | undefined;
  for (const gram of gramsOf(term)) {
    const g = infix.grams.get(gram);
    if (g === undefined) return [];
    if (best === undefined || infix.gramStart[g + 1] - infix.gramStart[g] < infix.gramStart[best + 1] - infix.gramStart[best]) best = g;
  }
  if (best === undefined) return [];
  const out: string[] = [];
  const { text, start, words, gramStart } = infix;
  for (let i = gramStart[best], end = Math.min(gramStart[best + 1], gramStart[best] + maxExamined); i < end; i++) {
    const w = words[i];
    const from = start[w];
    const last = start[w + 1] - 1 - term.length;
    for (let at = from + 1; at <= last; at++) {
      if (text.startsWith(term, at)) {
        out.push(text.slice(from, start[w + 1] - 1));
        break;
      }
    }
  }
  return out;
}

/** How many pages' split sections one space's index keeps for excerpts (a few hundred KB of text at most). */
const SECTIONS_KEPT = 200;

/** The indexed fields of a section; the position is the field's number in `SpaceIndex.postings`. */
export const FIELDS = ["title", "text"] as const;

/** The distinct terms of a query, in order, stop words left out. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const token of wordsOf(query)) {
    const term = processTerm(token);
    if (term) terms.add(term);
  }
  return [...terms];
}

/**
 * The sections holding each term in one field, in section order: term t is in sections
 * `sections[start[t] .. start[t + 1])`, `freqs` times each.
 */
export interface Postings {
  start: Uint32Array;
  sections: Uint32Array;
  freqs: Uint16Array;
}

/** A page's sections are numbered consecutively, in page order: page p has `firstSection[p] .. firstSection[p + 1]`. */
export class SpaceIndex {
  private constructor(
    readonly spaceId: string,
    readonly revisionId: string,
    /** The pages as given, markdown included (the store's own strings, not copies); excerpts are cut from it. */
    readonly pages: readonly PageInput[],
    readonly firstSection: Uint32Array,
    /** The page of each section. */
    readonly sectionPage: Uint32Array,
    /** Per field, the number of distinct words of each section (BM25's field length), and their sum. */
    readonly fieldLengths: readonly Uint32Array[],
    readonly totalFieldLengths: readonly number[],
    /** Term → term number, searchable by prefix and edit distance. */
    readonly terms: SearchableMap<number>,
    readonly postings: readonly Postings[],
    /** Words of the dictionary by their n-grams, for matching a query term inside a longer word. */
    readonly infix: InfixIndex,
  ) {}

  get sectionCount(): number {
    return this.sectionPage.length;
  }

  /** Distinct words of the space (the size of its term dictionary). */
  get termCount(): number {
    return this.postings[0].start.length - 1;
  }

  /** Indexes the pages of a revision; a page id seen twice keeps its first page. */
  static build(spaceId: string, revisionId: string, input: readonly PageInput[]): SpaceIndex {
    const building = SpaceIndex.builder(spaceId, revisionId, input);
    for (let p = 0; p < building.pages.length; p++) building.add(p);
    return building.finish();
  }

  /**
   * build, giving the event loop a turn (setImmediate) after each `turnChars` of Markdown indexed, so a
   * large space (an import's megabytes) never holds the process for the whole build: at most one page's
   * splitting and the final packing at a time. With `analyzeLarge`, a page of LARGE_PAGE_CHARS or more is
   * split and its words counted there (a worker), and only its terms are added here, in turns too: one large
   * page never holds the event loop for its parse. The same index as build.
   */
  static async buildInTurns(spaceId: string, revisionId: string, input: readonly PageInput[], turnChars = BUILD_TURN_CHARS, analyzeLarge?: AnalyzePages): Promise<SpaceIndex> {
    const building = SpaceIndex.builder(spaceId, revisionId, input);
    let weight = 0;
    for (let p = 0; p < building.pages.length; p++) {
      const page = building.pages[p];
      if (analyzeLarge && page.markdown.length >= LARGE_PAGE_CHARS) {
        // Parsed elsewhere (a worker): here only its terms are counted in, in turns of sections.
        const sections = (await analyzeLarge([page]))[0];
        await building.addAnalyzedInTurns(p, sections, turnChars);
        weight = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      building.add(p);
      weight += page.markdown.length + 1024;
      if (weight >= turnChars) {
        weight = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return building.finish();
  }

  private static builder(
    spaceId: string,
    revisionId: string,
    input: readonly PageInput[],
  ): { pages: PageInput[]; add(p: number): void; addAnalyzedInTurns(p: number, sections: AnalyzedSection[], turnChars: number): Promise<void>; finish(): SpaceIndex } {
    const seen = new Set<string>();
    const pages = input.filter((page) => !seen.has(page.id) && seen.add(page.id));
    // A plain map while building (the searchable one is slower to fill), term → term number.
    const termIds = new Map<string, number>();
    // Per field, per term number: flat [section, frequency, section, frequency, …] while building.
    const building: number[][][] = FIELDS.map(() => []);
    const fieldLengths: number[][] = FIELDS.map(() => []);
    const firstSection = new Uint32Array(pages.length + 1);
    const sectionPage: number[] = [];
    const addSection = (p: number, section: AnalyzedSection) => {
      const s = sectionPage.length;
      sectionPage.push(p);
      FIELDS.forEach((_field, f) => {
        fieldLengths[f].push(section.lengths[f]);
        const terms = section.terms[f];
        const counts = section.counts[f];
        for (let i = 0; i < terms.length; i++) {
          let t = termIds.get(terms[i]);
          if (t === undefined) termIds.set(terms[i], (t = termIds.size));
          (building[f][t] ??= []).push(s, counts[i]);
        }
      });
    };
    const add = (p: number) => {
      firstSection[p] = sectionPage.length;
      for (const section of analyzeSections(pages[p])) addSection(p, section);
    };
    const addAnalyzedInTurns = async (p: number, sections: AnalyzedSection[], turnChars: number) => {
      firstSection[p] = sectionPage.length;
      // A term counts about as much work as 8 characters of Markdown analysed here would.
      let weight = 0;
      for (const section of sections) {
        addSection(p, section);
        weight += 8 * (section.terms[0].length + section.terms[1].length) + 64;
        if (weight >= turnChars) {
          weight = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    };
    const finish = () => {
      firstSection[pages.length] = sectionPage.length;
      const postings = building.map((byTerm) => packPostings(byTerm, termIds.size));
      return new SpaceIndex(
        spaceId,
        revisionId,
        pages,
        firstSection,
        Uint32Array.from(sectionPage),
        fieldLengths.map((lengths) => Uint32Array.from(lengths)),
        fieldLengths.map((lengths) => lengths.reduce((sum, n) => sum + n, 0)),
        SearchableMap.from(termIds),
        postings,
        buildInfix(termIds.keys()),
      );
    };
    return { pages, add, addAnalyzedInTurns, finish };
  }

  /** Whether section `s` holds term number `t` in any field (binary search in the postings). */
  holds(t: number, s: number): boolean {
    return this.postings.some(({ start, sections }) => {
      let lo = start[t];
      let hi = start[t + 1];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sections[mid] < s) lo = mid + 1;
        else hi = mid;
      }
      return lo < start[t + 1] && sections[lo] === s;
    });
  }

  /** Pages whose sections were split again lately, newest last (see `sectionsOf`). */
  private readonly recentSections = new Map<number, Section[]>();

  /**
   * The sections of page p, split again from its markdown (the same split as when indexed). The last
   * SECTIONS_KEPT pages asked for keep their split: queries that return the same pages again (most of
   * them, on a small space) do not pay for the split each time, and the index stays without its text.
   */
  sectionsOf(p: number): Section[] {
    const kept = this.recentSections.get(p);
    if (kept) {
      this.recentSections.delete(p);
      this.recentSections.set(p, kept);
      return kept;
    }
    const sections = splitIntoSections(this.pages[p]);
    this.recentSections.set(p, sections);
    if (this.recentSections.size > SECTIONS_KEPT) this.recentSections.delete(this.recentSections.keys().next().value as number);
    return sections;
  }
}

function packPostings(byTerm: number[][], termCount: number): Postings {
  const start = new Uint32Array(termCount + 1);
  let total = 0;
  for (let t = 0; t < termCount; t++) {
    start[t] = total;
    total += (byTerm[t]?.length ?? 0) / 2;
  }
  start[termCount] = total;
  const sections = new Uint32Array(total);
  const freqs = new Uint16Array(total);
  for (let t = 0; t < termCount; t++) {
    const list = byTerm[t];
    if (!list) continue;
    for (let i = 0, at = start[t]; i < list.length; i += 2, at++) {
      sections[at] = list[i];
      freqs[at] = Math.min(list[i + 1], 0xffff);
    }
  }
  return { start, sections, freqs };
}
