// Site administration from GitBook's current API through HTTP, in every process mode: rotating the
// visitor-token signing key.
import { expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { sitesWorld, type SitesWorld } from "./sites-fixtures";
import { cookiesOf, publishedSite, rawGet, signToken, type PublishedSite } from "./sites-serve-fixtures";

describe.each(MODES)("site administration over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  const get = (path: string, headers: Record<string, string> = {}) => rawGet(sys.url, path, headers);
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("regenerating the publishing auth key", () => {
    let site: PublishedSite;
    beforeAll(async () => {
      site = await publishedSite(sys, w, { visibility: "visitor-auth" });
    });
    const path = () => `${w.sites}/${site.site.id}/publishing/auth`;

    test("a new key at once: tokens and visitor cookies signed with the old one stop opening the site", async () => {
      const old = (await w.owner.api.get(path())).body.privateKey;
      const token = signToken(old, { aud: site.site.id, exp: now() + 600 });
      const opened = await get(`${site.base}?jwt_token=${token}`);
      expect(opened.status).toBe(200);
      const cookie = cookiesOf(opened);
      expect((await get(`${site.base}/guide`, { Cookie: cookie })).status).toBe(200);

      const rotated = await w.creator.api.post(`${path()}/regenerate`);
      expect(rotated.status).toBe(200);
      expectSchema("regenerateSitePublishingAuthById", 200, rotated.body);
      expect(rotated.body).toMatchObject({ object: "publishing-auth", backend: "custom" });
      expect(rotated.body.privateKey).not.toBe(old);
      expect(rotated.headers.get("cache-control")).toBe("no-store");
      expect((await w.owner.api.get(path())).body.privateKey).toBe(rotated.body.privateKey);

      expect((await get(`${site.base}?jwt_token=${token}`)).status).toBe(401);
      expect((await get(`${site.base}/guide`, { Cookie: cookie })).status).toBe(401);
      const fresh = signToken(rotated.body.privateKey, { aud: site.site.id, exp: now() + 600 });
      expect((await get(`${site.base}?jwt_token=${fresh}`)).status).toBe(200);
    });

    test("create and admin only; other organizations 404; no token 401", async () => {
      const before = (await w.owner.api.get(path())).body.privateKey;
      for (const as of [w.reader, w.editor, w.guest]) {
        const res = await as.api.post(`${path()}/regenerate`);
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
      const other = await w.outsider.api.post(`${path()}/regenerate`);
      expect(other.status).toBe(404);
      expectErrorBody(404, other.body);
      expect((await w.owner.api.post(`${w.sites}/nosuchsite000000/publishing/auth/regenerate`)).status).toBe(404);
      expect((await w.owner.api.as(undefined).post(`${path()}/regenerate`)).status).toBe(401);
      expect((await w.owner.api.get(path())).body.privateKey).toBe(before);
    });
  });
});
