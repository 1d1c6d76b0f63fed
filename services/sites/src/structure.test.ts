// Order, defaults, moves, paths and published URLs of a site's structure, without a broker.
import type { SectionDoc, SiteDoc, SiteSpaceDoc } from "./models";
import { byPosition, defaultOf, movePositions, nextPosition, PublishedUrls, slugify, uniquePath } from "./structure";

const node = (id: string, position: number) => ({ id, position });

function site(fields: Partial<SiteDoc> = {}): SiteDoc {
  return {
    id: "site1",
    organizationId: "org1",
    type: "basic",
    title: "Docs",
    visibility: "public",
    published: true,
    siteSpaces: 0,
    adaptiveContent: false,
    agentsContext: "included",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

const section: SectionDoc = { id: "sec1", siteId: "site1", title: "API", path: "api", position: 1, createdAt: "" };
const siteSpace: SiteSpaceDoc = { id: "ss1", siteId: "site1", spaceId: "sp1", sectionId: "sec1", path: "v2", position: 1, createdAt: "" };

describe("order and defaults", () => {
  test("byPosition orders by position and breaks ties by id", () => {
    expect(byPosition([node("b", 2), node("c", 1), node("a", 2)]).map((n) => n.id)).toEqual(["c", "a", "b"]);
  });

  test("nextPosition is one past the largest, and 1 for nothing", () => {
    expect(nextPosition([])).toBe(1);
    expect(nextPosition([node("a", 3), node("b", 7)])).toBe(8);
  });

  test("the default is the chosen item while it exists, else the first", () => {
    const items = [node("a", 1), node("b", 2)];
    expect(defaultOf(items, "b")?.id).toBe("b");
    expect(defaultOf(items, "gone")?.id).toBe("a");
    expect(defaultOf([], undefined)).toBeUndefined();
  });
});

describe("movePositions", () => {
  const siblings = [node("a", 1), node("b", 2), node("c", 3)];

  test("moving before a sibling renumbers only what changes", () => {
    expect([...movePositions(siblings, "c", { before: "a" })]).toEqual([["c", 1], ["a", 2], ["b", 3]]);
  });

  test("moving after a sibling", () => {
    expect([...movePositions(siblings, "a", { after: "b" })]).toEqual([["b", 1], ["a", 2]]);
  });

  test("moving to the end", () => {
    expect([...movePositions(siblings, "a", { end: true })]).toEqual([["b", 1], ["c", 2], ["a", 3]]);
  });

  test("a reference that is no sibling, or the item itself, is refused", () => {
    expect(() => movePositions(siblings, "a", { before: "x" })).toThrow(RangeError);
    expect(() => movePositions(siblings, "a", { before: "a" })).toThrow(RangeError);
    expect(() => movePositions(siblings, "x", { end: true })).toThrow(RangeError);
  });
});

describe("paths", () => {
  test("slugify makes lower-case hyphenated words and never an empty path", () => {
    expect(slugify("  Getting Started — Café! ")).toBe("getting-started-cafe");
    expect(slugify("!!!")).toBe("section");
    expect(slugify("x".repeat(200)).length).toBeLessThanOrEqual(100);
  });

  test("uniquePath numbers a taken path", () => {
    expect(uniquePath("api", new Set())).toBe("api");
    expect(uniquePath("api", new Set(["api", "api-2"]))).toBe("api-3");
    expect(uniquePath("p".repeat(100), new Set(["p".repeat(100)])).length).toBeLessThanOrEqual(100);
  });
});

describe("PublishedUrls", () => {
  const base = "http://localhost:8080";

  test("an unpublished site has no published URLs", () => {
    const urls = new PublishedUrls(site({ published: false }), base, undefined);
    expect(urls.forSite()).toBeUndefined();
    expect(urls.section(section, false)).toBeUndefined();
  });

  test("defaults sit at their parent's URL, others under their path", () => {
    const urls = new PublishedUrls(site(), base, undefined);
    expect(urls.forSite()).toBe(`${base}/sites/site1`);
    expect(urls.section(section, false)).toBe(`${base}/sites/site1/api`);
    expect(urls.siteSpace(siteSpace, false, { doc: section, isDefault: true })).toBe(`${base}/sites/site1/v2`);
    expect(urls.siteSpace(siteSpace, true, { doc: section, isDefault: false })).toBe(`${base}/sites/site1/api`);
  });

  test("a custom hostname wins over the instance URL", () => {
    expect(new PublishedUrls(site({ hostname: "docs.example.com" }), base, undefined).forSite()).toBe("https://docs.example.com");
  });

  test("a share-link site has URLs only with a key, and they carry it", () => {
    expect(new PublishedUrls(site({ visibility: "share-link" }), base, undefined).forSite()).toBeUndefined();
    expect(new PublishedUrls(site({ visibility: "share-link" }), base, "k/y").section(section, true)).toBe(`${base}/sites/site1?share=k%2Fy`);
  });
});
