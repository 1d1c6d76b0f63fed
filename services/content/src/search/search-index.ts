// The embedded full-text index over the pages of each space's indexed revision.
import MiniSearch from "minisearch";
import { checkLimit, checkOffset, checkQuery } from "./query";
import { excerpt } from "./excerpt";
import { splitIntoSections, type PageInput } from "./sections";
import { processTerm } from "./stop-words";

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

interface SectionDoc {
  id: string;
  spaceId: string;
  revisionId: string;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  anchor: string;
  title: string;
  text: string;
}

interface RankedPage {
  first: SectionDoc;
  score: number;
  sections: Array<{ doc: SectionDoc; terms: string[] }>;
}

function presentHit(page: RankedPage): SearchPageHit {
  const { first } = page;
  return {
    spaceId: first.spaceId,
    revisionId: first.revisionId,
    id: first.pageId,
    title: first.pageTitle,
    path: first.pagePath,
    score: page.score,
    sections: page.sections.map(({ doc, terms }) => ({
      id: doc.anchor || doc.pageId,
      title: doc.title,
      path: doc.anchor ? `${doc.pagePath}#${doc.anchor}` : doc.pagePath,
      body: excerpt(doc.text, terms),
    })),
  };
}

const SEARCH_TUNING = {
  boost: { title: 3 },
  // Modest: prefixes from 3 characters (search as you type); one typo in words of 5+ letters, two
  // in words of 8+, and none in terms with digits (versions, codes), which are meant exactly.
  prefix: (term: string) => term.length >= 3,
  fuzzy: (term: string) => (term.length >= 5 && /^\p{L}+$/u.test(term) ? 0.2 : false),
  maxFuzzy: 2,
  weights: { prefix: 0.4, fuzzy: 0.25 },
} as const;

export class SearchIndex {
  private readonly engine = new MiniSearch<SectionDoc>({ idField: "id", fields: ["title", "text"], storeFields: [], processTerm });
  private readonly docs = new Map<string, SectionDoc>();
  private readonly spaces = new Map<string, { revisionId: string; docIds: string[] }>();

  /** Replaces whatever was indexed for the space by the given revision's pages. Idempotent. */
  indexRevision(spaceId: string, revisionId: string, pages: readonly PageInput[]): void {
    if (this.spaces.get(spaceId)?.revisionId === revisionId) return;
    const docs = this.sectionDocs(spaceId, revisionId, pages);
    this.removeSpace(spaceId);
    this.engine.addAll(docs);
    for (const doc of docs) this.docs.set(doc.id, doc);
    this.spaces.set(spaceId, { revisionId, docIds: docs.map((d) => d.id) });
  }

  removeSpace(spaceId: string): void {
    const indexed = this.spaces.get(spaceId);
    if (!indexed) return;
    for (const id of indexed.docIds) {
      const doc = this.docs.get(id);
      if (doc) this.engine.remove(doc);
      this.docs.delete(id);
    }
    this.spaces.delete(spaceId);
  }

  /** The revision indexed for a space, if any. */
  revisionOf(spaceId: string): string | undefined {
    return this.spaces.get(spaceId)?.revisionId;
  }

  /** Pages of the given spaces that match the query, best first. */
  search(query: string, options: SearchOptions): SearchPageHit[] {
    const limit = checkLimit(options.limit);
    const offset = checkOffset(options.offset);
    return this.rankPages(checkQuery(query), options).slice(offset, offset + limit).map(presentHit);
  }

  /** Matching pages grouped by space (organization search), spaces ordered by their best page. */
  searchBySpace(query: string, options: SearchOptions): SearchSpaceHit[] {
    const limit = checkLimit(options.limit);
    const offset = checkOffset(options.offset);
    const pagesPerSpace = options.pagesPerSpace ?? 10;
    const bySpace = new Map<string, RankedPage[]>();
    for (const page of this.rankPages(checkQuery(query), options)) {
      const pages = bySpace.get(page.first.spaceId) ?? [];
      if (pages.length < pagesPerSpace) pages.push(page);
      bySpace.set(page.first.spaceId, pages);
    }
    return [...bySpace]
      .slice(offset, offset + limit)
      .map(([spaceId, pages]) => ({ spaceId, pages: pages.map(presentHit) }));
  }

  /** Section hits grouped by page, best page first; excerpts are left for the pages returned. */
  private rankPages(query: string, options: SearchOptions): RankedPage[] {
    const allowed = new Set(options.spaceIds);
    if (allowed.size === 0) return [];
    const sectionsPerPage = options.sectionsPerPage ?? 3;
    // A falsy boost drops a document while scoring, so other spaces never even reach the results.
    const boostDocument = (id: string) => (allowed.has(this.docs.get(id)?.spaceId ?? "") ? 1 : 0);
    let results = this.engine.search(query, { ...SEARCH_TUNING, boostDocument, combineWith: "AND" });
    // Every word in one section is best; otherwise sections with any of the words.
    if (results.length === 0) results = this.engine.search(query, { ...SEARCH_TUNING, boostDocument, combineWith: "OR" });

    const pages = new Map<string, RankedPage>();
    for (const result of results) {
      const doc = this.docs.get(result.id as string);
      if (!doc) continue;
      const key = `${doc.spaceId}\u0000${doc.pageId}`;
      let page = pages.get(key);
      if (!page) {
        page = { first: doc, score: result.score, sections: [] };
        pages.set(key, page);
      }
      if (page.sections.length < sectionsPerPage) page.sections.push({ doc, terms: [...result.terms, ...result.queryTerms] });
    }
    return [...pages.values()];
  }

  private sectionDocs(spaceId: string, revisionId: string, pages: readonly PageInput[]): SectionDoc[] {
    const docs: SectionDoc[] = [];
    const seenPages = new Set<string>();
    for (const page of pages) {
      if (seenPages.has(page.id)) continue; // a page id appears once per revision; keep the first
      seenPages.add(page.id);
      for (const section of splitIntoSections(page)) {
        docs.push({
          id: `${spaceId}/${page.id}#${section.anchor}`,
          spaceId,
          revisionId,
          pageId: page.id,
          pageTitle: page.title,
          pagePath: page.path,
          anchor: section.anchor,
          title: section.title,
          text: section.text,
        });
      }
    }
    return docs;
  }
}
