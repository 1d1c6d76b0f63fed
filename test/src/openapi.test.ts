// API-description specs through HTTP, in every process mode: hosting, processing, versions, access.
// A local HTTP server plays the spec hosts; only its own address:port is allowed although private.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, walkPages, type ApiClient, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, startPrivate } from "./modes";

// ---- spec fixtures -------------------------------------------------------------------------------

const json = (doc: object) => JSON.stringify(doc);
const openapi30 = (title = "Pets 3.0") => ({
  openapi: "3.0.3",
  info: { title, version: "1.0.0" },
  paths: { "/pets": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } } } } },
  components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
});
const openapi31 = (title = "Pets 3.1") => ({ ...openapi30(title), openapi: "3.1.0" });
const swagger20 = (title = "Pets 2.0") => ({
  swagger: "2.0",
  info: { title, version: "1.0.0" },
  paths: { "/pets": { get: { responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Pet" } } } } } },
  definitions: { Pet: { type: "object", properties: { name: { type: "string" } } } },
});
const yaml30 = `openapi: 3.0.3
info:
  title: Pets 3.0 YAML
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Pet"
components:
  schemas:
    Pet:
      type: object
      properties:
        name:
          type: string
`;
const yaml31 = yaml30.replace("openapi: 3.0.3", "openapi: 3.1.0").replace("Pets 3.0 YAML", "Pets 3.1 YAML");
const yaml20 = `swagger: "2.0"
info:
  title: Pets 2.0 YAML
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
          schema:
            $ref: "#/definitions/Pet"
definitions:
  Pet:
    type: object
    properties:
      name:
        type: string
`;

// ---- the spec hosts ----------------------------------------------------------------------------

interface Host {
  server: Server;
  port: number;
  connections: number;
  /** Paths whose answer tests change while the suite runs. */
  dynamic: Map<string, string>;
}

async function listen(handle: (req: IncomingMessage, res: ServerResponse, host: Host) => void): Promise<Host> {
  const host: Host = { server: createServer((req, res) => handle(req, res, host)), port: 0, connections: 0, dynamic: new Map() };
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

const MAX_BYTES = 64 * 1024;
const FIXED: Record<string, string> = {
  "/v30.json": json(openapi30()),
  "/v31.json": json(openapi31()),
  "/v20.json": json(swagger20()),
  "/v30.yaml": yaml30,
  "/v31.yaml": yaml31,
  "/v20.yaml": yaml20,
  "/invalid.json": json({ openapi: "3.0.3", paths: {} }),
  "/not-a-spec": "{ this is: [not json",
  "/huge.json": json({ ...openapi30(), "x-padding": "x".repeat(MAX_BYTES * 2) }),
};

function serveSpecs(internalPort: () => number) {
  return (req: IncomingMessage, res: ServerResponse, host: Host) => {
    const path = req.url ?? "/";
    const body = host.dynamic.get(path) ?? FIXED[path];
    if (body !== undefined) return res.writeHead(200, { "content-type": path.endsWith(".yaml") ? "application/yaml" : "application/json" }).end(body);
    if (path === "/slow.json") return; // never answers: the fetch times out
    if (path === "/to-internal") return res.writeHead(302, { location: `http://127.0.0.1:${internalPort()}/v30.json` }).end();
    res.writeHead(404).end("missing");
  };
}

// ---- the suite -----------------------------------------------------------------------------------

const ENV_KEYS = ["OPENAPI_FETCH_ALLOW_PRIVATE", "OPENAPI_FETCH_TIMEOUT_MS", "OPENAPI_MAX_BYTES"] as const;

describe.each(MODES)("OpenAPI specs over %s", (mode) => {
  let sys: RunningSystem;
  let docs: Host;
  let internal: Host;
  let owner: TestUser;
  let reader: TestUser;
  let creator: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let prefix: string;
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};
  let counter = 0;
  const slug = (name = "spec") => `${name}-${Date.now().toString(36)}-${counter++}`;
  const url = (path: string) => `http://127.0.0.1:${docs.port}${path}`;

  beforeAll(async () => {
    internal = await listen(serveSpecs(() => 0));
    docs = await listen(serveSpecs(() => internal.port));
    for (const key of ENV_KEYS) saved[key] = process.env[key];
    // The service reads these at start; both modes pass this process's environment on.
    process.env.OPENAPI_FETCH_ALLOW_PRIVATE = `127.0.0.1:${docs.port}`;
    process.env.OPENAPI_FETCH_TIMEOUT_MS = "1000";
    process.env.OPENAPI_MAX_BYTES = String(MAX_BYTES);
    sys = await startPrivate(mode) /* its own: it sets the environment */;
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    prefix = `/v1/orgs/${orgId}/openapi`;
    [reader, creator, guest, outsider] = await Promise.all([createUser(sys.admin), createUser(sys.admin), createUser(sys.admin), createUser(sys.admin)]);
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, creator.email, "create");
    await addMember(owner.api, orgId, guest.email, null);
  });

  afterAll(async () => {
    await sys?.stop();
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await close(docs);
    await close(internal);
  });

  /** Polls the spec until its processing finished (state `complete`), with a deadline. */
  async function settled(specSlug: string, api: ApiClient = owner.api, after?: string): Promise<any> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await api.get(`${prefix}/${specSlug}`);
      expect(res.status).toBe(200);
      const done = res.body.processingState === "complete" && (after === undefined || res.body.lastProcessedAt !== after);
      if (done) return res.body;
      if (Date.now() > deadline) throw new Error(`spec ${specSlug} still ${res.body.processingState} after 20 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function createFromUrl(path: string, name?: string): Promise<{ slug: string; body: any }> {
    const s = slug(name);
    const res = await owner.api.post(prefix, { slug: s, source: { url: url(path) } });
    expect(res.status).toBe(201);
    return { slug: s, body: res.body };
  }

  describe("processing", () => {
    test.each([
      ["/v30.json", "Pets 3.0"],
      ["/v31.json", "Pets 3.1"],
      ["/v20.json", "Pets 2.0"],
      ["/v30.yaml", "Pets 3.0 YAML"],
      ["/v31.yaml", "Pets 3.1 YAML"],
      ["/v20.yaml", "Pets 2.0 YAML"],
    ])("a spec created from %s answers 201 pending at once, then completes with a first version", async (path, title) => {
      const { slug: s, body } = await createFromUrl(path);
      expectSchema("createOpenAPISpec", 201, body);
      expect(body).toMatchObject({ object: "openapi-spec", slug: s, sourceURL: url(path), processingState: "pending", visibility: "private" });
      expect(body.permissions).toEqual({ view: true, edit: true });
      expect(body.urls.location.endsWith(`${prefix}/${s}`)).toBe(true);

      const spec = await settled(s);
      expectSchema("getOpenAPISpecBySlug", 200, spec);
      expect(spec.lastVersion).toEqual(expect.any(String));
      expect(spec.lastProcessErrorCode).toBeUndefined();
      expect(spec.lastProcessedAt).toEqual(expect.any(String));

      const latest = await owner.api.get(`${prefix}/${s}/versions/latest`);
      expect(latest.status).toBe(200);
      expectSchema("getLatestOpenAPISpecVersion", 200, latest.body);
      expect(latest.body).toMatchObject({ object: "openapi-spec-version", id: spec.lastVersion, url: url(path) });
      expect(latest.body.urls.location.endsWith(`${prefix}/${s}/versions/${spec.lastVersion}`)).toBe(true);

      const content = await owner.api.get(`${prefix}/${s}/versions/latest/content`);
      expect(content.status).toBe(200);
      expectSchema("getLatestOpenAPISpecVersionContent", 200, content.body);
      expect(content.body.url).toBe(url(path));
      expect(content.body.filesystem["openapi.json"].info.title).toBe(title);
      // Internal $refs are kept as they are, not inlined.
      expect(JSON.stringify(content.body.filesystem)).toContain('"$ref":"#/');
    });

    test("a spec sent as text is processed; its version url is its content in this API", async () => {
      const s = slug("text");
      const res = await owner.api.post(prefix, { slug: s, source: { text: yaml31 } });
      expect(res.status).toBe(201);
      expectSchema("createOpenAPISpec", 201, res.body);
      expect(res.body.sourceURL).toBeUndefined();
      const spec = await settled(s);
      const version = await owner.api.get(`${prefix}/${s}/versions/${spec.lastVersion}`);
      expect(version.status).toBe(200);
      expectSchema("getOpenAPISpecVersionById", 200, version.body);
      expect(version.body.url).toBe(`${version.body.urls.location}/content`);
      const content = await owner.api.get(`${prefix}/${s}/versions/${spec.lastVersion}/content`);
      expect(content.status).toBe(200);
      expectSchema("getOpenAPISpecVersionContentById", 200, content.body);
      expect(content.body.filesystem["openapi.json"].openapi).toBe("3.1.0");
    });

    test.each([
      ["/invalid.json", "PARSE_ERROR", "an invalid OpenAPI document"],
      ["/not-a-spec", "PARSE_ERROR", "text that is not JSON or YAML"],
      ["/slow.json", "FETCH_TIMEOUT", "a server slower than the fetch timeout"],
      ["/huge.json", "FETCH_ERROR", "a body over the size cap"],
      ["/missing.json", "FETCH_ERROR", "a 404"],
    ])("%s ends complete with lastProcessErrorCode %s (%s) and no version", async (path, code) => {
      const { slug: s } = await createFromUrl(path);
      const spec = await settled(s);
      expectSchema("getOpenAPISpecBySlug", 200, spec);
      expect(spec.lastProcessErrorCode).toBe(code);
      expect(spec.lastProcessedErrors?.[0]?.message).toEqual(expect.any(String));
      expect(spec.lastVersion).toBeUndefined();
      const latest = await owner.api.get(`${prefix}/${s}/versions/latest`);
      expect(latest.status).toBe(404);
      expectErrorBody(404, latest.body);
    });

    test("a failed update keeps serving the last good version; a good one adds a version and clears the error", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      const first = await settled(s);

      const broken = await owner.api.put(`${prefix}/${s}`, { source: { url: url("/invalid.json") } });
      expect(broken.status).toBe(200);
      expectSchema("createOrUpdateOpenAPISpecBySlug", 200, broken.body);
      expect(broken.body.processingState).toBe("pending");
      const failed = await settled(s, owner.api, first.lastProcessedAt);
      expect(failed).toMatchObject({ lastProcessErrorCode: "PARSE_ERROR", lastVersion: first.lastVersion });
      const still = await owner.api.get(`${prefix}/${s}/versions/latest/content`);
      expect(still.body.filesystem["openapi.json"].info.title).toBe("Pets 3.0");

      const fixed = await owner.api.put(`${prefix}/${s}`, { source: { url: url("/v31.json") } });
      expect(fixed.status).toBe(200);
      const second = await settled(s, owner.api, failed.lastProcessedAt);
      expect(second.lastProcessErrorCode).toBeUndefined();
      expect(second.lastVersion).not.toBe(first.lastVersion);

      const list = await owner.api.get(`${prefix}/${s}/versions`);
      expect(list.status).toBe(200);
      expectSchema("listOpenAPISpecVersions", 200, list.body);
      expect(list.body.count).toBe(2);
      expect(list.body.items.map((v: { id: string }) => v.id)).toEqual([second.lastVersion, first.lastVersion]);
      const old = await owner.api.get(`${prefix}/${s}/versions/${first.lastVersion}/content`);
      expect(old.body.filesystem["openapi.json"].info.title).toBe("Pets 3.0");
    });

    test("sending the same content again makes no new version", async () => {
      const s = slug("same");
      await owner.api.post(prefix, { slug: s, source: { text: json(openapi30()) } });
      const first = await settled(s);
      const again = await owner.api.put(`${prefix}/${s}`, { source: { text: json(openapi30()) } });
      expect(again.status).toBe(200);
      const second = await settled(s, owner.api, first.lastProcessedAt);
      expect(second.lastVersion).toBe(first.lastVersion);
      expect((await owner.api.get(`${prefix}/${s}/versions`)).body.count).toBe(1);
    });
  });

  describe("fetching is SSRF-safe", () => {
    test("a loopback URL outside the allowance is refused and its listener sees no connection", async () => {
      const before = internal.connections;
      const s = slug("private");
      const res = await owner.api.post(prefix, { slug: s, source: { url: `http://127.0.0.1:${internal.port}/v30.json` } });
      expect(res.status).toBe(201);
      const spec = await settled(s);
      expect(spec.lastProcessErrorCode).toBe("FETCH_ERROR");
      expect(spec.lastProcessedErrors[0].message).toMatch(/private/);
      expect(internal.connections).toBe(before);
    });

    test("a redirect from the allowed host to a private address:port is refused before connecting", async () => {
      const before = internal.connections;
      const { slug: s } = await createFromUrl("/to-internal");
      const spec = await settled(s);
      expect(spec.lastProcessErrorCode).toBe("FETCH_ERROR");
      expect(internal.connections).toBe(before);
    });
  });

  describe("endpoints", () => {
    test("PUT creates a missing spec (200) and replaces the source of an existing one", async () => {
      const s = slug("put");
      const created = await owner.api.put(`${prefix}/${s}`, { source: { url: url("/v20.json") } });
      expect(created.status).toBe(200);
      expectSchema("createOrUpdateOpenAPISpecBySlug", 200, created.body);
      expect(created.body).toMatchObject({ slug: s, processingState: "pending", sourceURL: url("/v20.json") });
      const replaced = await owner.api.put(`${prefix}/${s}`, { source: { url: url("/v30.yaml") } });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ id: created.body.id, sourceURL: url("/v30.yaml"), processingState: "pending" });
      const done = await settled(s);
      const content = await owner.api.get(`${prefix}/${s}/versions/${done.lastVersion}/content`);
      expect(content.body.filesystem["openapi.json"].info.title).toBe("Pets 3.0 YAML");
    });

    test("PATCH sets the visibility", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      const res = await owner.api.patch(`${prefix}/${s}`, { visibility: "public" });
      expect(res.status).toBe(200);
      expectSchema("updateOpenAPISpecBySlug", 200, res.body);
      expect(res.body.visibility).toBe("public");
      expect((await owner.api.get(`${prefix}/${s}`)).body.visibility).toBe("public");
      for (const body of [{ visibility: "published" }, {}]) {
        const bad = await owner.api.patch(`${prefix}/${s}`, body);
        expect(bad.status).toBe(400);
        expectErrorBody(400, bad.body);
        expect(bad.body.error.message).toContain("visibility");
      }
      const missing = await owner.api.patch(`${prefix}/${slug("missing")}`, { visibility: "public" });
      expect(missing.status).toBe(404);
      expectErrorBody(404, missing.body);
    });

    test("DELETE removes the spec and its versions, and is 204 again when it is gone", async () => {
      const { slug: s } = await createFromUrl("/v31.json");
      const spec = await settled(s);
      const res = await owner.api.delete(`${prefix}/${s}`);
      expect(res.status).toBe(204);
      expectSchema("deleteOpenAPISpecBySlug", 204, res.body);
      expect((await owner.api.delete(`${prefix}/${s}`)).status).toBe(204);
      for (const path of [`${prefix}/${s}`, `${prefix}/${s}/versions`, `${prefix}/${s}/versions/${spec.lastVersion}`]) {
        const gone = await owner.api.get(path);
        expect(gone.status).toBe(404);
        expectErrorBody(404, gone.body);
      }
    });

    test("the list pages through every spec of the organization, oldest first", async () => {
      const org = (await createOrg(owner.api)).id;
      const slugs = [slug("a"), slug("b"), slug("c")];
      for (const s of slugs) expect((await owner.api.post(`/v1/orgs/${org}/openapi`, { slug: s, source: { text: json(openapi30()) } })).status).toBe(201);
      const first = await owner.api.get(`/v1/orgs/${org}/openapi?limit=2`);
      expect(first.status).toBe(200);
      expectSchema("listOpenAPISpecs", 200, first.body);
      expect(first.body.count).toBe(3);
      expect(first.body.next.page).toEqual(expect.any(String));
      const all = await walkPages(owner.api, `/v1/orgs/${org}/openapi`, 1);
      expect(all.map((spec: { slug: string }) => spec.slug)).toEqual(slugs);
      for (const limit of [0, 1001, "x"]) {
        const bad = await owner.api.get(`/v1/orgs/${org}/openapi?limit=${limit}`);
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toContain("limit");
      }
    });

    test("a second spec with a taken slug is 409", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      const res = await owner.api.post(prefix, { slug: s, source: { url: url("/v31.json") } });
      expect(res.status).toBe(409);
      expectErrorBody(409, res.body);
    });

    test("a spec, version or content that does not exist is 404", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      await settled(s);
      for (const path of [
        `${prefix}/${slug("nope")}`,
        `${prefix}/${slug("nope")}/versions`,
        `${prefix}/${slug("nope")}/versions/latest/content`,
        `${prefix}/${s}/versions/unknown0000000000`,
        `${prefix}/${s}/versions/unknown0000000000/content`,
      ]) {
        const res = await owner.api.get(path);
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
    });
  });

  describe("limits and bad input", () => {
    test.each([
      ["an empty slug", { slug: "", source: { url: "https://example.com/a.json" } }, "slug"],
      ["a slug of 101 characters", { slug: "a".repeat(101), source: { url: "https://example.com/a.json" } }, "slug"],
      ["an upper-case slug", { slug: "Upper-Case", source: { url: "https://example.com/a.json" } }, "slug"],
      ["a slug with a double hyphen", { slug: "two--hyphens", source: { url: "https://example.com/a.json" } }, "slug"],
      ["a slug with a leading hyphen", { slug: "-leading", source: { url: "https://example.com/a.json" } }, "slug"],
      ["no slug", { source: { url: "https://example.com/a.json" } }, "slug"],
      ["no source", { slug: "ok" }, "source"],
      ["an empty source", { slug: "ok", source: {} }, "source"],
      ["a source with both url and text", { slug: "ok", source: { url: "https://example.com/a.json", text: "openapi: 3.0.3" } }, "source"],
      ["a sourceURL of 2049 characters", { slug: "ok", source: { url: `https://example.com/${"a".repeat(2029)}` } }, "url"],
      ["an ftp sourceURL", { slug: "ok", source: { url: "ftp://example.com/a.json" } }, "url"],
      ["a sourceURL that is not a URL", { slug: "ok", source: { url: "not a url" } }, "url"],
      ["an empty text", { slug: "ok", source: { text: "" } }, "text"],
      ["a text over the size cap", { slug: "ok", source: { text: "x".repeat(MAX_BYTES + 1) } }, "text"],
      ["an unknown member in source", { slug: "ok", source: { url: "https://example.com/a.json", extra: 1 } }, "extra"],
      ["a source that is a string", { slug: "ok", source: "https://example.com/a.json" }, "source"],
    ])("creating with %s is 400 naming the field", async (_case, body, field) => {
      const res = await owner.api.post(prefix, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("the longest slug (100) and the longest sourceURL (2048) are accepted", async () => {
      const longUrl = url(`/v30.json?${"q".repeat(2048 - url("/v30.json?").length)}`);
      expect(longUrl).toHaveLength(2048);
      const res = await owner.api.post(prefix, { slug: "a".repeat(100), source: { url: longUrl } });
      expect(res.status).toBe(201);
      expect(res.body.sourceURL).toBe(longUrl);
    });

    test("PUT with an invalid slug or source is 400 naming it", async () => {
      const badSlug = await owner.api.put(`${prefix}/Not_A_Slug`, { source: { text: "x" } });
      expect(badSlug.status).toBe(400);
      expect(badSlug.body.error.message).toContain("specSlug");
      const noSource = await owner.api.put(`${prefix}/${slug()}`, {});
      expect(noSource.status).toBe(400);
      expect(noSource.body.error.message).toContain("source");
    });
  });

  describe("access", () => {
    const routes = (s: string) => [
      ["GET", `/openapi`],
      ["POST", `/openapi`],
      ["GET", `/openapi/${s}`],
      ["PUT", `/openapi/${s}`],
      ["PATCH", `/openapi/${s}`],
      ["DELETE", `/openapi/${s}`],
      ["GET", `/openapi/${s}/versions`],
      ["GET", `/openapi/${s}/versions/latest`],
      ["GET", `/openapi/${s}/versions/latest/content`],
      ["GET", `/openapi/${s}/versions/v1`],
      ["GET", `/openapi/${s}/versions/v1/content`],
    ];
    const bodyFor = (method: string, s: string) =>
      method === "POST" ? { slug: s, source: { text: json(openapi30()) } } : method === "PUT" ? { source: { text: json(openapi30()) } } : method === "PATCH" ? { visibility: "public" } : undefined;

    test("every route answers 401 without a valid token", async () => {
      for (const [method, path] of routes("any")) {
        for (const api of [owner.api.as(undefined), owner.api.as("dsk_not-a-token")]) {
          const res = await api.request(method, `/v1/orgs/${orgId}${path}`, bodyFor(method, "any"));
          expect([method, path, res.status]).toEqual([method, path, 401]);
          expectErrorBody(401, res.body);
        }
      }
    });

    test("a non-member gets 404 on every route, even for a spec that exists", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      for (const [method, path] of routes(s)) {
        const res = await outsider.api.request(method, `/v1/orgs/${orgId}${path}`, bodyFor(method, slug()));
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expectErrorBody(404, res.body);
      }
    });

    test("a guest of the organization gets 403 on every route", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      for (const [method, path] of routes(s)) {
        const res = await guest.api.request(method, `/v1/orgs/${orgId}${path}`, bodyFor(method, slug()));
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expectErrorBody(403, res.body);
      }
    });

    test("a reader reads specs and versions (edit: false) but gets 403 creating, changing or deleting", async () => {
      const { slug: s } = await createFromUrl("/v30.json");
      const spec = await settled(s, reader.api);
      expect(spec.permissions).toEqual({ view: true, edit: false });
      for (const path of [`${prefix}`, `${prefix}/${s}/versions`, `${prefix}/${s}/versions/latest`, `${prefix}/${s}/versions/latest/content`]) {
        expect((await reader.api.get(path)).status).toBe(200);
      }
      for (const [method, path] of routes(s).filter(([m]) => m !== "GET")) {
        const res = await reader.api.request(method, `/v1/orgs/${orgId}${path}`, bodyFor(method, slug()));
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expectErrorBody(403, res.body);
      }
      expect((await owner.api.get(`${prefix}/${s}`)).body.visibility).toBe("private");
    });

    test("a member with the create role creates, changes and deletes specs", async () => {
      const s = slug("creator");
      const created = await creator.api.post(prefix, { slug: s, source: { text: json(swagger20()) } });
      expect(created.status).toBe(201);
      expect(created.body.permissions).toEqual({ view: true, edit: true });
      expect((await creator.api.patch(`${prefix}/${s}`, { visibility: "public" })).status).toBe(200);
      expect((await creator.api.put(`${prefix}/${s}`, { source: { text: json(openapi31()) } })).status).toBe(200);
      expect((await creator.api.delete(`${prefix}/${s}`)).status).toBe(204);
    });
  });
});
