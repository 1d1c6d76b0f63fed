// searchSiteContent through HTTP, in every process mode: GitBook's shapes, search scopes, paging,
// access (403 for guests, 404 for other organizations) and bad input naming the field.
import { createOrg, expectErrorBody, expectSchema, type ApiClient, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages as addSpecs, html, rawGet, unique } from "./sites-serve-fixtures";

describe.each(MODES)("site search over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let outsiderOrg: string;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    outsiderOrg = (await createOrg(w.outsider.api)).id;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

  describe("searchSiteContent", () => {
    let siteId: string;
    let guideSpace: string;
    let apiSpace: string;
    let betaSpace: string;
    let guideSiteSpace: string;
    let apiSiteSpace: string;
    let betaSiteSpace: string;
    const search = (api: ApiClient, body: unknown, query = "", org = w.orgId, site = siteId) => api.post(`/v1/orgs/${org}/sites/${site}/search${query}`, body);

    async function addPages(spaceId: string, ...markdowns: string[]): Promise<void> {
      const res = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: markdowns.map((markdown) => ({ type: "insert_page", markdown })) });
      expect(res.status).toBe(201);
    }

    beforeAll(async () => {
      const site = await newSite(w);
      siteId = site.id;
      const guides = await newSection(w, siteId, "Guides");
      const api = await newSection(w, siteId, "API");
      [guideSpace, apiSpace] = [guides.siteSpaces[0].space.id, api.siteSpaces[0].space.id];
      [guideSiteSpace, apiSiteSpace] = [guides.siteSpaces[0].id, api.siteSpaces[0].id];
      betaSpace = await newSpace(w, "Guides beta");
      const beta = await w.owner.api.post(`${w.sites}/${siteId}/site-spaces`, { spaceId: betaSpace, sectionId: guides.id });
      betaSiteSpace = beta.body.id;
      await addPages(guideSpace, "# Installing\n\nInstall the quasarwidget first.\n\n## Upgrading\n\nUpgrade the quasarwidget later.", "# Other\n\nNothing here.");
      await addPages(apiSpace, "# Endpoints\n\nThe quasarwidget endpoint.");
      await addPages(betaSpace, "# Beta\n\nA quasarwidget preview.");
    });

    test("every site space is searched by default; spaces are GitBook's SearchSpaceResult with ranked pages", async () => {
      const res = await search(w.reader.api, { query: "quasarwidget" });
      expect(res.status).toBe(200);
      expectSchema("searchSiteContent", 200, res.body, { latest: true });
      expect(res.body.count).toBe(3);
      expect(ids(res.body.items).sort()).toEqual([guideSpace, apiSpace, betaSpace].sort());
      const guide = res.body.items.find((i: any) => i.id === guideSpace);
      expect(guide).toMatchObject({ type: "space", title: "Guides" });
      expect(guide.pages.map((p: any) => p.title)).toEqual(["Installing"]);
      expect(guide.pages[0].sections.map((s: any) => s.path)).toEqual(expect.arrayContaining(["installing", "installing#upgrading"]));
      // The best page of each space first: ranks 1..3, one per space.
      expect(res.body.items.flatMap((i: any) => i.pages.map((p: any) => p.rank)).sort()).toEqual([1, 2, 3]);
      expect((await search(w.reader.api, { query: "nothingmatchesthis" })).body).toEqual({ items: [], count: 0 });
    });

    test("a site without sections searches its root site spaces; pages carry their ancestors from the tree", async () => {
      const handbook = await newSpace(w, "Handbook");
      expect((await w.owner.api.post(`/v1/spaces/${handbook}/content/template`, { id: "getting-started" })).status).toBe(201);
      const site = await newSite(w, { spaces: [handbook] });
      const res = await search(w.reader.api, { query: "Installation" }, "", w.orgId, site.id);
      expect(res.status).toBe(200);
      expectSchema("searchSiteContent", 200, res.body, { latest: true });
      expect(ids(res.body.items)).toEqual([handbook]);
      const page = res.body.items[0].pages.find((p: any) => p.title === "Installation");
      expect(page).toMatchObject({ path: "quickstart/installation", ancestors: [{ title: "Quickstart" }], rank: expect.any(Number), score: expect.any(Number) });
      expect(page.urls.app).toContain(`/s/${handbook}/quickstart/installation`);
    });

    test("scopes: default (each section's default), specific site spaces, the current one or the others; deprecated modes", async () => {
      const found = async (body: Record<string, unknown>) => {
        const res = await search(w.reader.api, { query: "quasarwidget", ...body });
        expect([body, res.status]).toEqual([body, 200]);
        expectSchema("searchSiteContent", 200, res.body, { latest: true });
        return ids(res.body.items).sort();
      };
      expect(await found({ scope: { mode: "all" } })).toEqual([guideSpace, apiSpace, betaSpace].sort());
      expect(await found({ scope: { mode: "default" } })).toEqual([guideSpace, apiSpace].sort());
      expect(await found({ scope: { mode: "default", currentSiteSpace: betaSiteSpace } })).toEqual([guideSpace, apiSpace, betaSpace].sort());
      expect(await found({ scope: { mode: "default", currentSiteSpace: betaSiteSpace, restrictTo: "currentSiteSpace" } })).toEqual([betaSpace]);
      expect(await found({ scope: { mode: "default", currentSiteSpace: guideSiteSpace, restrictTo: "otherSiteSpaces" } })).toEqual([apiSpace]);
      expect(await found({ scope: { mode: "specific", siteSpaceIds: [apiSiteSpace, betaSiteSpace] } })).toEqual([apiSpace, betaSpace].sort());
      expect(await found({ siteSpaceIds: [apiSiteSpace] })).toEqual([apiSpace]);
      expect(await found({ mode: "specific", siteSpaceIds: [betaSiteSpace] })).toEqual([betaSpace]);
      expect(await found({ mode: "current", siteSpaceId: betaSiteSpace })).toEqual([guideSpace, apiSpace, betaSpace].sort());
      expect(await found({ mode: "all" })).toEqual([guideSpace, apiSpace, betaSpace].sort());
    });

    test("`limit` spaces a page, `next.page` the rest; a token of another query is 400", async () => {
      const first = await search(w.reader.api, { query: "quasarwidget" }, "?limit=2");
      expect(first.status).toBe(200);
      expectSchema("searchSiteContent", 200, first.body, { latest: true });
      expect(first.body.items).toHaveLength(2);
      expect(first.body.count).toBe(3);
      const second = await search(w.reader.api, { query: "quasarwidget" }, `?limit=2&page=${first.body.next.page}`);
      expect(second.status).toBe(200);
      expect(second.body.items).toHaveLength(1);
      expect(second.body.next).toBeUndefined();
      expect(new Set([...ids(first.body.items), ...ids(second.body.items)]).size).toBe(3);
      const other = await search(w.reader.api, { query: "installing" }, `?limit=2&page=${first.body.next.page}`);
      expect(other.status).toBe(400);
      expect(other.body.error.message).toContain("page");
    });

    test.each([
      [{}, "query"],
      [{ query: 42 }, "query"],
      [{ query: "q".repeat(513) }, "query"],
      [{ query: "q", scope: { mode: "everything" } }, "scope.mode"],
      [{ query: "q", scope: { mode: "default", restrictTo: "currentSiteSpace" } }, "scope.currentSiteSpace"],
      [{ query: "q", scope: { mode: "specific" } }, "scope.siteSpaceIds"],
      [{ query: "q", scope: { mode: "specific", siteSpaceIds: [] } }, "scope.siteSpaceIds"],
      [{ query: "q", scope: { mode: "specific", siteSpaceIds: ["nosuchsitespace00000"] } }, "scope.siteSpaceIds"],
      [{ query: "q", mode: "current" }, "siteSpaceId"],
      [{ query: "q", mode: "sideways" }, "mode"],
    ])("%j is 400 naming %s", async (body, field) => {
      const res = await search(w.reader.api, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("a bad `limit` is 400 naming it", async () => {
      const res = await search(w.reader.api, { query: "q" }, "?limit=0");
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("limit");
    });

    test("401 without or with a bad token; guests 403; other organizations 404; an unknown site 404", async () => {
      for (const api of [sys.admin.as(undefined), sys.admin.as("not-a-token")]) {
        const res = await search(api, { query: "quasarwidget" });
        expect(res.status).toBe(401);
        expectErrorBody(401, res.body);
      }
      const guest = await search(w.guest.api, { query: "quasarwidget" });
      expect(guest.status).toBe(403);
      expectErrorBody(403, guest.body);
      for (const res of [await search(w.outsider.api, { query: "quasarwidget" }), await search(w.outsider.api, { query: "quasarwidget" }, "", outsiderOrg)]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      const unknown = await search(w.reader.api, { query: "quasarwidget" }, "", w.orgId, "nosuchsite0000000000");
      expect(unknown.status).toBe(404);
      expectErrorBody(404, unknown.body);
    });
    test("a space gone from the caller's view (deleted) is left out, the others still answer", async () => {
      expect((await w.owner.api.delete(`/v1/spaces/${betaSpace}`)).status).toBe(204);
      const res = await search(w.reader.api, { query: "quasarwidget" });
      expect(res.status).toBe(200);
      expectSchema("searchSiteContent", 200, res.body, { latest: true });
      expect(ids(res.body.items).sort()).toEqual([guideSpace, apiSpace].sort());
    });
  });

  describe("the same ranking as the published search page", () => {
    const search = (api: ApiClient, body: unknown, siteId: string) => api.post(`/v1/orgs/${w.orgId}/sites/${siteId}/search`, body);
    test("a site of two spaces: the API's pages by rank are the search page's results, in order, across spaces", async () => {
      const alpha = await newSpace(w, "Alpha");
      const beta = await newSpace(w, "Beta");
      const filler = "Plain words about nothing in particular. ".repeat(40);
      await addSpecs(sys, alpha, [
        { title: "Alpha overview", markdown: `${filler}\n\nOnce: zorblax.\n` },
        { title: "Alpha notes", markdown: "Some zorblax notes and more zorblax.\n" },
      ]);
      await addSpecs(sys, beta, [
        { title: "Zorblax guide", markdown: "Zorblax, zorblax and zorblax.\n\n## Zorblax setup\n\nSet up the zorblax.\n" },
        { title: "Zorblax reference", markdown: "The zorblax reference: zorblax.\n" },
        { title: "Zorblax hidden", hidden: true, markdown: "Zorblax zorblax zorblax zorblax.\n" },
        { title: "Unrelated", markdown: "Nothing.\n" },
      ]);
      // Alpha first in the site's order: the old per-space round robin would have put its best page first.
      const site = await newSite(w, { visibility: "public" });
      const first = await w.owner.api.post(`${w.sites}/${site.id}/sections`, { spaceId: alpha, title: "Alpha" });
      expect(first.status).toBe(201);
      expect((await w.owner.api.post(`${w.sites}/${site.id}/sections`, { spaceId: beta, title: "Beta" })).status).toBe(201);
      const basename = unique("rank");
      expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { basename })).status).toBe(200);
      expect((await w.owner.api.post(`${w.sites}/${site.id}/publish`)).status).toBe(200);

      for (const query of ["zorblax", "zorblax notes", "particular zorblax"]) {
        const page = await rawGet(sys.url, `/sites/${basename}/~search?q=${encodeURIComponent(query)}`);
        expect(page.status).toBe(200);
        const shown = html(page).querySelectorAll("ol.search-results > li > a").map((a) => a.text);
        const res = await search(w.reader.api, { query }, site.id);
        expect(res.status).toBe(200);
        expectSchema("searchSiteContent", 200, res.body, { latest: true });
        const ranked = res.body.items.flatMap((i: any) => i.pages.map((p: any) => ({ ...p, space: i.id }))).sort((a: any, b: any) => a.rank - b.rank);
        expect(ranked.map((p: any) => p.rank)).toEqual(ranked.map((_: unknown, i: number) => i + 1));
        expect(ranked.map((p: any) => p.title)).toEqual(shown);
        expect(shown).not.toContain("Zorblax hidden");
        // Spaces in the order of their best page; scores fall with the rank.
        expect(res.body.items.map((i: any) => i.id)).toEqual([...new Set(ranked.map((p: any) => p.space))]);
        expect(ranked.map((p: any) => p.score)).toEqual([...ranked.map((p: any) => p.score)].sort((a, b) => b - a));
      }
      // Where ordering matters: Beta's two pages outrank Alpha's, though Alpha comes first in the site.
      const res = await search(w.reader.api, { query: "zorblax" }, site.id);
      const ranked = res.body.items.flatMap((i: any) => i.pages.map((p: any) => ({ title: p.title, rank: p.rank, space: i.id }))).sort((a: any, b: any) => a.rank - b.rank);
      expect(ranked.slice(0, 2).map((p: any) => p.space)).toEqual([beta, beta]);
      expect(ranked.map((p: any) => p.title)).toHaveLength(4);
      expect(res.body.items.map((i: any) => i.id)).toEqual([beta, alpha]);
    });
  });
});
