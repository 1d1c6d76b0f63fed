// A space's published URLs come from the sites that publish it, through HTTP in every process mode:
// GET /v1/spaces/{id} gives the site space's URL, with `?share=` on a share-link site only for a
// shareKey that opens it, and follows publishing, unpublishing and renaming at once.
import { expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { rawGet } from "./sites-serve-fixtures";

/** Reads the space until `check` holds (another node hears of a site change a moment after it answered). */
async function spaceUntil(w: SitesWorld, path: string, check: (urls: Record<string, string>) => boolean): Promise<Record<string, string>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const res = await w.owner.api.get(path);
    expect(res.status).toBe(200);
    expectSchema("getSpaceById", 200, res.body);
    if (check(res.body.urls) || Date.now() > deadline) return res.body.urls;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(MODES)("a space's published URL over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("a space gets the URL of its site space once the site is published, loses it when unpublished, and follows a new basename", async () => {
    const spaceId = await newSpace(w);
    const space = `/v1/spaces/${spaceId}`;
    expect((await w.owner.api.get(space)).body.urls.published).toBeUndefined();
    const site = await newSite(w, { spaces: [spaceId] });
    expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { basename: `docs-${site.id.toLowerCase()}` })).status).toBe(200);
    expect((await w.owner.api.get(space)).body.urls.published).toBeUndefined();

    expect((await w.owner.api.post(`${w.sites}/${site.id}/publish`)).status).toBe(200);
    const base = `${sys.url}/sites/docs-${site.id.toLowerCase()}`;
    const urls = await spaceUntil(w, space, (u) => u.published === base);
    expect(urls).toMatchObject({ published: base, public: base });
    // The URL is a page readers can open.
    expect((await rawGet(sys.url, new URL(base).pathname)).status).toBe(200);

    expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { basename: `moved-${site.id.toLowerCase()}` })).status).toBe(200);
    expect((await spaceUntil(w, space, (u) => u.published === `${sys.url}/sites/moved-${site.id.toLowerCase()}`)).published).toBe(`${sys.url}/sites/moved-${site.id.toLowerCase()}`);

    expect((await w.owner.api.post(`${w.sites}/${site.id}/unpublish`)).status).toBe(200);
    expect(await spaceUntil(w, space, (u) => u.published === undefined)).not.toHaveProperty("published");
  });

  test("on a share-link site the URL appears only with a shareKey that opens it, and carries the key", async () => {
    const spaceId = await newSpace(w);
    const space = `/v1/spaces/${spaceId}`;
    const site = await newSite(w, { spaces: [spaceId], visibility: "share-link" });
    expect((await w.owner.api.post(`${w.sites}/${site.id}/publish`)).status).toBe(200);
    const link = await w.owner.api.post(`${w.sites}/${site.id}/share-links`, { name: "Partners" });
    expect(link.status).toBe(201);
    const key = new URL(link.body.urls.published).searchParams.get("share") as string;

    const without = await spaceUntil(w, space, () => true);
    expect(without).not.toHaveProperty("published");
    const withKey = await w.owner.api.get(`${space}?shareKey=${encodeURIComponent(key)}`);
    expect(withKey.status).toBe(200);
    expectSchema("getSpaceById", 200, withKey.body);
    expect(withKey.body.urls.published).toBe(`${sys.url}/sites/${site.id}?share=${encodeURIComponent(key)}`);
    expect(withKey.body.urls.public).toBeUndefined();
    // A key that opens nothing gives no URL (the space is still read).
    const wrong = await w.owner.api.get(`${space}?shareKey=not-a-key`);
    expect(wrong.status).toBe(200);
    expect(wrong.body.urls.published).toBeUndefined();
    // A deactivated link stops giving the URL at once.
    expect((await w.owner.api.patch(`${w.sites}/${site.id}/share-links/${link.body.id}`, { active: false })).status).toBe(200);
    expect((await w.owner.api.get(`${space}?shareKey=${encodeURIComponent(key)}`)).body.urls.published).toBeUndefined();
  });
});
