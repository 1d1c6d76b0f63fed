// The customization's link targets resolved against a visitor's site map, without a broker.
import type { SiteDoc, SiteSpaceDoc } from "../models";
import { defaultCustomization, mergeCustomization } from "../customization";
import { chromeLinkResolver, chromeRefs } from "./chrome-links";
import { TreeIndex, type PublishedHead, type TreePage } from "./content";
import { buildSiteMap } from "./site-map";

const site = { id: "site1", organizationId: "org1", title: "Docs", visibility: "public", published: true } as SiteDoc;
const siteSpace = (id: string, path: string, position: number): SiteSpaceDoc => ({ id, siteId: "site1", spaceId: `space-${id}`, sectionId: "", path, position, createdAt: "" });
const page = (id: string, path: string, pages: TreePage[] = []): TreePage => ({ id, title: id, slug: path, path, updatedAt: "", pages });
const heads = new Map<string, PublishedHead>(["one", "two"].map((id) => [`space-${id}`, { spaceId: `space-${id}`, revisionId: `rev-${id}`, title: id }]));
const trees: Record<string, TreeIndex> = {
  "space-one": new TreeIndex("rev-one", {}, [page("p-intro", "intro"), page("p-guide", "guide", [page("p-setup", "guide/setup")])]),
  "space-two": new TreeIndex("rev-two", {}, [page("p-home", "home"), page("p-api", "api")]),
};
const map = buildSiteMap({ site, sections: [], groups: [], siteSpaces: [siteSpace("one", "one", 1), siteSpace("two", "two", 2)] }, heads, {}, "/sites/docs");

describe("chromeLinkResolver", () => {
  const resolver = (current = map.all[0]) => {
    const read: string[] = [];
    return { read, resolve: chromeLinkResolver(refs, map, current, async (view) => (read.push(view.spaceId), trees[view.spaceId])) };
  };
  const refs: unknown[] = [
    { kind: "page", page: "p-setup", space: "space-one" },
    { kind: "page", page: "p-api" },
    { kind: "page", page: "p-intro" },
    { kind: "space", space: "space-two" },
    { kind: "anchor", page: "p-guide", space: "space-one", anchor: "install" },
    { kind: "page", page: "gone", space: "space-one" },
    { kind: "space", space: "space-of-another-org" },
    { kind: "page", page: "p-api", space: "space-of-another-org" },
  ];

  test("a page, a space or an anchor of the site is its URL here; the first page is the site space's root", async () => {
    const { resolve } = resolver();
    const href = await resolve;
    expect(href({ kind: "page", page: "p-setup", space: "space-one" })).toBe("/sites/docs/guide/setup");
    expect(href({ kind: "page", page: "p-api" })).toBe("/sites/docs/two/api");
    expect(href({ kind: "page", page: "p-intro" })).toBe("/sites/docs");
    expect(href({ kind: "space", space: "space-two" })).toBe("/sites/docs/two");
    expect(href({ kind: "anchor", page: "p-guide", space: "space-one", anchor: "install" })).toBe("/sites/docs/guide#install");
    expect(href({ kind: "url", url: "https://example.com/x" })).toBe("https://example.com/x");
  });

  test("a target the site does not show, or a URL that is not http(s), resolves to nothing (its link is dropped)", async () => {
    const href = await resolver().resolve;
    expect(href({ kind: "page", page: "gone", space: "space-one" })).toBeUndefined();
    expect(href({ kind: "space", space: "space-of-another-org" })).toBeUndefined();
    expect(href({ kind: "page", page: "p-api", space: "space-of-another-org" })).toBeUndefined();
    expect(href({ kind: "url", url: "javascript:alert(1)" })).toBeUndefined();
    expect(href({ kind: "page" })).toBeUndefined();
    expect(href(null)).toBeUndefined();
    expect(href("p-api")).toBeUndefined();
  });

  test("a tree that cannot be read drops the links into it, and each tree is read once per request", async () => {
    const read: string[] = [];
    const href = await chromeLinkResolver(refs, map, map.all[0], async (view) => {
      read.push(view.spaceId);
      if (view.spaceId === "space-two") throw new Error("content is down");
      return trees[view.spaceId];
    });
    expect(href({ kind: "page", page: "p-api" })).toBeUndefined();
    expect(href({ kind: "page", page: "p-setup", space: "space-one" })).toBe("/sites/docs/guide/setup");
    expect(read.sort()).toEqual(["space-one", "space-two"]);
  });

  test("chromeRefs lists the header items and their menus, the footer links and the announcement's link", () => {
    const customization = mergeCustomization(defaultCustomization("Docs"), {
      header: { links: [{ title: "Guide", to: { kind: "page", page: "p1" }, links: [{ title: "Sub", to: { kind: "space", space: "s1" } }] }] },
      footer: { groups: [{ title: "More", links: [{ title: "API", to: { kind: "page", page: "p2" } }] }] },
      announcement: { enabled: true, message: "News!", link: { title: "Read", to: { kind: "url", url: "https://example.com" } } },
    });
    expect(chromeRefs(customization)).toEqual(expect.arrayContaining([{ kind: "page", page: "p1" }, { kind: "space", space: "s1" }, { kind: "page", page: "p2" }, { kind: "url", url: "https://example.com" }]));
  });
});
