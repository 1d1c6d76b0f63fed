import { highlight, queryTerms, searchItem, searchJsonParams, snippetOf, SNIPPET_CHARS } from "./search-json";

describe("search as you type: query, snippets, highlights", () => {
  test("parameters: q required and bounded, limit an integer 1..20", () => {
    expect(searchJsonParams({ q: " zeppelin " })).toEqual({ ok: true, q: "zeppelin", limit: 8 });
    expect(searchJsonParams({ q: "a", limit: "20" })).toEqual({ ok: true, q: "a", limit: 20 });
    expect(searchJsonParams({})).toMatchObject({ ok: false, field: "q" });
    expect(searchJsonParams({ q: "   " })).toMatchObject({ ok: false, field: "q" });
    expect(searchJsonParams({ q: "x".repeat(513) })).toMatchObject({ ok: false, field: "q" });
    for (const limit of ["0", "21", "1.5", "-1", "abc", "", "1e1"]) expect(searchJsonParams({ q: "a", limit })).toMatchObject({ ok: false, field: "limit" });
  });

  test("terms are the query's words, lower-cased, once, regex characters harmless", () => {
    expect(queryTerms("Zeppelin zeppelin (air)*ship")).toEqual(["zeppelin", "ship", "air"]);
    expect(queryTerms(".*+?")).toEqual([]);
    expect(highlight("a.*b", queryTerms(".*"))).toEqual([{ text: "a.*b" }]);
  });

  test("highlight flags every word starting with a term, case-insensitive, and keeps the text whole", () => {
    const pieces = highlight("Zeppelins fly; a zeppelin <b>lands</b> near a bizeppelin", ["zeppelin"]);
    expect(pieces.map((p) => p.text).join("")).toBe("Zeppelins fly; a zeppelin <b>lands</b> near a bizeppelin");
    expect(pieces.filter((p) => p.match).map((p) => p.text)).toEqual(["Zeppelins", "zeppelin"]);
    expect(highlight("zeppelins", ["zep"])).toEqual([{ text: "zeppelins", match: true }]);
    expect(highlight("Ünïcode straße", ["straße"])).toEqual([{ text: "Ünïcode " }, { text: "straße", match: true }]);
  });

  test("a snippet is cut around the first match, at word boundaries", () => {
    const body = `${"lorem ipsum ".repeat(40)}the zeppelin lands ${"dolor sit ".repeat(40)}`;
    const snippet = snippetOf(body, ["zeppelin"]);
    expect(snippet).toContain("zeppelin");
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_CHARS + 2);
    expect(snippetOf("short\n\ntext", ["x"])).toBe("short text");
    expect(snippetOf(body, ["nothing"]).startsWith("lorem")).toBe(true);
  });

  test("an item takes the first section that matches, its anchor and heading", () => {
    const item = searchItem(
      {
        title: "Guide",
        href: "/sites/d/guide",
        space: "Docs",
        sections: [
          { title: "", path: "guide", body: "Intro." },
          { title: "Configure", path: "guide#configure", body: "Set the zeppelin up." },
        ],
      },
      ["zeppelin"],
    );
    expect(item).toEqual({
      title: [{ text: "Guide" }],
      href: "/sites/d/guide#configure",
      section: "Configure",
      space: "Docs",
      snippet: [{ text: "Set the " }, { text: "zeppelin", match: true }, { text: " up." }],
    });
    expect(searchItem({ title: "", href: "/x", sections: [] }, ["a"])).toEqual({ title: [{ text: "Untitled" }], href: "/x", snippet: [] });
  });
});
