import { BadRequestError } from "@docshelf/errors";
import { SearchIndex, type PageInput } from "./search-index";
import { analyzeSections, LARGE_PAGE_CHARS, SpaceIndex, type AnalyzePages } from "./space-index";

let seq = 0;
function page(fields: Partial<PageInput> = {}): PageInput {
  const n = ++seq;
  return { id: `page-${n}`, title: `Page ${n}`, path: `page-${n}`, markdown: "", ...fields };
}

function indexWith(pages: PageInput[], spaceId = "space-a", revisionId = "rev-1"): SearchIndex {
  const index = new SearchIndex();
  index.indexRevision(spaceId, revisionId, pages);
  return index;
}

describe("SearchIndex results", () => {
  it("returns the page and the section under the heading that matched, with its anchor path", () => {
    const index = indexWith([
      page({ id: "install", title: "Installation", path: "guides/install", markdown: "Intro text.\n\n## Docker\nRun the container with docker compose.\n\n## From source\nClone and build." }),
    ]);
    const [hit] = index.search("container", { spaceIds: ["space-a"] });
    expect(hit).toMatchObject({ spaceId: "space-a", revisionId: "rev-1", id: "install", title: "Installation", path: "guides/install" });
    expect(hit.sections).toEqual([{ id: "docker", title: "Docker", path: "guides/install#docker", body: "Run the container with docker compose." }]);
  });

  it("ranks a title match above body matches", () => {
    const index = indexWith([
      page({ title: "Overview", markdown: "You can configure webhooks from the settings." }),
      page({ title: "Webhooks", path: "webhooks", markdown: "Events are delivered to your endpoint." }),
      page({ title: "Integrations", markdown: "## Slack\nWebhooks post messages to Slack." }),
    ]);
    const results = index.search("webhooks", { spaceIds: ["space-a"] });
    expect(results.map((r) => r.title)).toEqual(["Webhooks", expect.any(String), expect.any(String)]);
  });

  it("ranks exact matches above prefix and fuzzy ones", () => {
    const index = indexWith([
      page({ title: "A", markdown: "configuration reference" }),
      page({ title: "B", markdown: "config files" }),
      page({ title: "C", markdown: "confog typo only" }),
    ]);
    expect(index.search("config", { spaceIds: ["space-a"] }).map((r) => r.title)).toEqual(["B", "A", "C"]);
  });

  it("matches word prefixes from three characters, for search as you type", () => {
    const index = indexWith([page({ title: "Authentication", markdown: "Tokens and SSO." })]);
    expect(index.search("auth", { spaceIds: ["space-a"] })).toHaveLength(1);
    expect(index.search("au", { spaceIds: ["space-a"] })).toHaveLength(0);
  });

  it("forgives one typo in a longer word but not in short words or codes", () => {
    const index = indexWith([page({ title: "Deployment", markdown: "Set the port and the v2024 flag." })]);
    expect(index.search("deploymnet", { spaceIds: ["space-a"] })).toHaveLength(1);
    expect(index.search("port", { spaceIds: ["space-a"] })).toHaveLength(1);
    expect(index.search("purt", { spaceIds: ["space-a"] })).toHaveLength(0);
    expect(index.search("v2025", { spaceIds: ["space-a"] })).toHaveLength(0);
  });

  it("prefers sections holding every word, and falls back to any word when none holds them all", () => {
    const index = indexWith([
      page({ title: "Both", markdown: "alpha and beta together" }),
      page({ title: "Only alpha", markdown: "alpha alone" }),
    ]);
    expect(index.search("alpha beta", { spaceIds: ["space-a"] }).map((r) => r.title)).toEqual(["Both"]);
    expect(index.search("beta gamma", { spaceIds: ["space-a"] }).map((r) => r.title)).toEqual(["Both"]);
  });

  it("ignores common English words in queries, so they neither match alone nor block a match", () => {
    const index = indexWith([page({ title: "CLI", markdown: "Install it with npm." })]);
    expect(index.search("the", { spaceIds: ["space-a"] })).toEqual([]);
    expect(index.search("how to install the cli", { spaceIds: ["space-a"] })).toHaveLength(1);
  });

  it("lists a page once, with at most sectionsPerPage of its matching sections, best first", () => {
    const markdown = ["## One", "token here", "## Two", "token token here", "## Three", "token again", "## Four", "token more"].join("\n");
    const index = indexWith([page({ id: "many", markdown })]);
    const results = index.search("token", { spaceIds: ["space-a"], sectionsPerPage: 2 });
    expect(results).toHaveLength(1);
    expect(results[0].sections).toHaveLength(2);
    expect(results[0].sections[0].title).toBe("Two");
  });

  it("cuts long section bodies to an excerpt around the match", () => {
    const markdown = `${"filler words ".repeat(100)}the rareword appears ${"more filler ".repeat(100)}`;
    const [hit] = indexWith([page({ markdown })]).search("rareword", { spaceIds: ["space-a"] });
    expect(hit.sections[0].body).toContain("rareword");
    expect(hit.sections[0].body.length).toBeLessThan(250);
  });

  it("starts the excerpt at the word a prefix or a typo matched", () => {
    const markdown = `${"filler words ".repeat(100)}the rareword appears ${"more filler ".repeat(100)}`;
    const index = indexWith([page({ markdown })]);
    expect(index.search("rarew", { spaceIds: ["space-a"] })[0].sections[0].body).toContain("rareword");
    expect(index.search("rarewrod", { spaceIds: ["space-a"] })[0].sections[0].body).toContain("rareword");
  });

  it("returns the same best pages whether a few or all of them are asked for", () => {
    const pages = Array.from({ length: 40 }, (_, i) => page({ markdown: `${"token ".repeat((i * 7) % 11)}filler ${"word ".repeat(i % 5)}` }));
    const index = indexWith(pages);
    const all = index.search("token", { spaceIds: ["space-a"], limit: 1000 }).map((r) => r.id);
    expect(index.search("token", { spaceIds: ["space-a"], limit: 5 }).map((r) => r.id)).toEqual(all.slice(0, 5));
    expect(index.search("token", { spaceIds: ["space-a"], limit: 5, offset: 5 }).map((r) => r.id)).toEqual(all.slice(5, 10));
  });
});

describe("SearchIndex access and lifecycle", () => {
  it("returns only pages of the spaces passed in", () => {
    const index = new SearchIndex();
    index.indexRevision("space-a", "r1", [page({ title: "Shared word in A" })]);
    index.indexRevision("space-b", "r2", [page({ title: "Shared word in B" })]);
    expect(index.search("shared", { spaceIds: ["space-b"] }).map((r) => r.spaceId)).toEqual(["space-b"]);
    expect(index.search("shared", { spaceIds: ["space-a", "space-b"] })).toHaveLength(2);
    expect(index.search("shared", { spaceIds: [] })).toEqual([]);
    expect(index.search("shared", { spaceIds: ["space-c"] })).toEqual([]);
  });

  it("replaces a space's pages when a new revision is indexed", () => {
    const index = new SearchIndex();
    index.indexRevision("space-a", "r1", [page({ title: "Old wording" })]);
    index.indexRevision("space-a", "r2", [page({ title: "New wording" })]);
    expect(index.search("old", { spaceIds: ["space-a"] })).toEqual([]);
    expect(index.search("new", { spaceIds: ["space-a"] })).toMatchObject([{ revisionId: "r2" }]);
    expect(index.revisionOf("space-a")).toBe("r2");
  });

  it("ignores indexing the revision that is already indexed", () => {
    const index = new SearchIndex();
    index.indexRevision("space-a", "r1", [page({ title: "First" })]);
    index.indexRevision("space-a", "r1", [page({ title: "Ignored" })]);
    expect(index.search("ignored", { spaceIds: ["space-a"] })).toEqual([]);
    expect(index.search("first", { spaceIds: ["space-a"] })).toHaveLength(1);
  });

  it("forgets a removed space and keeps the others", () => {
    const index = new SearchIndex();
    index.indexRevision("space-a", "r1", [page({ title: "Common" })]);
    index.indexRevision("space-b", "r1", [page({ title: "Common" })]);
    index.removeSpace("space-a");
    expect(index.search("common", { spaceIds: ["space-a", "space-b"] }).map((r) => r.spaceId)).toEqual(["space-b"]);
    expect(index.revisionOf("space-a")).toBeUndefined();
  });

  it("indexes a duplicated page id once", () => {
    const index = indexWith([page({ id: "dup", title: "Twice" }), page({ id: "dup", title: "Twice" })]);
    expect(index.search("twice", { spaceIds: ["space-a"] })).toHaveLength(1);
  });
});

describe("SearchIndex paging and validation", () => {
  const index = indexWith(Array.from({ length: 12 }, (_, i) => page({ title: `Guide ${i}`, markdown: "guide text" })));

  it("pages through results with limit and offset without repeating a page", () => {
    const first = index.search("guide", { spaceIds: ["space-a"], limit: 5 });
    const second = index.search("guide", { spaceIds: ["space-a"], limit: 5, offset: 5 });
    const third = index.search("guide", { spaceIds: ["space-a"], limit: 5, offset: 10 });
    expect([first.length, second.length, third.length]).toEqual([5, 5, 2]);
    expect(new Set([...first, ...second, ...third].map((r) => r.id)).size).toBe(12);
  });

  it.each([
    ["an empty query", ""],
    ["a blank query", "   "],
    ["a query over 512 characters", "a".repeat(513)],
  ])("refuses %s with a 400", (_label, query) => {
    expect(() => index.search(query, { spaceIds: ["space-a"] })).toThrow(BadRequestError);
  });

  it("accepts a query of exactly 512 characters", () => {
    expect(index.search(`guide ${"b".repeat(506)}`, { spaceIds: ["space-a"] })).toBeInstanceOf(Array);
  });

  it.each([0, 1001, 2.5])("refuses limit %p with a 400", (limit) => {
    expect(() => index.search("guide", { spaceIds: ["space-a"], limit })).toThrow(BadRequestError);
  });
});

describe("SearchIndex.searchBySpace", () => {
  it("groups matching pages by space, spaces ordered by their best page", () => {
    const index = new SearchIndex();
    index.indexRevision("weak", "r1", [page({ title: "Elsewhere", markdown: "mentions billing once" })]);
    index.indexRevision("strong", "r1", [page({ title: "Billing" }), page({ title: "Billing FAQ" })]);
    const results = index.searchBySpace("billing", { spaceIds: ["weak", "strong"] });
    expect(results.map((r) => r.spaceId)).toEqual(["strong", "weak"]);
    expect(results[0].pages).toHaveLength(2);
  });

  it("caps the pages listed per space", () => {
    const index = indexWith(Array.from({ length: 8 }, () => page({ title: "Repeated topic" })));
    expect(index.searchBySpace("topic", { spaceIds: ["space-a"], pagesPerSpace: 3 })[0].pages).toHaveLength(3);
  });
});

describe("SpaceIndex sections for excerpts", () => {
  it("keeps the split of the pages asked for lately, and only a bounded number of them", () => {
    const pages = Array.from({ length: 250 }, (_, i) => page({ markdown: `Intro ${i}.\n\n## Part\nBody ${i}.` }));
    const space = SpaceIndex.build("space-s", "rev-s", pages);
    const first = space.sectionsOf(0);
    expect(first.map((s) => s.title)).toEqual(expect.arrayContaining(["Part"]));
    expect(space.sectionsOf(0)).toBe(first);
    for (let p = 1; p < 250; p++) space.sectionsOf(p);
    // Page 0 was pushed out by 249 others: split again, equal but not the same array.
    const again = space.sectionsOf(0);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe("SearchIndex built in turns", () => {
  // 12 pages of about 80 KiB: 960 KiB of Markdown, three turns' worth at BUILD_TURN_CHARS.
  const large: PageInput[] = Array.from({ length: 12 }, (_, i) => ({
    id: `p${i}`,
    title: `Page ${i}`,
    path: `page-${i}`,
    markdown: `# Part ${i}\n\n${Array.from({ length: 1800 }, (_, j) => `Paragraph ${j} about topic${(j * 7 + i) % 97} and widget${i}.`).join("\n\n")}\n\n## Tail ${i}\n\nThe end of page ${i}.`,
  }));

  test("the same index as built at once, and the event loop runs between its chunks", async () => {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const inTurns = await SpaceIndex.buildInTurns("s", "r1", large);
    running = false;
    expect(turns).toBeGreaterThanOrEqual(2);
    const atOnce = SpaceIndex.build("s", "r1", large);
    expect(inTurns.sectionCount).toBe(atOnce.sectionCount);
    expect(inTurns.termCount).toBe(atOnce.termCount);
    const a = new SearchIndex();
    const b = new SearchIndex();
    a.indexRevision("s", "r1", large);
    await b.indexRevisionInTurns("s", "r1", large);
    for (const query of ["widget7", "topic13", "tail", "end of page"]) {
      expect(b.search(query, { spaceIds: ["s"] })).toEqual(a.search(query, { spaceIds: ["s"] }));
    }
  });

  test("large pages analysed elsewhere (a worker's copy of the answer) give the same index; small pages are analysed here", async () => {
    const small: PageInput = { id: "small", title: "Small", path: "small", markdown: "# Short\n\nA short page about widget99." };
    const pages = [...large, small];
    const analysed: string[] = [];
    const analyzeLarge: AnalyzePages = async (batch) => {
      analysed.push(...batch.map((page) => page.id));
      // As a worker answers: a structured-clone copy.
      return structuredClone(batch.map(analyzeSections));
    };
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const elsewhere = await SpaceIndex.buildInTurns("s", "r1", pages, undefined, analyzeLarge);
    running = false;
    expect(analysed).toEqual(large.filter((page) => page.markdown.length >= LARGE_PAGE_CHARS).map((page) => page.id));
    expect(analysed).toHaveLength(12);
    expect(turns).toBeGreaterThanOrEqual(2);
    const atOnce = SpaceIndex.build("s", "r1", pages);
    expect(elsewhere.sectionCount).toBe(atOnce.sectionCount);
    expect(elsewhere.termCount).toBe(atOnce.termCount);
    const a = new SearchIndex();
    const b = new SearchIndex();
    a.indexRevision("s", "r1", pages);
    await b.indexRevisionInTurns("s", "r1", pages, analyzeLarge);
    for (const query of ["widget7", "topic13", "tail", "end of page", "widget99", "short"]) {
      expect(b.search(query, { spaceIds: ["s"] })).toEqual(a.search(query, { spaceIds: ["s"] }));
    }
  });

  test("a space keeps its previous index for searches until the new build replaces it", async () => {
    const index = new SearchIndex();
    index.indexRevision("s", "r1", [{ id: "p", title: "Old", path: "old", markdown: "Oldword here." }]);
    const building = index.indexRevisionInTurns("s", "r2", large);
    expect(index.revisionOf("s")).toBe("r1");
    expect(index.search("oldword", { spaceIds: ["s"] })).toHaveLength(1);
    await building;
    expect(index.revisionOf("s")).toBe("r2");
    expect(index.search("oldword", { spaceIds: ["s"] })).toHaveLength(0);
    expect(index.search("widget3", { spaceIds: ["s"] }).length).toBeGreaterThan(0);
  });
});
