// One space's indexed revision as a compact inverted index: postings in typed arrays, no section text.
import SearchableMap from "minisearch/SearchableMap";
import { splitIntoSections, type PageInput, type Section } from "./sections";
import { processTerm } from "./stop-words";

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
    const seen = new Set<string>();
    const pages = input.filter((page) => !seen.has(page.id) && seen.add(page.id));
    // A plain map while building (the searchable one is slower to fill), term → term number.
    const termIds = new Map<string, number>();
    // Per field, per term number: flat [section, frequency, section, frequency, …] while building.
    const building: number[][][] = FIELDS.map(() => []);
    const fieldLengths: number[][] = FIELDS.map(() => []);
    const firstSection = new Uint32Array(pages.length + 1);
    const sectionPage: number[] = [];
    const counts = new Map<string, number>();
    const words = new Set<string>();
    pages.forEach((page, p) => {
      firstSection[p] = sectionPage.length;
      for (const section of splitIntoSections(page)) {
        const s = sectionPage.length;
        sectionPage.push(p);
        FIELDS.forEach((field, f) => {
          counts.clear();
          words.clear();
          for (const token of wordsOf(section[field])) {
            words.add(token);
            const term = processTerm(token);
            if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
          }
          fieldLengths[f].push(words.size);
          for (const [term, count] of counts) {
            let t = termIds.get(term);
            if (t === undefined) termIds.set(term, (t = termIds.size));
            (building[f][t] ??= []).push(s, count);
          }
        });
      }
    });
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
    );
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
