// Site administration from GitBook's current API through HTTP, in every process mode: rotating the
// visitor-token signing key, and site redirects (kept through the API, followed by the published site).
import { createOrg, createSpace, expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
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

  describe("site redirects", () => {
    let site: PublishedSite;
    let siteSpaceId: string;
    let guideId: string;
    const path = () => `${w.sites}/${site.site.id}/redirects`;
    beforeAll(async () => {
      // An organization with a verified domain: its site redirects straight to external URLs (without one,
      // a page says where the link goes; tenancy-hosts.test.ts).
      expect((await sys.admin.post(`/v1/orgs/${w.orgId}/domains/${w.orgId.toLowerCase()}.example.com/approve`, {})).status).toBe(200);
      site = await publishedSite(sys, w);
      siteSpaceId = (await w.owner.api.get(`${w.sites}/${site.site.id}/site-spaces`)).body.items[0].id;
      const pages = (await w.owner.api.get(`/v1/spaces/${site.spaceId}/content/pages`)).body.pages;
      guideId = pages.find((p: any) => p.title === "Guide").id;
    });

    test("created, listed, read by source, updated and deleted with GitBook's shapes; the published site follows them", async () => {
      const toPage = await w.creator.api.post(path(), { source: "/old-guide", destination: { kind: "site-page", siteSpaceId, pageId: guideId }, permanent: true });
      expect(toPage.status).toBe(201);
      expectSchema("createSiteRedirect", 201, toPage.body, { latest: true });
      expect(toPage.body).toMatchObject({ object: "site-redirect", source: "/old-guide", draft: false, captureWildcard: false, permanent: true });
      const external = await w.owner.api.post(path(), { source: "/blog/*", destination: { kind: "external", url: "https://blog.example.com/posts" }, captureWildcard: true });
      expect(external.status).toBe(201);
      const draft = await w.owner.api.post(path(), { source: "/soon", destination: { kind: "site-space", siteSpaceId }, draft: true });
      expect(draft.status).toBe(201);

      // Served: 308 for a permanent redirect of a public site, 307 otherwise; wildcards carry their suffix.
      const served = await get(`${site.base}/old-guide`);
      expect(served.status).toBe(308);
      expect(served.headers["location"]).toBe(`${site.base}/guide`);
      const blog = await get(`${site.base}/blog/2024/hello`);
      expect(blog.status).toBe(307);
      expect(blog.headers["location"]).toBe("https://blog.example.com/posts/2024/hello");
      // A draft is not live; a real page is never shadowed by a redirect.
      expect((await get(`${site.base}/soon`)).status).toBe(404);
      await w.owner.api.post(path(), { source: "/guide", destination: { kind: "external", url: "https://example.com/" } });
      expect((await get(`${site.base}/guide`)).status).toBe(200);

      const list = await w.reader.api.get(path());
      expect(list.status).toBe(200);
      expectSchema("listSiteRedirects", 200, list.body, { latest: true });
      expect(list.body.items.map((r: any) => r.source)).toEqual(["/guide", "/blog/*", "/old-guide"]);
      expect((await w.reader.api.get(`${path()}?orderBy=source&search=g`)).body.items.map((r: any) => r.source)).toEqual(["/blog/*", "/guide", "/old-guide"]);
      expect((await w.reader.api.get(`${path()}?draft=true`)).body.items.map((r: any) => r.source)).toEqual(["/soon"]);

      const bySource = await w.reader.api.get(`${w.sites}/${site.site.id}/redirect?source=${encodeURIComponent("/blog/a/b")}`);
      expect(bySource.status).toBe(200);
      expectSchema("getSiteRedirectBySource", 200, bySource.body, { latest: true });
      expect(bySource.body).toMatchObject({ redirect: { id: external.body.id }, target: "https://blog.example.com/posts/a/b" });
      const toGuide = await w.reader.api.get(`${w.sites}/${site.site.id}/redirect?source=/old-guide`);
      expect(toGuide.body.target).toBe(`${sys.url}${site.base}/guide`);
      expect((await w.reader.api.get(`${w.sites}/${site.site.id}/redirect?source=/nothing`)).status).toBe(404);

      // Promoting the draft makes it live; updating a destination changes where the site sends visitors.
      const promoted = await w.owner.api.patch(`${path()}/${draft.body.id}`, { draft: false, permanent: false });
      expect(promoted.status).toBe(200);
      expectSchema("updateSiteRedirectById", 200, promoted.body, { latest: true });
      expect(promoted.body.updatedAt).toBeDefined();
      const soon = await get(`${site.base}/soon`);
      expect(soon.status).toBe(307);
      expect(soon.headers["location"]).toBe(site.base);
      await w.owner.api.patch(`${path()}/${toPage.body.id}`, { destination: { kind: "external", url: "https://example.org/guide" } });
      expect((await get(`${site.base}/old-guide`)).headers["location"]).toBe("https://example.org/guide");

      const removed = await w.owner.api.delete(`${path()}/${toPage.body.id}`);
      expect(removed.status).toBe(205);
      expect((await w.owner.api.delete(`${path()}/${toPage.body.id}`)).status).toBe(204);
      expect((await get(`${site.base}/old-guide`)).status).toBe(404);
    });

    test("a path destination (GitBook's input kind) resolves to the page at that path in the published revision, stored and answered as site-page", async () => {
      const advancedId = (await w.owner.api.get(`/v1/spaces/${site.spaceId}/content/pages`)).body.pages.flatMap((p: any) => [p, ...(p.pages ?? [])]).find((p: any) => p.title === "Advanced").id;
      const created = await w.owner.api.post(path(), { source: "/old-advanced", destination: { kind: "path", spaceId: site.spaceId, path: "/guide/advanced" } });
      expect(created.status).toBe(201);
      expectSchema("createSiteRedirect", 201, created.body, { latest: true });
      expect(created.body.destination).toEqual({ kind: "site-page", siteSpaceId, pageId: advancedId });
      expect((await w.owner.api.get(path())).body.items.find((r: any) => r.id === created.body.id).destination).toEqual({ kind: "site-page", siteSpaceId, pageId: advancedId });
      const followed = await get(`${site.base}/old-advanced`);
      expect(followed.status).toBe(307);
      expect(followed.headers["location"]).toBe(`${site.base}/guide/advanced`);
      // A file path as Git writes it names the same page; an empty path the space's first page.
      const updated = await w.owner.api.patch(`${path()}/${created.body.id}`, { destination: { kind: "path", spaceId: site.spaceId, path: "guide/README.md" } });
      expect(updated.status).toBe(200);
      expect(updated.body.destination).toEqual({ kind: "site-page", siteSpaceId, pageId: guideId });
      const bulk = await w.owner.api.put(path(), { redirects: [{ source: "/start", destination: { kind: "path", spaceId: site.spaceId, path: "/" } }, { source: "/nowhere", destination: { kind: "path", spaceId: site.spaceId, path: "nowhere" } }] });
      expect(bulk.status).toBe(200);
      expect(bulk.body.results.map((r: any) => r.status)).toEqual(["created", "error"]);
      expect(bulk.body.results[1].error).toContain("redirects[1].destination.path");
      expect((await get(`${site.base}/start`)).headers["location"]).toBe(site.base);
      // Another organization's space is no space of the site.
      const foreign = await createOrg(w.outsider.api);
      const foreignSpace = await createSpace(w.outsider.api, foreign.id, { title: "Theirs" });
      const refused = await w.owner.api.post(path(), { source: "/theirs", destination: { kind: "path", spaceId: foreignSpace.id, path: "/" } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain("destination.spaceId");
    });

    test("bulk upsert creates, updates, deletes and publishes by source, with an error result for a bad item", async () => {
      const res = await w.owner.api.put(path(), {
        redirects: [
          { source: "/a", destination: { kind: "external", url: "https://example.com/a" } },
          { source: "/b", intent: "draft", destination: { kind: "site-space", siteSpaceId } },
          { source: "/a", destination: { kind: "external", url: "https://example.com/a2" }, permanent: true },
          { source: "/c", destination: { kind: "site-section", siteSectionId: "nosuchsection000" } },
          { source: "/b", intent: "publish" },
          { source: "/a", destination: null },
        ],
      });
      expect(res.status).toBe(200);
      expectSchema("bulkUpsertSiteRedirects", 200, res.body, { latest: true });
      expect(res.body.results.map((r: any) => r.status)).toEqual(["created", "created", "updated", "error", "published", "deleted"]);
      expect(res.body.results[3].error).toContain("redirects[3].destination.siteSectionId");
      expect((await get(`${site.base}/b`)).status).toBe(307);
      expect((await get(`${site.base}/a`)).status).toBe(404);
    });

    test("changes need create or admin, reads a role; other organizations 404; bad input 400 naming the field", async () => {
      const body = { source: "/x", destination: { kind: "external", url: "https://example.com/" } };
      for (const as of [w.reader, w.editor]) {
        const res = await as.api.post(path(), body);
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
      expect((await w.editor.api.put(path(), { redirects: [body] })).status).toBe(403);
      for (const res of [await w.outsider.api.get(path()), await w.outsider.api.post(path(), body), await w.outsider.api.get(`${w.sites}/${site.site.id}/redirect?source=/x`)]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      expect((await w.owner.api.as(undefined).get(path())).status).toBe(401);
      for (const [bad, field] of [
        [{ ...body, source: "no-slash" }, "source"],
        [{ ...body, source: "/a/*/b" }, "source"],
        [{ source: "/x" }, "destination"],
        [{ ...body, destination: { kind: "external" } }, "destination.url"],
        [{ ...body, destination: { kind: "site-space", siteSpaceId: "nosuchsitespace0" } }, "destination.siteSpaceId"],
        [{ ...body, destination: { kind: "path", spaceId: "s", path: "p" } }, "destination.spaceId"],
        [{ ...body, destination: { kind: "path", path: "guide" } }, "destination.spaceId"],
        [{ ...body, destination: { kind: "path", spaceId: site.spaceId, path: "no/such/page" } }, "destination.path"],
        [{ ...body, destination: { kind: "path", spaceId: site.spaceId, path: "%E0%A4%A" } }, "destination.path"],
        [{ ...body, destination: { kind: "path", spaceId: site.spaceId } }, "destination.path"],
        [{ ...body, permanent: "yes" }, "permanent"],
      ] as const) {
        const res = await w.owner.api.post(path(), bad);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      const twice = await w.owner.api.post(path(), { ...body, source: "/dup" });
      expect(twice.status).toBe(201);
      const dup = await w.owner.api.post(path(), { ...body, source: "/dup" });
      expect(dup.status).toBe(409);
      expectErrorBody(409, dup.body);
      expect((await w.owner.api.put(path(), { redirects: [] })).status).toBe(400);
      expect((await w.owner.api.get(`${path()}?orderBy=title`)).status).toBe(400);
      expect((await w.owner.api.get(`${w.sites}/${site.site.id}/redirect`)).status).toBe(400);
    });
  });

  describe("site structure", () => {
    test("a site without sections answers its site spaces; with sections, its sections and groups in order", async () => {
      const [a, b] = [await newSpace(w, "Alpha"), await newSpace(w, "Beta")];
      const plain = await newSite(w, { spaces: [a, b] });
      const flat = await w.reader.api.get(`${w.sites}/${plain.id}/structure`);
      expect(flat.status).toBe(200);
      expectSchema("getSiteStructure", 200, flat.body, { latest: true });
      expect(flat.body.type).toBe("siteSpaces");
      expect(flat.body.structure.map((s: any) => s.space.id)).toEqual([a, b]);

      const sectioned = await newSite(w);
      const first = await newSection(w, sectioned.id, "First");
      const second = await newSection(w, sectioned.id, "Second");
      const group = await w.owner.api.post(`${w.sites}/${sectioned.id}/section-groups`, { title: "More" });
      expect(group.status).toBe(201);
      expect((await w.owner.api.post(`${w.sites}/${sectioned.id}/section-groups/${group.body.id}/sections`, { sectionId: second.id })).status).toBeLessThan(300);
      const tree = await w.reader.api.get(`${w.sites}/${sectioned.id}/structure`);
      expect(tree.status).toBe(200);
      expectSchema("getSiteStructure", 200, tree.body, { latest: true });
      expect(tree.body.type).toBe("sections");
      expect(tree.body.structure.map((item: any) => [item.object, item.id])).toEqual([
        ["site-section", first.id],
        ["site-section-group", group.body.id],
      ]);
      expect(tree.body.structure[1].sections.map((s: any) => s.id)).toEqual([second.id]);
    });

    test("guests and other organizations 404 or 403 as for the site; a wrong share key 400; no token 401", async () => {
      const site = await newSite(w);
      const other = await w.outsider.api.get(`${w.sites}/${site.id}/structure`);
      expect(other.status).toBe(404);
      expectErrorBody(404, other.body);
      expect((await w.owner.api.get(`${w.sites}/nosuchsite000000/structure`)).status).toBe(404);
      expect((await w.owner.api.as(undefined).get(`${w.sites}/${site.id}/structure`)).status).toBe(401);
      const guest = await w.guest.api.get(`${w.sites}/${site.id}/structure`);
      expect([403, 404]).toContain(guest.status);
      expect((await w.guest.api.get(`${w.sites}/${site.id}/sections`)).status).toBe(guest.status);
      const badKey = await w.owner.api.get(`${w.sites}/${site.id}/structure?shareKey=nope`);
      expect(badKey.status).toBe(400);
      expect(badKey.body.error.message).toContain("shareKey");
    });
  });
});
