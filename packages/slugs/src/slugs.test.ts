import { slugify, slugifyHeading, UniqueAnchors } from "./index";

describe("slugify", () => {
  test.each([
    ["Getting Started", "getting-started"],
    ["  Crème brûlée!  ", "creme-brulee"],
    ["API / v2 — Reference", "api-v2-reference"],
    ["東京", "page"],
    ["", "page"],
  ])("%j → %j", (title, slug) => {
    expect(slugify(title, 100, "page")).toBe(slug);
  });

  test("cuts at `max` and leaves no dash at the cut", () => {
    expect(slugify("abc def", 4, "x")).toBe("abc");
    expect(slugify("a".repeat(150), 100, "x")).toHaveLength(100);
  });
});

describe("heading anchors", () => {
  test("keep letters of any script, drop marks and punctuation", () => {
    expect(slugifyHeading("Install the tool")).toBe("install-the-tool");
    expect(slugifyHeading("Über Größe?")).toBe("uber-große");
    expect(slugifyHeading("東京 2026")).toBe("東京-2026");
  });

  test("repeated anchors are numbered, an empty one is 'section'", () => {
    const anchors = new UniqueAnchors();
    expect(["faq", "faq", "", "", "faq"].map((base) => anchors.take(base))).toEqual(["faq", "faq-1", "section", "section-1", "faq-2"]);
  });

  // The rule as it was first written: count up from 1 until a free one (quadratic in repeats).
  function countingUp(bases: string[]): string[] {
    const used = new Set<string>();
    return bases.map((base) => {
      const root = base || "section";
      let anchor = root;
      for (let n = 1; used.has(anchor); n++) anchor = `${root}-${n}`;
      used.add(anchor);
      return anchor;
    });
  }

  test("the same anchors as counting up from 1, headings that look numbered included", () => {
    const tricky = ["a-1", "a", "a", "a", "a-3", "a", "a-1", "a-1", "a-1-1", "", "section", "section-1", "", "a-2", "a"];
    const anchors = new UniqueAnchors();
    expect(tricky.map((base) => anchors.take(base))).toEqual(countingUp(tricky));
    // Generated: a few roots and their numbered forms in random order.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const bases = Array.from({ length: 200 }, () => {
        const root = ["a", "b", "a-1", "", "section"][Math.floor(random() * 5)];
        return random() < 0.3 ? `${root || "section"}-${Math.floor(random() * 6)}` : root;
      });
      const fresh = new UniqueAnchors();
      expect(bases.map((base) => fresh.take(base))).toEqual(countingUp(bases));
    }
  });

  test("50,000 repeated headings take linear time", () => {
    const anchors = new UniqueAnchors();
    const started = Date.now();
    const taken = Array.from({ length: 50_000 }, () => anchors.take("a"));
    // Counting up from 1 did 1.25 billion set look-ups here (minutes); linear is milliseconds.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(taken.slice(0, 3)).toEqual(["a", "a-1", "a-2"]);
    expect(taken[49_999]).toBe("a-49999");
    expect(new Set(taken).size).toBe(50_000);
  });
});
