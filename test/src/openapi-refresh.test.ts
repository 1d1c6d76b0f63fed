// URL specs are fetched again every refresh interval: a new version only when the content changed,
// and a failed refresh keeps serving the last good version. Short intervals make it quick.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOrg, createUser, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, startPrivate } from "./modes";

const spec = (title: string) =>
  JSON.stringify({ openapi: "3.1.0", info: { title, version: "1.0.0" }, paths: { "/ping": { get: { responses: { "200": { description: "ok" } } } } } });

const ENV = { OPENAPI_REFRESH_INTERVAL_MS: "1000", OPENAPI_SWEEP_INTERVAL_MS: "200", OPENAPI_FETCH_TIMEOUT_MS: "1000" };

describe.each(MODES)("OpenAPI spec refresh over %s", (mode) => {
  let sys: RunningSystem;
  let server: Server;
  let port: number;
  let owner: TestUser;
  let prefix: string;
  /** What the spec host answers for /live.json; null answers 404. */
  let live: string | null = spec("Live v1");
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    server = createServer((req, res) => (req.url === "/live.json" && live !== null ? res.end(live) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    const env: Record<string, string> = { ...ENV, OPENAPI_FETCH_ALLOW_PRIVATE: `127.0.0.1:${port}` };
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    sys = await startPrivate(mode) /* its own: it sets the environment */;
    owner = await createUser(sys.admin);
    prefix = `/v1/orgs/${(await createOrg(owner.api)).id}/openapi`;
  });

  afterAll(async () => {
    await sys?.stop();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Polls the spec until `done` holds for it, with a deadline. */
  async function until(slug: string, done: (body: any) => boolean, what: string): Promise<any> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await owner.api.get(`${prefix}/${slug}`);
      expect(res.status).toBe(200);
      if (done(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`spec ${slug}: ${what} did not happen within 20 s (${JSON.stringify(res.body)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const titleOfLatest = async (slug: string) => (await owner.api.get(`${prefix}/${slug}/versions/latest/content`)).body.filesystem["openapi.json"].info.title;

  test("a refresh adds a version only when the content changed, and a failed one keeps the last good version", async () => {
    const slug = "live";
    const created = await owner.api.post(prefix, { slug, source: { url: `http://127.0.0.1:${port}/live.json` } });
    expect(created.status).toBe(201);
    const first = await until(slug, (s) => s.processingState === "complete" && !!s.lastVersion, "first processing");

    // Unchanged content: refreshed (lastProcessedAt moves twice), still one version.
    const once = await until(slug, (s) => s.processingState === "complete" && s.lastProcessedAt > first.lastProcessedAt, "a first refresh");
    await until(slug, (s) => s.processingState === "complete" && s.lastProcessedAt > once.lastProcessedAt, "a second refresh");
    const versions = await owner.api.get(`${prefix}/${slug}/versions`);
    expect(versions.body.count).toBe(1);

    live = spec("Live v2");
    const second = await until(slug, (s) => s.lastVersion !== first.lastVersion, "a new version");
    expect(await titleOfLatest(slug)).toBe("Live v2");
    const list = await owner.api.get(`${prefix}/${slug}/versions`);
    expectSchema("listOpenAPISpecVersions", 200, list.body);
    expect(list.body.count).toBe(2);

    live = null;
    const failed = await until(slug, (s) => s.lastProcessErrorCode === "FETCH_ERROR", "a failed refresh");
    expect(failed.lastVersion).toBe(second.lastVersion);
    expect(await titleOfLatest(slug)).toBe("Live v2");

    live = spec("Live v2");
    const healed = await until(slug, (s) => s.processingState === "complete" && s.lastProcessErrorCode === undefined, "recovery");
    expect(healed.lastVersion).toBe(second.lastVersion);
  });
});
