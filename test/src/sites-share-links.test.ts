// Share links and `shareKey` through HTTP, in every process mode.
import { expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";

/** The key a share link's published URL carries. */
function keyOf(link: { urls: { published?: string } }): string {
  const key = new URL(link.urls.published!).searchParams.get("share");
  if (!key) throw new Error(`no key in ${link.urls.published}`);
  return key;
}

describe.each(MODES)("share links over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("creating a share link is 201, active, with a long random key only in this answer", async () => {
    const site = await newSite(w, { visibility: "share-link" });
    const res = await w.creator.api.post(`${w.sites}/${site.id}/share-links`, { name: "Partners" });
    expect(res.status).toBe(201);
    expectSchema("createSiteShareLink", 201, res.body);
    expect(res.body).toMatchObject({ object: "share-link", name: "Partners", active: true });
    expect(res.headers.get("location")).toMatch(new RegExp(`/v1/orgs/[^/]+/sites/${site.id}/share-links/${res.body.id}$`));
    const key = keyOf(res.body);
    expect(key.length).toBeGreaterThanOrEqual(43);
    const other = await w.creator.api.post(`${w.sites}/${site.id}/share-links`, { name: "Others" });
    expect(keyOf(other.body)).not.toBe(key);
    const list = await w.reader.api.get(`${w.sites}/${site.id}/share-links`);
    expect(list.status).toBe(200);
    expectSchema("listSiteShareLinks", 200, list.body);
    expect(list.body.items.map((l: any) => l.name)).toEqual(["Partners", "Others"]);
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  test.each([
    [{}, "name"],
    [{ name: "n".repeat(51) }, "name"],
    [{ name: 5 }, "name"],
  ])("creating a share link with %j is 400 naming %s", async (body, field) => {
    const site = await newSite(w);
    const res = await w.owner.api.post(`${w.sites}/${site.id}/share-links`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("a name of exactly 50 characters is accepted", async () => {
    const site = await newSite(w);
    expect((await w.owner.api.post(`${w.sites}/${site.id}/share-links`, { name: "n".repeat(50) })).status).toBe(201);
  });

  test("PATCH changes active and name; an empty or invalid body is 400", async () => {
    const site = await newSite(w);
    const link = (await w.owner.api.post(`${w.sites}/${site.id}/share-links`, { name: "Before" })).body;
    const url = `${w.sites}/${site.id}/share-links/${link.id}`;
    const res = await w.owner.api.patch(url, { active: false, name: "After" });
    expect(res.status).toBe(200);
    expectSchema("updateSiteShareLinkById", 200, res.body);
    expect(res.body).toMatchObject({ id: link.id, active: false, name: "After" });
    expect((await w.owner.api.patch(url, {})).status).toBe(400);
    const badActive = await w.owner.api.patch(url, { active: "no" });
    expect(badActive.status).toBe(400);
    expect(badActive.body.error.message).toContain("active");
    const badName = await w.owner.api.patch(url, { name: "n".repeat(51) });
    expect(badName.body.error.message).toContain("name");
    expect((await w.owner.api.patch(`${w.sites}/${site.id}/share-links/nope0000000000000000`, { active: true })).status).toBe(404);
  });

  test("deleting a share link is 204, also when it is gone, and its key stops resolving", async () => {
    const site = await newSite(w, { visibility: "share-link" });
    const link = (await w.owner.api.post(`${w.sites}/${site.id}/share-links`, { name: "Temp" })).body;
    const key = keyOf(link);
    expect((await w.owner.api.get(`${w.sites}/${site.id}/sections?shareKey=${key}`)).status).toBe(200);
    expect((await w.owner.api.delete(`${w.sites}/${site.id}/share-links/${link.id}`)).status).toBe(204);
    expect((await w.owner.api.delete(`${w.sites}/${site.id}/share-links/${link.id}`)).status).toBe(204);
    expect((await w.owner.api.get(`${w.sites}/${site.id}/sections?shareKey=${key}`)).status).toBe(400);
  });

  test("a share-link site's published URLs resolve only with a valid active key", async () => {
    const site = await newSite(w, { visibility: "share-link" });
    await newSection(w, site.id, "Shared");
    await w.owner.api.post(`${w.sites}/${site.id}/publish`);
    const link = (await w.owner.api.post(`${w.sites}/${site.id}/share-links`, { name: "Key" })).body;
    const key = keyOf(link);

    const without = await w.reader.api.get(`${w.sites}/${site.id}/sections`);
    expect(without.body.items[0].urls.published).toBeUndefined();
    const withKey = await w.reader.api.get(`${w.sites}/${site.id}/sections?shareKey=${encodeURIComponent(key)}`);
    expect(withKey.status).toBe(200);
    expectSchema("listSiteSections", 200, withKey.body);
    expect(withKey.body.items[0].urls.published).toContain(`share=${encodeURIComponent(key)}`);
    const spaces = await w.reader.api.get(`${w.sites}/${site.id}/site-spaces?shareKey=${encodeURIComponent(key)}`);
    expect(spaces.body.items[0].urls.published).toContain("share=");
    const published = await w.reader.api.get(`${w.sites}/${site.id}/published?shareKey=${encodeURIComponent(key)}`);
    expect(published.status).toBe(200);

    const wrong = await w.reader.api.get(`${w.sites}/${site.id}/sections?shareKey=not-a-key`);
    expect(wrong.status).toBe(400);
    expectErrorBody(400, wrong.body);
    expect(wrong.body.error.message).toContain("shareKey");

    expect((await w.owner.api.patch(`${w.sites}/${site.id}/share-links/${link.id}`, { active: false })).status).toBe(200);
    for (const path of ["sections", "site-spaces", "published"]) {
      expect((await w.reader.api.get(`${w.sites}/${site.id}/${path}?shareKey=${encodeURIComponent(key)}`)).status).toBe(400);
    }
    await w.owner.api.patch(`${w.sites}/${site.id}/share-links/${link.id}`, { active: true });
    expect((await w.reader.api.get(`${w.sites}/${site.id}/sections?shareKey=${encodeURIComponent(key)}`)).status).toBe(200);
  });

  test("a key of one site does not open another", async () => {
    const a = await newSite(w, { visibility: "share-link" });
    const b = await newSite(w, { visibility: "share-link", spaces: [await newSpace(w)] });
    const key = keyOf((await w.owner.api.post(`${w.sites}/${a.id}/share-links`, { name: "A" })).body);
    expect((await w.owner.api.get(`${w.sites}/${b.id}/site-spaces?shareKey=${encodeURIComponent(key)}`)).status).toBe(400);
  });

  test("readers list share links but cannot create, change or delete them; outsiders get 404", async () => {
    const site = await newSite(w);
    const link = (await w.owner.api.post(`${w.sites}/${site.id}/share-links`, { name: "Mine" })).body;
    for (const res of [
      await w.reader.api.post(`${w.sites}/${site.id}/share-links`, { name: "Nope" }),
      await w.reader.api.patch(`${w.sites}/${site.id}/share-links/${link.id}`, { active: false }),
      await w.reader.api.delete(`${w.sites}/${site.id}/share-links/${link.id}`),
      await w.guest.api.get(`${w.sites}/${site.id}/share-links`),
    ]) {
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    }
    for (const res of [
      await w.outsider.api.get(`${w.sites}/${site.id}/share-links`),
      await w.outsider.api.post(`${w.sites}/${site.id}/share-links`, { name: "Nope" }),
      await w.outsider.api.delete(`${w.sites}/${site.id}/share-links/${link.id}`),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    expect((await w.owner.api.get(`${w.sites}/${site.id}/share-links`)).body.items[0].active).toBe(true);
  });
});
