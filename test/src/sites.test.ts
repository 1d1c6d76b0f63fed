// Sites through HTTP, in every process mode: create, list with filters, read, change, delete, publish, and who may do what.
import { expectErrorBody, expectSchema, walkPages, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";

describe.each(MODES)("sites over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("creating a site is 201 with a basic, unpublished site and GitBook's shape", async () => {
    const res = await w.owner.api.post(w.sites, { title: "Handbook", visibility: "unlisted" });
    expect(res.status).toBe(201);
    expectSchema("createSite", 201, res.body);
    expect(res.body).toMatchObject({ object: "site", type: "basic", title: "Handbook", visibility: "unlisted", published: false, siteSpaces: 0, features: [] });
    expect(res.body.urls.published).toBeUndefined();
    const read = await w.reader.api.get(`${w.sites}/${res.body.id}`);
    expect(read.status).toBe(200);
    expectSchema("getSiteById", 200, read.body);
    expect(read.body).toEqual(res.body);
  });

  test("creating a site with spaces links each space at the root and counts them", async () => {
    const [a, b] = [await newSpace(w, "Alpha"), await newSpace(w, "Beta")];
    const site = await newSite(w, { spaces: [a, b] });
    expect(site.siteSpaces).toBe(2);
    const list = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`);
    expect(list.status).toBe(200);
    expectSchema("listSiteSpaces", 200, list.body);
    expect(list.body.items.map((s: any) => s.space.id)).toEqual([a, b]);
    expect(list.body.items.map((s: any) => s.path)).toEqual(["alpha", "beta"]);
    expect(list.body.items.map((s: any) => s.default)).toEqual([true, false]);
  });

  test("createSpace: true creates a new space titled like the site and links it", async () => {
    const site = await newSite(w, { title: "Fresh docs", createSpace: true });
    expect(site.siteSpaces).toBe(1);
    const list = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`);
    expect(list.body.items[0].space).toMatchObject({ object: "space", title: "Fresh docs", organization: w.orgId });
  });

  test.each([
    [{ title: "x" }, "title"],
    [{ title: "t".repeat(129) }, "title"],
    [{ type: "gold" }, "type"],
    [{ visibility: "secret" }, "visibility"],
    [{ spaces: "abc" }, "spaces"],
    [{ spaces: ["nope0000000000000000"] }, "spaces[0]"],
    [{ createSpace: "yes" }, "createSpace"],
  ])("creating a site with %j is 400 naming %s", async (body, field) => {
    const res = await w.owner.api.post(w.sites, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("a space of another organization cannot be added to a site (400 naming spaces[0])", async () => {
    const other = await sitesWorld(sys);
    const foreign = await newSpace(other);
    const res = await w.owner.api.post(w.sites, { title: "Mixed", spaces: [foreign] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("spaces[0]");
  });

  test("the list filters by space, title and published, and pages", async () => {
    const space = await newSpace(w, "Filtered");
    const withSpace = await newSite(w, { title: "Zebra manual", spaces: [space] });
    const published = await newSite(w, { title: "Zebra live" });
    expect((await w.owner.api.post(`${w.sites}/${published.id}/publish`)).status).toBe(200);

    const bySpace = await w.reader.api.get(`${w.sites}?space=${space}`);
    expect(bySpace.status).toBe(200);
    expectSchema("listSites", 200, bySpace.body);
    expect(bySpace.body.items.map((s: any) => s.id)).toEqual([withSpace.id]);

    const byTitle = await w.reader.api.get(`${w.sites}?title=zebra`);
    expect(byTitle.body.items.map((s: any) => s.id).sort()).toEqual([withSpace.id, published.id].sort());

    const live = await w.reader.api.get(`${w.sites}?published=true&title=zebra`);
    expect(live.body.items.map((s: any) => s.id)).toEqual([published.id]);
    const draft = await w.reader.api.get(`${w.sites}?published=false&title=zebra`);
    expect(draft.body.items.map((s: any) => s.id)).toEqual([withSpace.id]);

    const byType = await w.reader.api.get(`${w.sites}?title=zebra&type=basic&type=premium`);
    expect(byType.status).toBe(200);
    expect(byType.body.items).toHaveLength(2);
    expect((await w.reader.api.get(`${w.sites}?title=zebra&type=premium`)).body.items).toEqual([]);
    expect((await w.reader.api.get(`${w.sites}?type=gold`)).status).toBe(400);

    const all = await w.reader.api.get(`${w.sites}?limit=1000`);
    const walked = await walkPages(w.reader.api, w.sites, 2);
    expect(walked.map((s) => s.id)).toEqual(all.body.items.map((s: any) => s.id));
    expect((await w.reader.api.get(`${w.sites}?limit=1001`)).status).toBe(400);
    expect((await w.reader.api.get(`${w.sites}?limit=0`)).status).toBe(400);
    expect((await w.reader.api.get(`${w.sites}?published=maybe`)).status).toBe(400);
  });

  test("PATCH changes title, visibility, basename, adaptiveContent and agentsContext", async () => {
    const site = await newSite(w);
    const res = await w.creator.api.patch(`${w.sites}/${site.id}`, {
      title: "Renamed",
      visibility: "share-link",
      basename: "api",
      adaptiveContent: { enabled: true },
      agentsContext: "excluded",
    });
    expect(res.status).toBe(200);
    expectSchema("updateSiteById", 200, res.body);
    expect(res.body).toMatchObject({ title: "Renamed", visibility: "share-link", basename: "api", adaptiveContent: { enabled: true }, agentsContext: "excluded" });
    expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body).toMatchObject({ title: "Renamed", basename: "api" });
  });

  test("a proxy is validated, set, unique, and removed by null", async () => {
    const site = await newSite(w);
    const origin = `docs-${Date.now()}.example.com/docs`;
    const set = await w.owner.api.patch(`${w.sites}/${site.id}`, { proxy: origin });
    expect(set.status).toBe(200);
    expectSchema("updateSiteById", 200, set.body);
    expect(set.body.proxy).toMatchObject({ origin });
    const other = await newSite(w);
    const taken = await w.owner.api.patch(`${w.sites}/${other.id}`, { proxy: origin });
    expect(taken.status).toBe(409);
    expectErrorBody(409, taken.body);
    expect(taken.body.error.message).toContain("proxy");
    const removed = await w.owner.api.patch(`${w.sites}/${site.id}`, { proxy: null });
    expect(removed.status).toBe(200);
    expect(removed.body.proxy).toBeUndefined();
    expect((await w.owner.api.patch(`${w.sites}/${other.id}`, { proxy: origin })).status).toBe(200);
  });

  test("a hostname must match the pattern and be unique; null removes it", async () => {
    const site = await newSite(w);
    const hostname = `docs${Date.now()}.example.com`;
    const set = await w.owner.api.patch(`${w.sites}/${site.id}`, { hostname });
    expect(set.status).toBe(200);
    expect(set.body.hostname).toBe(hostname);
    const other = await newSite(w);
    const taken = await w.owner.api.patch(`${w.sites}/${other.id}`, { hostname });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("hostname");
    expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { hostname: null })).body.hostname).toBeUndefined();
  });

  test.each([
    [{ title: "x" }, "title"],
    [{ visibility: "private" }, "visibility"],
    [{ basename: "" }, "basename"],
    [{ basename: "b".repeat(101) }, "basename"],
    [{ adaptiveContent: true }, "adaptiveContent"],
    [{ adaptiveContent: { enabled: "yes" } }, "adaptiveContent.enabled"],
    [{ agentsContext: "maybe" }, "agentsContext"],
    [{ proxy: "https://company.com/docs" }, "proxy"],
    [{ proxy: "company.com" }, "proxy"],
    [{ proxy: `company.com/${"d".repeat(512)}` }, "proxy"],
    [{ hostname: "Docs.Example.com" }, "hostname"],
    [{ hostname: "example.com" }, "hostname"],
    [{ defaultSiteSpace: "nope0000000000000000" }, "defaultSiteSpace"],
    [{ defaultSiteSection: "nope0000000000000000" }, "defaultSiteSection"],
  ])("PATCH with %j is 400 naming %s", async (body, field) => {
    const site = await newSite(w);
    const res = await w.owner.api.patch(`${w.sites}/${site.id}`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("defaultSiteSpace picks the default site space at the root level", async () => {
    const [a, b] = [await newSpace(w, "One"), await newSpace(w, "Two")];
    const site = await newSite(w, { spaces: [a, b] });
    const list = (await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).body.items;
    const second = list.find((s: any) => s.space.id === b);
    expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { defaultSiteSpace: second.id })).status).toBe(200);
    const defaults = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces?default=true`);
    expect(defaults.body.items.map((s: any) => s.id)).toEqual([second.id]);
    const others = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces?default=false`);
    expect(others.body.items.map((s: any) => s.space.id)).toEqual([a]);
  });

  test("publish and unpublish flip published and the published URL", async () => {
    const site = await newSite(w);
    const published = await w.creator.api.post(`${w.sites}/${site.id}/publish`);
    expect(published.status).toBe(200);
    expectSchema("publishSite", 200, published.body);
    expect(published.body.published).toBe(true);
    expect(published.body.urls.published).toMatch(/^https?:\/\//);
    const unpublished = await w.creator.api.post(`${w.sites}/${site.id}/unpublish`);
    expect(unpublished.status).toBe(200);
    expectSchema("unpublishSite", 200, unpublished.body);
    expect(unpublished.body.published).toBe(false);
    expect(unpublished.body.urls.published).toBeUndefined();
  });

  test("a share-link site publishes no key-less URL", async () => {
    const site = await newSite(w, { visibility: "share-link" });
    const res = await w.owner.api.post(`${w.sites}/${site.id}/publish`);
    expect(res.body.published).toBe(true);
    expect(res.body.urls.published).toBeUndefined();
  });

  test("deleting a site is 204, takes its structure with it, and is 204 again when it is gone", async () => {
    const site = await newSite(w, { spaces: [await newSpace(w)] });
    const del = await w.owner.api.delete(`${w.sites}/${site.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expect((await w.owner.api.get(`${w.sites}/${site.id}`)).status).toBe(404);
    expect((await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).status).toBe(404);
    expect((await w.owner.api.delete(`${w.sites}/${site.id}`)).status).toBe(204);
  });

  test("readers read but cannot create, change, publish or delete (403)", async () => {
    const site = await newSite(w);
    for (const user of [w.reader, w.editor]) {
      expect((await user.api.get(`${w.sites}/${site.id}`)).status).toBe(200);
      expect((await user.api.get(w.sites)).status).toBe(200);
      for (const res of [
        await user.api.post(w.sites, { title: "Nope" }),
        await user.api.patch(`${w.sites}/${site.id}`, { title: "Nope" }),
        await user.api.post(`${w.sites}/${site.id}/publish`),
        await user.api.post(`${w.sites}/${site.id}/unpublish`),
        await user.api.delete(`${w.sites}/${site.id}`),
      ]) {
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
    }
  });

  test("members with the create role create, change and publish sites", async () => {
    const res = await w.creator.api.post(w.sites, { title: "By a creator" });
    expect(res.status).toBe(201);
    expect((await w.creator.api.delete(`${w.sites}/${res.body.id}`)).status).toBe(204);
  });

  test("guests get 403 and non-members 404 on every site endpoint", async () => {
    const site = await newSite(w);
    const calls = (user: typeof w.owner) => [
      user.api.get(w.sites),
      user.api.post(w.sites, { title: "Nope" }),
      user.api.get(`${w.sites}/${site.id}`),
      user.api.patch(`${w.sites}/${site.id}`, { title: "Nope" }),
      user.api.post(`${w.sites}/${site.id}/publish`),
      user.api.delete(`${w.sites}/${site.id}`),
    ];
    for (const res of await Promise.all(calls(w.guest))) {
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    }
    for (const res of await Promise.all(calls(w.outsider))) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    expect((await w.owner.api.get(`${w.sites}/${site.id}`)).status).toBe(200);
  });

  test("a missing site is 404, and a site is not reachable through another organization", async () => {
    expect((await w.owner.api.get(`${w.sites}/nope0000000000000000`)).status).toBe(404);
    const site = await newSite(w);
    const other = await sitesWorld(sys);
    const res = await other.owner.api.get(`${other.sites}/${site.id}`);
    expect(res.status).toBe(404);
    expectErrorBody(404, res.body);
  });

  test("every site endpoint is 401 without a token", async () => {
    const site = await newSite(w);
    const anon = w.owner.api.as(undefined);
    const s = `${w.sites}/${site.id}`;
    const x = "x0000000000000000000";
    const calls: Array<[string, string]> = [
      ["GET", w.sites], ["POST", w.sites], ["GET", s], ["PATCH", s], ["DELETE", s],
      ["POST", `${s}/publish`], ["POST", `${s}/unpublish`], ["GET", `${s}/published`],
      ["GET", `${s}/adaptive-schema`], ["PUT", `${s}/adaptive-schema`], ["GET", `${s}/adaptive-schema/template-conditions`],
      ["GET", `${s}/sections`], ["POST", `${s}/sections`], ["PATCH", `${s}/sections/${x}`], ["DELETE", `${s}/sections/${x}`], ["POST", `${s}/sections/${x}/move`],
      ["GET", `${s}/section-groups`], ["POST", `${s}/section-groups`], ["PATCH", `${s}/section-groups/${x}`], ["DELETE", `${s}/section-groups/${x}`],
      ["POST", `${s}/section-groups/${x}/sections`], ["DELETE", `${s}/section-groups/${x}/sections/${x}`], ["POST", `${s}/section-groups/${x}/move`],
      ["GET", `${s}/site-spaces`], ["POST", `${s}/site-spaces`], ["PATCH", `${s}/site-spaces/${x}`], ["DELETE", `${s}/site-spaces/${x}`], ["POST", `${s}/site-spaces/${x}/move`],
      ["GET", `${s}/share-links`], ["POST", `${s}/share-links`], ["PATCH", `${s}/share-links/${x}`], ["DELETE", `${s}/share-links/${x}`],
    ];
    for (const [method, path] of calls) {
      const res = await anon.request(method, path, method === "GET" || method === "DELETE" ? undefined : {});
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expectErrorBody(401, res.body);
    }
  });
});
