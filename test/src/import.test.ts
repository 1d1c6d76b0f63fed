// Website import into a space through HTTP, in every process mode, against sites on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, startPrivate } from "./modes";

interface Host {
  server: Server;
  port: number;
  /** TCP connections the listener accepted. */
  connections: number;
}

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Host> {
  const host: Host = { server: createServer(handle), port: 0, connections: 0 };
  host.server.on("connection", () => host.connections++);
  await new Promise<void>((resolve) => host.server.listen(0, "127.0.0.1", resolve));
  host.port = (host.server.address() as AddressInfo).port;
  return host;
}

async function close(host: Host | undefined): Promise<void> {
  if (!host) return;
  host.server.closeAllConnections();
  await new Promise((resolve) => host.server.close(resolve));
}

const html = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

const MAX_PAGES = 4;
const TIMEOUT_MS = 2000;

function serveSite(internalPort: () => number) {
  const pages: Record<string, string> = {
    "/": html("Home", `<h1>Acme docs</h1><p>Welcome to the <a href="/guide/install.html">install guide</a> and <a href="/about">about</a>.</p>`),
    "/guide/install.html": html("Install", `<h1>Installing Acme</h1><p>Run the wombatprism installer.</p><pre><code class="language-sh">acme install</code></pre><p><a href="/">Home</a></p>`),
    "/about": html("About", `<h1>About</h1><p>Made by <strong>people</strong>.</p>`),
    "/many/": html("Many", `<h1>Many</h1>${[1, 2, 3, 4, 5, 6].map((i) => `<a href="/many/${i}">Page ${i}</a>`).join(" ")}`),
  };
  for (let i = 1; i <= 6; i++) pages[`/many/${i}`] = html(`Many ${i}`, `<h1>Many ${i}</h1><p>Text ${i}.</p>`);
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    const page = pages[path];
    if (page !== undefined) return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    if (path === "/to-internal") return res.writeHead(302, { location: `http://127.0.0.1:${internalPort()}/` }).end();
    if (path === "/to-metadata") return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (path === "/slow") return; // never answers: the import runs out of time
    res.writeHead(404, { "content-type": "text/html" }).end(html("Missing", "<p>missing</p>"));
  };
}

const ENV_KEYS = ["CONTENT_IMPORT_ALLOW_PRIVATE", "CONTENT_IMPORT_MAX_PAGES", "CONTENT_IMPORT_TIMEOUT_MS"] as const;

describe.each(MODES)("website import over %s", (mode) => {
  let sys: RunningSystem;
  let site: Host;
  let internal: Host;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let spaceId: string;
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};
  const siteUrl = (path: string) => `http://127.0.0.1:${site.port}${path}`;
  const importPath = (id: string) => `/v1/spaces/${id}/content/import`;

  beforeAll(async () => {
    // A listener that must never be reached: on 127.0.0.1 but not in the allowance.
    internal = await listen((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html("Internal", "<h1>Internal secrets</h1>")));
    site = await listen(serveSite(() => internal.port));
    for (const key of ENV_KEYS) saved[key] = process.env[key];
    // The content service reads these at start; both modes pass this process's environment on.
    process.env.CONTENT_IMPORT_ALLOW_PRIVATE = `127.0.0.1:${site.port}`;
    process.env.CONTENT_IMPORT_MAX_PAGES = String(MAX_PAGES);
    process.env.CONTENT_IMPORT_TIMEOUT_MS = String(TIMEOUT_MS);
    sys = await startPrivate(mode) /* its own: it sets the environment */;
    [owner, editor, reader, guest, outsider] = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, guest.email, null);
    spaceId = (await createSpace(owner.api, orgId, { title: "Imports" })).id;
  });

  afterAll(async () => {
    await sys?.stop();
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await close(site);
    await close(internal);
  });

  async function currentRevision(id: string): Promise<string> {
    const res = await owner.api.get(`/v1/spaces/${id}`);
    expect(res.status).toBe(200);
    return res.body.revision;
  }

  function paths(pages: any[]): string[] {
    return pages.flatMap((p: any) => [p.path, ...paths(p.pages ?? [])]);
  }

  test("imports a site's pages as new pages of a new current revision (201, GitBook's ImportContentResult)", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Acme" });
    expect((await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "faq" })).status).toBe(201);
    const before = await currentRevision(space.id);

    const res = await editor.api.post(importPath(space.id), { source: "website", url: siteUrl("/") });
    expect(res.status).toBe(201);
    expectSchema("importContent", 201, res.body);
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 3 });
    expect(res.headers.get("location")).toBe(`${new URL(res.headers.get("location")!).origin}/v1/spaces/${space.id}/revisions/${res.body.revision}`);

    expect(await currentRevision(space.id)).toBe(res.body.revision);
    const revision = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(revision.body.parents).toEqual([before]);
    // The template's pages stay; the site's pages come after them, nested by URL path.
    expect(paths(revision.body.pages)).toEqual(["faq", "faq/accounts", "faq/billing", "index", "about", "guide", "guide/install"]);

    const install = await owner.api.get(`/v1/spaces/${space.id}/content/path/guide/install`);
    expect(install.status).toBe(200);
    expect(install.body.title).toBe("Installing Acme");
    expect(install.body.markdown).toContain("Run the wombatprism installer.");
    expect(install.body.markdown).toContain("```sh\nacme install\n```");
    const home = await owner.api.get(`/v1/spaces/${space.id}/content/path/index`);
    expect(home.body.title).toBe("Acme docs");
    expect(home.body.markdown).toContain("[install guide](guide/install)");

    // The imported text is searchable at once.
    const found = await reader.api.get(`/v1/spaces/${space.id}/search?query=wombatprism`);
    expect(found.status).toBe(200);
    expect(found.body.items.map((p: any) => p.path)).toEqual(["guide/install"]);
  });

  test("imports at most CONTENT_IMPORT_MAX_PAGES pages and reports how many it found", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Many" });
    const res = await owner.api.post(importPath(space.id), { source: "website", url: siteUrl("/many/") });
    expect(res.status).toBe(201);
    expectSchema("importContent", 201, res.body);
    expect(res.body.importedResources).toBe(MAX_PAGES);
    expect(res.body.totalResources).toBe(7);
    const pages = await owner.api.get(`/v1/spaces/${space.id}/content/pages`);
    // "many" (the start page) and the first three linked pages.
    expect(paths(pages.body.pages)).toEqual(["many", "many/1", "many/2", "many/3"]);
  });

  test("a start page that does not answer in time is 400 and changes nothing", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Slow" });
    const before = await currentRevision(space.id);
    const started = Date.now();
    const res = await owner.api.post(importPath(space.id), { source: "website", url: siteUrl("/slow") });
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5000);
    expect(await currentRevision(space.id)).toBe(before);
  });

  test("a start page the site answers 404 is 400", async () => {
    const res = await owner.api.post(importPath(spaceId), { source: "website", url: siteUrl("/nowhere") });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("404");
  });

  describe("refuses private addresses (SSRF)", () => {
    test("a URL on 127.0.0.1 outside the allowance is 400 with safe-fetch's message, and the listener sees no connection", async () => {
      const before = await currentRevision(spaceId);
      const res = await owner.api.post(importPath(spaceId), { source: "website", url: `http://127.0.0.1:${internal.port}/` });
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("private or reserved network address");
      expect(internal.connections).toBe(0);
      expect(await currentRevision(spaceId)).toBe(before);
    });

    test("a redirect from the allowed site to a private address is 400 and never reaches it", async () => {
      const res = await owner.api.post(importPath(spaceId), { source: "website", url: siteUrl("/to-internal") });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("private or reserved network address");
      expect(internal.connections).toBe(0);
    });

    test.each([
      ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
      ["localhost", "http://localhost:9/"],
      ["a private network address", "http://10.0.0.1/"],
    ])("%s is 400", async (_what, url) => {
      const res = await owner.api.post(importPath(spaceId), { source: "website", url });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("private or reserved network address");
    });

    test("a redirect to the cloud metadata address is 400", async () => {
      const res = await owner.api.post(importPath(spaceId), { source: "website", url: siteUrl("/to-metadata") });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("private or reserved network address");
    });
  });

  describe("validation", () => {
    test.each([
      ["no url", "url", { source: "website" }],
      ["a url that is not a URL", "url", { source: "website", url: "not a url" }],
      ["a url that is not http(s)", "url", { source: "website", url: "file:///etc/passwd" }],
      ["a url over 2048 characters", "url", { source: "website", url: `https://example.com/${"a".repeat(2048)}` }],
      ["no source", "source", { url: "https://example.com/" }],
      ["an unknown source", "source", { source: "ftp", url: "https://example.com/" }],
      ["a GitBook source that is not supported", "source", { source: "notion", url: "https://example.com/" }],
    ])("%s is 400 naming %s", async (_what, field, body) => {
      const res = await owner.api.post(importPath(spaceId), body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });
  });

  describe("access", () => {
    test("no token is 401", async () => {
      const res = await owner.api.as(undefined).post(importPath(spaceId), { source: "website", url: siteUrl("/") });
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    });

    test("a reader is 403 and nothing is fetched", async () => {
      const before = await currentRevision(spaceId);
      const res = await reader.api.post(importPath(spaceId), { source: "website", url: `http://127.0.0.1:${internal.port}/` });
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
      expect(await currentRevision(spaceId)).toBe(before);
    });

    test("a guest and a non-member get 404", async () => {
      for (const user of [guest, outsider]) {
        const res = await user.api.post(importPath(spaceId), { source: "website", url: siteUrl("/") });
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      const missing = await owner.api.post(importPath("nosuchspace"), { source: "website", url: siteUrl("/") });
      expect(missing.status).toBe(404);
    });

    test("a locked space is 403", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Locked", editMode: "locked" });
      const res = await owner.api.post(importPath(space.id), { source: "website", url: siteUrl("/") });
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    });
  });
});
