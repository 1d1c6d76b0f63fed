// The spaces' indexes share a memory budget: the least recently used go first, and none used lately.
import { approximateBytes, BYTES_PER_TERM, SearchIndex, type PageInput } from "./search-index";
import { SpaceIndex } from "./space-index";

function pagesOf(space: string, n = 20): PageInput[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${space}-${i}`, title: `Page ${i} of ${space}`, path: `p${i}`, markdown: `The ${space} word${i} appears here, with gateway text. `.repeat(20) }));
}

describe("search index memory budget", () => {
  const oneSpace = approximateBytes(SpaceIndex.build("a", "r1", pagesOf("a")));
  let now = 0;
  const clock = () => now;

  test("over the budget, the least recently used space is evicted, and a later index of it comes back", () => {
    now = 0;
    const index = new SearchIndex({ budgetBytes: oneSpace * 2.5, minKeepMs: 1000, now: clock });
    index.indexRevision("a", "r1", pagesOf("a"));
    now += 10;
    index.indexRevision("b", "r1", pagesOf("b"));
    now += 5000;
    // "a" searched: "b" is now the least recently used.
    expect(index.search("gateway", { spaceIds: ["a"] }).length).toBeGreaterThan(0);
    now += 10;
    index.indexRevision("c", "r1", pagesOf("c"));
    expect([index.revisionOf("a"), index.revisionOf("b"), index.revisionOf("c")]).toEqual(["r1", undefined, "r1"]);
    expect(index.usage.spaces).toBe(2);
    expect(index.usage.bytes).toBeLessThanOrEqual(oneSpace * 2.5);
    expect(index.search("gateway", { spaceIds: ["b"] })).toEqual([]);
    // Built again (as the content service does when a search finds it missing), it is found again.
    index.indexRevision("b", "r1", pagesOf("b"));
    expect(index.search("gateway", { spaceIds: ["b"] }).length).toBeGreaterThan(0);
  });

  test("spaces used within the keep time stay even over the budget, so a search over many spaces sees them all", () => {
    now = 0;
    const index = new SearchIndex({ budgetBytes: oneSpace, minKeepMs: 1000, now: clock });
    for (const id of ["a", "b", "c"]) index.indexRevision(id, "r1", pagesOf(id));
    expect(index.usage.spaces).toBe(3);
    expect(new Set(index.search("gateway", { spaceIds: ["a", "b", "c"], limit: 1000 }).map((hit) => hit.spaceId))).toEqual(new Set(["a", "b", "c"]));
    now += 5000;
    index.indexRevision("d", "r1", pagesOf("d"));
    expect(index.usage.spaces).toBe(1);
    expect(index.revisionOf("d")).toBe("r1");
  });

  test("each distinct word counts at its measured cost, so spaces of many words fill the budget and are evicted", () => {
    const wordy = (space: string): PageInput[] =>
      Array.from({ length: 50 }, (_, i) => ({ id: `${space}-${i}`, title: `Page ${i}`, path: `p${i}`, markdown: Array.from({ length: 200 }, (_, w) => `w${space}${i}x${w}`).join(" ") }));
    const plain = approximateBytes(SpaceIndex.build("a", "r1", pagesOf("a", 50)));
    const many = SpaceIndex.build("a", "r1", wordy("a"));
    expect(many.termCount).toBeGreaterThan(10_000);
    expect(approximateBytes(many)).toBeGreaterThan(many.termCount * BYTES_PER_TERM);
    expect(approximateBytes(many)).toBeGreaterThan(10 * plain);
    now = 0;
    const index = new SearchIndex({ budgetBytes: approximateBytes(many) * 2.5, minKeepMs: 1000, now: clock });
    for (const id of ["a", "b", "c", "d"]) {
      index.indexRevision(id, "r1", wordy(id));
      now += 5000;
    }
    expect([index.revisionOf("a"), index.revisionOf("b"), index.revisionOf("c"), index.revisionOf("d")]).toEqual([undefined, undefined, "r1", "r1"]);
    expect(index.usage.bytes).toBeLessThanOrEqual(approximateBytes(many) * 2.5);
  });

  test("removing and re-indexing a space keeps the accounting exact", () => {
    const index = new SearchIndex();
    index.indexRevision("a", "r1", pagesOf("a"));
    index.indexRevision("a", "r2", pagesOf("a", 10));
    index.removeSpace("a");
    expect(index.usage).toEqual({ spaces: 0, bytes: 0 });
  });
});
