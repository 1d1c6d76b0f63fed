// The work one query may cost is capped (issue 36, finding 5): counted in lookups, not timed.
import SearchableMap from "minisearch/SearchableMap";
import {
  FUZZY_MAX_LENGTH,
  FUZZY_WORDS_BUDGET,
  MAX_FUZZY_TERMS,
  MAX_INFIX_CANDIDATES,
  MAX_INFIX_TERMS,
  MAX_QUERY_TERMS,
  MAX_VARIANTS_PER_TERM,
  SearchIndex,
} from "./search-index";

// xorshift32: reproducible, and no repeats in the few hundred thousand words drawn here.
let seed = 2463534242;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const word = (length: number) => Array.from({ length }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join("");

describe("SearchIndex work per query", () => {
  afterEach(() => jest.restoreAllMocks());

  test("the issue's shape: 512-character queries of 56 random words against a page of 90,000 distinct words do bounded lookups", () => {
    const words = Array.from({ length: 90_000 }, () => word(8));
    const index = new SearchIndex();
    index.indexRevision("s", "r", [
      { id: "big", title: "Big", path: "big", markdown: words.join(" ") },
      { id: "small", title: "Small", path: "small", markdown: `The ${words[5]} page.` },
    ]);
    const fuzzy = jest.spyOn(SearchableMap.prototype, "fuzzyGet");
    const prefix = jest.spyOn(SearchableMap.prototype, "atPrefix");
    for (let n = 0; n < 10; n++) {
      let query = `${words[5]} `;
      while (query.length + 9 <= 512) query += `${word(8)} `;
      expect(query.trim().split(" ")).toHaveLength(56);
      fuzzy.mockClear();
      prefix.mockClear();
      const results = index.search(query, { spaceIds: ["s"] });
      // Only the first MAX_QUERY_TERMS terms are looked up, and with 90,000 words in the dictionary only
      // FUZZY_WORDS_BUDGET / 90,000 of them with typos.
      expect(prefix.mock.calls.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      expect(fuzzy.mock.calls.length).toBe(Math.floor(FUZZY_WORDS_BUDGET / 90_002));
      expect(results.map((r) => r.id)).toEqual(expect.arrayContaining(["big", "small"]));
    }
  });

  test("only the first MAX_QUERY_TERMS distinct terms count", () => {
    const index = new SearchIndex();
    index.indexRevision("s", "r", [{ id: "p", title: "P", path: "p", markdown: "zzzlast" }]);
    const filler = Array.from({ length: MAX_QUERY_TERMS }, (_, i) => `w${i}`).join(" ");
    expect(index.search(`zzzlast ${filler}`, { spaceIds: ["s"] })).toHaveLength(1);
    expect(index.search(`${filler} zzzlast`, { spaceIds: ["s"] })).toHaveLength(0);
  });

  test("typos are forgiven in the first MAX_FUZZY_TERMS terms that qualify, and never in very long ones", () => {
    const index = new SearchIndex();
    const long = "a".repeat(FUZZY_MAX_LENGTH) + "b";
    index.indexRevision("s", "r", [
      { id: "deploy", title: "Deployment", path: "deploy", markdown: "Deployment steps." },
      { id: "long", title: "Long", path: "long", markdown: long },
    ]);
    const others = Array.from({ length: MAX_FUZZY_TERMS }, (_, i) => `qqqqq${String.fromCharCode(97 + i)}`).join(" ");
    expect(index.search(`deploymnet ${others}`, { spaceIds: ["s"] }).map((r) => r.id)).toEqual(["deploy"]);
    expect(index.search(`${others} deploymnet`, { spaceIds: ["s"] })).toEqual([]);
    expect(index.search("a".repeat(FUZZY_MAX_LENGTH - 1) + "bb", { spaceIds: ["s"] })).toEqual([]);
    expect(index.search(long, { spaceIds: ["s"] }).map((r) => r.id)).toEqual(["long"]);
  });

  test("a prefix keeps its MAX_VARIANTS_PER_TERM best words (the shortest), examining a bounded number", () => {
    const index = new SearchIndex();
    const pages = Array.from({ length: 3000 }, (_, i) => ({ id: `p${i}`, title: `T${i}`, path: `p${i}`, markdown: `conf${"x".repeat(i % 40)}${word(4)}` }));
    index.indexRevision("s", "r", pages);
    const results = index.search("conf", { spaceIds: ["s"], limit: 1000 });
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(MAX_VARIANTS_PER_TERM);
    // The kept variants are the shortest words (prefix matches weigh more the closer they are to the term).
    for (const hit of results) expect(Number(hit.id.slice(1)) % 40).toBeLessThan(3);
  });

  test("matching inside words goes to the first MAX_INFIX_TERMS qualifying terms only", () => {
    const names = ["alpha", "bravo", "charlie", "delta", "gecko", "foxtrot", "golfer", "hotel", "india"];
    expect(names).toHaveLength(MAX_INFIX_TERMS + 1);
    const index = new SearchIndex();
    index.indexRevision("s", "r", names.map((name) => ({ id: name, title: "T", path: name, markdown: `zz${name}` })));
    const found = index.search(names.join(" "), { spaceIds: ["s"], limit: 100 }).map((hit) => hit.id);
    expect(found.sort()).toEqual(names.slice(0, MAX_INFIX_TERMS).sort());
  });

  test("a term matched inside words examines at most MAX_INFIX_CANDIDATES words of the side index", () => {
    // Every word holds every trigram of "target": its rarest trigram lists them all, in dictionary order. The
    // last word would be the best kept variant (same length, first in word order), but it is not examined.
    const letters = (i: number) => [0, 1, 2].map((k) => String.fromCharCode(97 + (Math.floor(i / 26 ** k) % 26))).join("");
    const count = MAX_INFIX_CANDIDATES + 500;
    const pages = Array.from({ length: count }, (_, i) => ({ id: `p${i}`, title: "T", path: `p${i}`, markdown: `qz${letters(i)}target` }));
    pages.push({ id: "last", title: "T", path: "last", markdown: "qaaaatarget" });
    const index = new SearchIndex();
    index.indexRevision("s", "r", pages);
    const found = index.search("target", { spaceIds: ["s"], limit: 1000 }).map((hit) => hit.id);
    expect(found).toHaveLength(MAX_VARIANTS_PER_TERM);
    expect(found).not.toContain("last");
    for (const id of found) expect(Number(id.slice(1))).toBeLessThan(MAX_INFIX_CANDIDATES);
    // …and is there: found first by its own word.
    expect(index.search("qaaaatarget", { spaceIds: ["s"] })[0].id).toBe("last");
  });
});
