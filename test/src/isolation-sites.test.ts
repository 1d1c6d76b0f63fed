// Tenant isolation in sites, hostnames, teams and grants, transfers and specs (issue 21): the admins of
// two organizations attack each other with every operation of these areas that takes the other's ids.
// Complements sweep-authz.test.ts, which calls organization A's operations with A's ids as B's admin;
// here each admin uses their OWN organization with the OTHER's ids, claims names that route to the
// other, and moves content between the two.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, type Mode, startPrivate } from "./modes";
import { addPages, GUIDE_PAGES, html, rawGet, unique } from "./sites-serve-fixtures";

/** The instance's own host: sites may not claim it nor its subdomains, except under the listed suffix. */
const OWN_HOST = "docs.isolation.test";
const SUFFIX = `sites.${OWN_HOST}`;
const SPEC_USER = "spec-reader";
const SPEC_PASSWORD = "pa55-w0rd-of-the-spec";
const SPEC = JSON.stringify({ openapi: "3.0.3", info: { title: "Isolated", version: "1.0.0" }, paths: {} });

interface Org {
  admin: TestUser;
  id: string;
  sites: string;
  spaceId: string;
  teamId: string;
}

async function startWith(mode: Mode, env: Record<string, string>): Promise<RunningSystem> {
  return startPrivate(mode, env);
}

async function eventually(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe.each(MODES)("tenant isolation of sites, grants, transfers and specs (%s)", (mode) => {
  let sys: RunningSystem;
  let a: Org;
  let b: Org;
  let specServer: Server;
  let specPort: number;
  const saved: Record<string, string | undefined> = {};

  async function org(name: string): Promise<Org> {
    const admin = await createUser(sys.admin, { displayName: `${name} admin` });
    const id = (await createOrg(admin.api, `Org ${name}`)).id;
    const spaceId = (await createSpace(admin.api, id, { title: `${name} space` })).id;
    await addPages(sys, spaceId, GUIDE_PAGES);
    const team = await admin.api.put(`/v1/orgs/${id}/teams`, { title: `${name} team` });
    expect(team.status).toBe(201);
    return { admin, id, sites: `/v1/orgs/${id}/sites`, spaceId, teamId: team.body.id };
  }

  async function publishedSite(o: Org, spaceId = o.spaceId, body: Record<string, unknown> = {}): Promise<{ id: string }> {
    const site = await o.admin.api.post(o.sites, { title: "Docs", spaces: [spaceId], ...body });
    expect(site.status).toBe(201);
    expect((await o.admin.api.post(`${o.sites}/${site.body.id}/publish`)).status).toBe(200);
    return site.body;
  }

  beforeAll(async () => {
    specServer = createServer((req, res) => {
      const expected = `Basic ${Buffer.from(`${SPEC_USER}:${SPEC_PASSWORD}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return void res.writeHead(401).end();
      res.setHeader("Content-Type", "application/json");
      res.end(SPEC);
    });
    await new Promise<void>((resolve) => specServer.listen(0, "127.0.0.1", resolve));
    specPort = (specServer.address() as AddressInfo).port;
    // Child processes (NATS mode) take the variable from the environment.
    const env = { OPENAPI_FETCH_ALLOW_PRIVATE: `127.0.0.1:${specPort}` };
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    sys = await startWith(mode, { PUBLIC_URL: `http://${OWN_HOST}`, SITE_HOSTNAME_SUFFIXES: SUFFIX });
    [a, b] = await Promise.all([org("A"), org("B")]);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
    await new Promise((resolve) => specServer?.close(resolve));
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  describe("site basenames", () => {
    test("B cannot take A's unnamed site's URL: a basename in the shape of a site id is 400 naming basename, and /sites/{id} stays A's", async () => {
      const siteA = await publishedSite(a, a.spaceId, { title: "Site of A" });
      const siteB = await publishedSite(b, b.spaceId, { title: "Site of B" });
      for (const basename of [siteA.id, siteA.id.toLowerCase(), siteB.id]) {
        const res = await b.admin.api.patch(`${b.sites}/${siteB.id}`, { basename });
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain("basename");
      }
      expect((await b.admin.api.get(`${b.sites}/${siteB.id}`)).body.basename).toBeUndefined();
      const page = await rawGet(sys.url, `/sites/${siteA.id}`);
      expect(page.status).toBe(200);
      expect(html(page).querySelector("title")?.text).toContain("Site of A");
      expect(page.text).not.toContain("Site of B");
    });

    test("a basename is a lower-case slug: anything else is 400 naming basename; a slug is 200 and serves the site", async () => {
      const site = await publishedSite(b);
      for (const basename of ["Docs", "-docs", "docs-", "do cs", "docs/x", "docs.x", "a".repeat(20), "0123456789abcdefghij", "b".repeat(101)]) {
        const res = await b.admin.api.patch(`${b.sites}/${site.id}`, { basename });
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain("basename");
      }
      for (const basename of [unique("api"), `${"a".repeat(19)}-b`, "a".repeat(21), unique("x").slice(0, 10)]) {
        const res = await b.admin.api.patch(`${b.sites}/${site.id}`, { basename });
        expect(res.status).toBe(200);
        expectSchema("updateSiteById", 200, res.body);
        expect(res.body.basename).toBe(basename);
        expect((await rawGet(sys.url, `/sites/${basename}`)).status).toBe(200);
      }
    });
  });

  describe("site hostnames", () => {
    test("IP literals, localhost and the instance's own host are refused with 400 naming hostname", async () => {
      const site = await publishedSite(b);
      const refused = [
        "10.0.0.1",
        "127.0.0.1",
        "169.254.169.254",
        "1.2.3.4",
        "0x7f.0.0.1",
        "127.1.1",
        "[::1]",
        "::1",
        "fe80::1",
        "::ffff:127.0.0.1",
        "localhost",
        "api.docs.localhost",
        OWN_HOST,
        `api.${OWN_HOST}`,
        `x.y.${OWN_HOST}`,
        SUFFIX,
      ];
      for (const hostname of refused) {
        const res = await b.admin.api.patch(`${b.sites}/${site.id}`, { hostname });
        expect([hostname, res.status]).toEqual([hostname, 400]);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain("hostname");
      }
      expect((await b.admin.api.get(`${b.sites}/${site.id}`)).body.hostname).toBeUndefined();
      // Under the configured suffix, and any other domain, a site may claim a hostname.
      for (const hostname of [`acme.${SUFFIX}`, `${unique("docs")}.example.test`]) {
        const res = await b.admin.api.patch(`${b.sites}/${site.id}`, { hostname });
        expect(res.status).toBe(200);
        expectSchema("updateSiteById", 200, res.body);
        expect(res.body.hostname).toBe(hostname);
      }
    });

    test("a site's hostname never captures /v1, /health, /ready or /metrics; its pages are served at every other path, /sso's included", async () => {
      const site = await publishedSite(a, a.spaceId, { title: "Hosted" });
      const hostname = `${unique("docs")}.example.test`;
      expect((await a.admin.api.patch(`${a.sites}/${site.id}`, { hostname })).status).toBe(200);
      const Host = hostname;
      const root = await rawGet(sys.url, "/", { Host });
      expect(root.status).toBe(200);
      expect(html(root).querySelector("title")?.text).toContain("Hosted");
      const health = await rawGet(sys.url, "/health", { Host });
      expect(health.status).toBe(200);
      expect(JSON.parse(health.text)).toEqual({ status: "ok" });
      const ready = await rawGet(sys.url, "/ready", { Host });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text).status).toBe("ready");
      const user = await rawGet(sys.url, "/v1/user", { Host, authorization: `Bearer ${a.admin.token}` });
      expect(user.status).toBe(200);
      expect(JSON.parse(user.text).id).toBe(a.admin.id);
      const anonymous = await rawGet(sys.url, "/v1/user", { Host });
      expect(anonymous.status).toBe(401);
      expectErrorBody(401, JSON.parse(anonymous.text));
      for (const path of ["/metrics", "/v1"]) {
        const res = await rawGet(sys.url, path, { Host });
        expect([path, res.headers["content-type"]]).not.toEqual([path, expect.stringContaining("text/html")]);
      }
      // SSO answers only on the instance's own host (issue 36): on a site's hostname its paths are the site's.
      for (const path of ["/sso/saml/none/metadata", "/sso"]) {
        const res = await rawGet(sys.url, path, { Host });
        expect([path, res.status, res.headers["content-type"]]).toEqual([path, 404, expect.stringContaining("text/html")]);
      }
      // A page path that merely starts like one of them is still the site's.
      expect((await rawGet(sys.url, "/v1x", { Host })).headers["content-type"]).toContain("text/html");
    });

    test("B cannot claim the hostname A's site holds (409 naming hostname)", async () => {
      const siteA = await publishedSite(a);
      const siteB = await publishedSite(b);
      const hostname = `${unique("taken")}.example.test`;
      expect((await a.admin.api.patch(`${a.sites}/${siteA.id}`, { hostname })).status).toBe(200);
      const clash = await b.admin.api.patch(`${b.sites}/${siteB.id}`, { hostname });
      expect(clash.status).toBe(409);
      expectErrorBody(409, clash.body);
      expect(clash.body.error.message).toContain("hostname");
    });
  });

  describe("site contents from another organization", () => {
    test("A's site cannot list, add or section B's space, on creation or later (400 naming the field)", async () => {
      const created = await a.admin.api.post(a.sites, { title: "Mixed", spaces: [b.spaceId] });
      expect(created.status).toBe(400);
      expect(created.body.error.message).toContain("spaces[0]");
      const site = await publishedSite(a);
      const added = await a.admin.api.post(`${a.sites}/${site.id}/site-spaces`, { spaceId: b.spaceId });
      expect(added.status).toBe(400);
      expectErrorBody(400, added.body);
      expect(added.body.error.message).toContain("spaceId");
      const section = await a.admin.api.post(`${a.sites}/${site.id}/sections`, { spaceId: b.spaceId, title: "Stolen" });
      expect(section.status).toBe(400);
      expect(section.body.error.message).toContain("spaceId");
      const listed = await a.admin.api.get(`${a.sites}/${site.id}/site-spaces`);
      expect(JSON.stringify(listed.body)).not.toContain(b.spaceId);
    });

    test("A's organization id with B's site id is 404 for every site operation (DELETE 204 for none), and B's site is unchanged", async () => {
      const siteB = await publishedSite(b, b.spaceId, { title: "Untouched" });
      const base = `${a.sites}/${siteB.id}`;
      const calls: Array<[string, string, unknown?]> = [
        ["GET", base],
        ["PATCH", base, { title: "Taken over" }],
        ["POST", `${base}/unpublish`],
        ["GET", `${base}/site-spaces`],
        ["POST", `${base}/site-spaces`, { spaceId: a.spaceId }],
        ["GET", `${base}/share-links`],
        ["POST", `${base}/share-links`, { name: "Mine now" }],
        ["GET", `${base}/sections`],
        ["POST", `${base}/sections`, { spaceId: a.spaceId, title: "Mine" }],
        ["PUT", `${base}/customization`, {}],
      ];
      for (const [method, path, body] of calls) {
        const res = await a.admin.api.request(method, path, body);
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expectErrorBody(404, res.body);
      }
      // DELETE answers 204 whether or not there was such a site (GitBook's idempotent delete), and deletes nothing of B's.
      expect((await a.admin.api.delete(base)).status).toBe(204);
      const after = await b.admin.api.get(`${b.sites}/${siteB.id}`);
      expect(after.body).toMatchObject({ title: "Untouched", published: true });
      expect((await b.admin.api.get(`${b.sites}/${siteB.id}/share-links`)).body.items).toEqual([]);
    });

    test("a share key of A's site opens neither B's share-link site nor B's space", async () => {
      const siteA = await publishedSite(a, a.spaceId, { visibility: "share-link" });
      const siteB = await publishedSite(b, b.spaceId, { visibility: "share-link" });
      const link = await a.admin.api.post(`${a.sites}/${siteA.id}/share-links`, { name: "A's link" });
      expect(link.status).toBe(201);
      const key = new URL(link.body.urls.published).searchParams.get("share")!;
      expect((await rawGet(sys.url, `/sites/${siteA.id}?share=${encodeURIComponent(key)}`)).status).toBe(200);
      expect((await rawGet(sys.url, `/sites/${siteB.id}?share=${encodeURIComponent(key)}`)).status).toBe(404);
      // B's space, asked for with A's key by A's admin: not theirs to see.
      const space = await a.admin.api.get(`/v1/spaces/${b.spaceId}?shareKey=${encodeURIComponent(key)}`);
      expect(space.status).toBe(404);
      expectErrorBody(404, space.body);
    });
  });

  describe("teams and grants", () => {
    test("A's admin cannot grant B's team or B's admin on A's space or collection (400), nor touch B's team", async () => {
      const collection = await a.admin.api.post(`/v1/orgs/${a.id}/collections`, { title: "Granted" });
      expect(collection.status).toBe(201);
      const invites: Array<[string, unknown, string]> = [
        [`/v1/spaces/${a.spaceId}/permissions`, { role: "read", teams: [b.teamId] }, "teams"],
        [`/v1/spaces/${a.spaceId}/permissions`, { role: "read", users: [b.admin.id] }, "users"],
        [`/v1/collections/${collection.body.id}/permissions`, { role: "read", teams: [b.teamId] }, "teams"],
        [`/v1/collections/${collection.body.id}/permissions`, { role: "read", users: [b.admin.id] }, "users"],
      ];
      for (const [path, body, field] of invites) {
        const res = await a.admin.api.post(path, body);
        expect([path, field, res.status]).toEqual([path, field, 400]);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      for (const path of [`/v1/spaces/${a.spaceId}/permissions/teams/${b.teamId}`, `/v1/collections/${collection.body.id}/permissions/teams/${b.teamId}`]) {
        const res = await a.admin.api.patch(path, { role: "admin" });
        expect([path, res.status]).toEqual([path, 404]);
      }
      expect((await a.admin.api.get(`/v1/spaces/${a.spaceId}/permissions/teams`)).body.items).toEqual([]);
      // B's admin still cannot read A's space.
      expect((await b.admin.api.get(`/v1/spaces/${a.spaceId}`)).status).toBe(404);
      // B's team, addressed through A's organization: 404; B's team keeps its members.
      const member = await a.admin.api.put(`/v1/orgs/${a.id}/teams/${b.teamId}/members/${a.admin.id}`);
      expect(member.status).toBe(404);
      const rename = await a.admin.api.patch(`/v1/orgs/${a.id}/teams/${b.teamId}`, { title: "Renamed by A" });
      expect(rename.status).toBe(404);
      // A's own team cannot take in B's admin, who is no member of A.
      const outsider = await a.admin.api.put(`/v1/orgs/${a.id}/teams/${a.teamId}/members/${b.admin.id}`);
      expect(outsider.status).toBeGreaterThanOrEqual(400);
      expect(outsider.status).toBeLessThan(500);
      expect((await b.admin.api.get(`/v1/orgs/${b.id}/teams/${b.teamId}`)).body.title).toBe("B team");
    });
  });

  describe("transfers", () => {
    test("A's admin cannot transfer a space or a collection into B without being B's admin (404 outsider, 403 member)", async () => {
      const space = await createSpace(a.admin.api, a.id, { title: "Pushed" });
      const collection = await a.admin.api.post(`/v1/orgs/${a.id}/collections`, { title: "Pushed" });
      const pushes = [`/v1/spaces/${space.id}/transfer`, `/v1/collections/${collection.body.id}/transfer`];
      for (const path of pushes) {
        const res = await a.admin.api.post(path, { organization: b.id });
        expect([path, res.status]).toEqual([path, 404]);
        expectErrorBody(404, res.body);
      }
      // A member of B below admin: 403.
      await addMember(b.admin.api, b.id, a.admin.email, "create");
      try {
        for (const path of pushes) {
          const res = await a.admin.api.post(path, { organization: b.id });
          expect([path, res.status]).toEqual([path, 403]);
          expectErrorBody(403, res.body);
        }
      } finally {
        expect((await b.admin.api.delete(`/v1/orgs/${b.id}/members/${a.admin.id}`)).status).toBe(204);
      }
      expect((await a.admin.api.get(`/v1/spaces/${space.id}`)).body.organization).toBe(a.id);
      // And B's admin cannot pull A's content into B.
      for (const path of pushes) expect((await b.admin.api.post(path, { organization: b.id })).status).toBe(404);
    });

    test("a collection transferred to B takes its spaces out of A's sites, with A's grants", async () => {
      const mover = await createUser(sys.admin, { displayName: "Admin of both" });
      await addMember(a.admin.api, a.id, mover.email, "admin");
      await addMember(b.admin.api, b.id, mover.email, "admin");
      const collection = await a.admin.api.post(`/v1/orgs/${a.id}/collections`, { title: "Moving" });
      expect(collection.status).toBe(201);
      const spaceId = (await createSpace(a.admin.api, a.id, { title: "Moving space", parent: collection.body.id })).id;
      await addPages(sys, spaceId, GUIDE_PAGES);
      expect((await a.admin.api.post(`/v1/spaces/${spaceId}/permissions`, { role: "edit", teams: [a.teamId] })).status).toBe(204);
      const site = await publishedSite(a, spaceId, { title: "Publishes the collection" });
      expect((await rawGet(sys.url, `/sites/${site.id}/guide`)).status).toBe(200);

      const moved = await mover.api.post(`/v1/collections/${collection.body.id}/transfer`, { organization: b.id });
      expect(moved.status).toBe(200);
      // Content moves the collection's spaces when it hears of the transfer, a moment after the answer.
      await eventually(async () => (await b.admin.api.get(`/v1/spaces/${spaceId}`)).body.organization === b.id, "the space is in B");
      // The site of A no longer has the space, so no longer serves its pages.
      await eventually(async () => (await a.admin.api.get(`${a.sites}/${site.id}/site-spaces`)).body.items.length === 0, "the site space is gone");
      expect((await rawGet(sys.url, `/sites/${site.id}/guide`)).status).toBe(404);
      const listed = await a.admin.api.get(`${a.sites}?space=${spaceId}`);
      expect(listed.body.items).toEqual([]);
      // A's team grant stayed behind in A.
      expect((await b.admin.api.get(`/v1/spaces/${spaceId}/permissions/teams`)).body.items).toEqual([]);
    });
  });

  describe("OpenAPI specs", () => {
    test("a source URL's user:password is used to fetch but never shown, not to readers nor in versions", async () => {
      const reader = await createUser(sys.admin);
      await addMember(a.admin.api, a.id, reader.email, "read");
      const url = `http://${SPEC_USER}:${SPEC_PASSWORD}@127.0.0.1:${specPort}/spec.json`;
      const slug = unique("spec");
      const created = await a.admin.api.post(`/v1/orgs/${a.id}/openapi`, { slug, source: { url } });
      expect(created.status).toBe(201);
      expectSchema("createOpenAPISpec", 201, created.body);
      expect(created.body.sourceURL).toBe(`http://127.0.0.1:${specPort}/spec.json`);
      const spec = `/v1/orgs/${a.id}/openapi/${slug}`;
      await eventually(async () => (await a.admin.api.get(spec)).body.processingState === "complete", "the spec is processed");
      const answers = [
        await a.admin.api.get(spec),
        await reader.api.get(spec),
        await reader.api.get(`/v1/orgs/${a.id}/openapi`),
        await reader.api.get(`${spec}/versions`),
        await reader.api.get(`${spec}/versions/latest`),
        await reader.api.get(`${spec}/versions/latest/content`),
      ];
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.body)).not.toContain(SPEC_PASSWORD);
        expect(JSON.stringify(res.body)).not.toContain(`${SPEC_USER}:`);
      }
      expect(answers[4].body.url).toBe(`http://127.0.0.1:${specPort}/spec.json`);
      // The credentials were sent: the server answers 401 without them, and the version holds the spec.
      expect(answers[5].body.filesystem["openapi.json"].info.title).toBe("Isolated");
      // B's admin sees nothing of it.
      expect((await b.admin.api.get(spec)).status).toBe(404);
    });
  });
});
