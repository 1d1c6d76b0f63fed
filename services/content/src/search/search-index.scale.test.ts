// Correctness at scale: 2,000 generated pages in two spaces (no timing assertions here).
import { SearchIndex, type PageInput } from "./search-index";

const TOPICS = ["billing", "deployment", "authentication", "webhooks", "permissions", "analytics", "integrations", "migration"];
const code = (n: number) => `ref${String(n).padStart(4, "0")}`;

/** Page n: a topic word, a unique code in one known section, and ordinary filler text. */
function generatedPage(n: number): PageInput {
  const topic = TOPICS[n % TOPICS.length];
  const markdown = [
    `This page explains ${topic} for team ${n}.`,
    "## Overview",
    `Some general words about ${topic} and the product. `.repeat(20),
    "## Details",
    `The identifier ${code(n)} belongs to this page only.`,
    "```js",
    `configure({ topic: "${topic}" })`,
    "```",
    "## Troubleshooting",
    "If something fails, read the logs and retry the operation. ".repeat(10),
  ].join("\n");
  return { id: `p${n}`, title: `${topic[0].toUpperCase()}${topic.slice(1)} guide ${n}`, path: `${topic}/guide-${n}`, markdown };
}

describe("SearchIndex with 2,000 pages", () => {
  const index = new SearchIndex();
  const pages = Array.from({ length: 2000 }, (_, i) => generatedPage(i));
  index.indexRevision("space-even", "r1", pages.filter((_, i) => i % 2 === 0));
  index.indexRevision("space-odd", "r1", pages.filter((_, i) => i % 2 === 1));
  const both = ["space-even", "space-odd"];

  it("finds each page by its unique code, pointing at the section that holds it", () => {
    for (const n of [0, 1, 777, 1234, 1999]) {
      const results = index.search(code(n), { spaceIds: both });
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ id: `p${n}`, spaceId: n % 2 === 0 ? "space-even" : "space-odd" });
      expect(results[0].sections.map((s) => s.path)).toEqual([`${pages[n].path}#details`]);
    }
  });

  it("does not return a page of a space that was not passed in", () => {
    expect(index.search(code(1001), { spaceIds: ["space-even"] })).toEqual([]);
    const topicHits = index.search("webhooks", { spaceIds: ["space-odd"], limit: 1000 });
    expect(topicHits.length).toBeGreaterThan(0);
    expect(topicHits.every((r) => r.spaceId === "space-odd")).toBe(true);
  });

  it("returns every page of a topic, title matches first, and nothing of other topics", () => {
    const results = index.search("migration", { spaceIds: both, limit: 1000 });
    expect(results).toHaveLength(250);
    expect(results.every((r) => r.path.startsWith("migration/"))).toBe(true);
    expect(results[0].sections[0].title).toMatch(/^Migration guide/);
  });

  it("pages through a broad query in stable order", () => {
    const all = index.search("logs", { spaceIds: both, limit: 1000 });
    const more = index.search("logs", { spaceIds: both, limit: 1000, offset: 1000 });
    expect(all.length + more.length).toBe(2000);
    expect(new Set([...all, ...more].map((r) => r.id)).size).toBe(2000);
  });

  it("keeps answering correctly after one space is re-indexed with new content", () => {
    const copy = new SearchIndex();
    copy.indexRevision("space-even", "r1", pages.filter((_, i) => i % 2 === 0));
    copy.indexRevision("space-even", "r2", [{ id: "p0", title: "Renamed", path: "renamed", markdown: `Now ${code(4242)}.` }]);
    expect(copy.search(code(0), { spaceIds: ["space-even"] })).toEqual([]);
    expect(copy.search(code(4242), { spaceIds: ["space-even"] })).toMatchObject([{ id: "p0", revisionId: "r2", path: "renamed" }]);
  });
});
