// The visitor's view of a site's structure and the route from a path to a site space and page, without a broker.
import type { SectionDoc, SiteDoc, SiteSpaceDoc } from "../models";
import { TreeIndex, type PublishedHead, type TreePage } from "./content";
import { buildSiteMap, NAV_WINDOW, navigationTree, routeOf } from "./site-map";

const site: SiteDoc = {
  id: "site1",
  organizationId: "org1",
  type: "basic",
  title: "Docs",
  visibility: "public",
  published: true,
  siteSpaces: 0,
  adaptiveContent: true,
  agentsContext: "included",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const section = (id: string, path: string, position: number, extra: Partial<SectionDoc> = {}): SectionDoc => ({
  id, siteId: "site1", title: id, path, position, createdAt: "", ...extra,
});
const siteSpace = (id: string, sectionId: string, path: string, position: number, extra: Partial<SiteSpaceDoc> = {}): SiteSpaceDoc => ({
  id, siteId: "site1", spaceId: `space-${id}`, sectionId, path, position, createdAt: "", ...extra,
});
const heads = (ids: string[], missing: string[] = []) =>
  new Map<string, PublishedHead>(ids.map((id) => [`space-${id}`, { spaceId: `space-${id}`, revisionId: missing.includes(id) ? null : `rev-${id}`, title: id.toUpperCase() }]));

describe("buildSiteMap and routeOf", () => {
  const sections = [section("main", "main", 1), section("api", "api", 2), section("beta", "beta", 3, { condition: "visitor.claims.beta === true" })];
  const spaces = [siteSpace("m1", "main", "m1", 1), siteSpace("a1", "api", "v1", 1), siteSpace("a2", "api", "v2", 2), siteSpace("b1", "beta", "b1", 1)];
  const structure = { site, sections, groups: [], siteSpaces: spaces };

  test("the default section is at the base; others at their paths; a condition hides a section", () => {
    const map = buildSiteMap(structure, heads(["m1", "a1", "a2", "b1"]), {}, "/sites/docs");
    expect(map.sections.map((s) => [s.doc.id, s.base])).toEqual([["main", "/sites/docs"], ["api", "/sites/docs/api"]]);
    expect(map.sections[1].siteSpaces.map((v) => v.base)).toEqual(["/sites/docs/api", "/sites/docs/api/v2"]);
    const withBeta = buildSiteMap(structure, heads(["m1", "a1", "a2", "b1"]), { beta: true }, "/sites/docs");
    expect(withBeta.sections.map((s) => s.doc.id)).toEqual(["main", "api", "beta"]);
  });

  test.each([
    [[], "m1", ""],
    [["guide", "intro"], "m1", "guide/intro"],
    [["api"], "a1", ""],
    [["api", "endpoints"], "a1", "endpoints"],
    [["api", "v2", "changes"], "a2", "changes"],
    [["api", "v1", "x"], "a1", "v1/x"],
    [["beta"], "m1", "beta"],
  ])("%j goes to site space %s, page path %j", (segments, siteSpaceId, pagePath) => {
    const map = buildSiteMap(structure, heads(["m1", "a1", "a2", "b1"]), {}, "/sites/docs");
    const route = routeOf(map, segments as string[]);
    expect([route?.siteSpace.doc.id, route?.pagePath]).toEqual([siteSpaceId, pagePath]);
  });

  test("a deleted space leaves its site space out; a section left without site spaces is left out too", () => {
    const map = buildSiteMap(structure, heads(["m1", "a1", "a2", "b1"], ["a1", "a2"]), {}, "");
    expect(map.sections.map((s) => s.doc.id)).toEqual(["main"]);
  });

  test("when the default section is hidden, the site's root shows the first visible one", () => {
    const hidden = { ...structure, sections: [section("main", "main", 1, { condition: "false" }), ...sections.slice(1)] };
    const map = buildSiteMap(hidden, heads(["m1", "a1", "a2", "b1"]), {}, "");
    expect(routeOf(map, [])?.siteSpace.doc.id).toBe("a1");
    expect(routeOf(map, ["api", "v2"])?.siteSpace.doc.id).toBe("a2");
  });

  test("a site without sections routes among its root site spaces", () => {
    const root = { site: { ...site, defaultSiteSpaceId: "r2" }, sections: [], groups: [], siteSpaces: [siteSpace("r1", "", "one", 1), siteSpace("r2", "", "two", 2)] };
    const map = buildSiteMap(root, heads(["r1", "r2"]), {}, "");
    expect(map.rootSiteSpaces.map((v) => v.base)).toEqual(["/one", ""]);
    expect(routeOf(map, ["page"])?.siteSpace.doc.id).toBe("r2");
    expect(routeOf(map, ["one", "page"])).toMatchObject({ pagePath: "page", siteSpace: { doc: { id: "r1" } } });
    expect(routeOf(buildSiteMap(root, heads([]), {}, ""), [])).toBeUndefined();
  });
});

describe("navigationTree", () => {
  const leaf = (n: number, parent = ""): TreePage => ({ id: `p${parent}${n}`, title: `P${parent}${n}`, slug: `p${n}`, path: `${parent ? `${parent}/` : ""}p${n}`, updatedAt: "", pages: [] });

  test("shows the top level, opens the current page's branch, and marks collapsed branches", () => {
    const pages = [{ ...leaf(0), pages: [leaf(1, "p0")] }, { ...leaf(2), pages: [leaf(3, "p2")] }, { ...leaf(4), hidden: true }];
    const tree = new TreeIndex("rev", {}, pages);
    const nav = navigationTree(tree, "/s", tree.byPath.get("p0/p1"));
    expect(nav.map((n) => [n.title, n.href, n.collapsed, n.children.length])).toEqual([
      ["P0", "/s", false, 1],
      ["P2", "/s/p2", true, 0],
    ]);
    expect(nav[0].children[0]).toMatchObject({ title: "Pp01", current: true });
  });

  test(`a level of more than ${NAV_WINDOW} pages shows a window around the open page and links for the rest`, () => {
    const pages = Array.from({ length: 1000 }, (_, i) => leaf(i));
    const tree = new TreeIndex("rev", {}, pages);
    const nav = navigationTree(tree, "", tree.byPath.get("p500"));
    expect(nav).toHaveLength(NAV_WINDOW + 2);
    expect(nav[0]).toMatchObject({ more: true, title: "… 400 more pages", href: "/p399" });
    expect(nav[nav.length - 1]).toMatchObject({ more: true, title: "… 400 more pages", href: "/p600" });
    expect(nav.find((n) => n.current)?.title).toBe("P500");
  });
});
