import { slugify, slugifyHeading, uniqueAnchor } from "./index";

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
    const used = new Set<string>();
    expect([uniqueAnchor("faq", used), uniqueAnchor("faq", used), uniqueAnchor("", used), uniqueAnchor("", used)]).toEqual(["faq", "faq-1", "section", "section-1"]);
  });
});
