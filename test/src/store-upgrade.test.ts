// Upgrading the embedded store: a DATA_DIR written by the nedb store (test/fixtures/nedb-data-dir, made by
// the last nedb version) is imported into SQLite on the first start, its files kept aside; the migrations
// are recorded once; a store written by a newer version is refused with a message saying what to do.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ApiClient } from "@docshelf/testkit";
import { newAdminToken, ready, startServer, stopServer, tempDirs, type Server } from "./store-process";

const FIXTURE = join(__dirname, "..", "fixtures", "nedb-data-dir");
const fixture = JSON.parse(readFileSync(join(FIXTURE, "fixture.json"), "utf8")) as {
  userToken: string;
  orgId: string;
  spaceId: string;
  pages: Array<{ id: string; title: string }>;
};
const SERVICES = readdirSync(join(FIXTURE, "data"));

function migrations(dataDir: string, service: string): Array<{ version: number; name: string; detail: string }> {
  const db = new DatabaseSync(join(dataDir, service, "store.sqlite"), { readOnly: true });
  try {
    return db.prepare("SELECT version, name, detail FROM _migrations ORDER BY version").all() as Array<{ version: number; name: string; detail: string }>;
  } finally {
    db.close();
  }
}

describe("upgrading an embedded DATA_DIR", () => {
  const dirs = tempDirs();
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));
    dirs.removeAll();
  });
  const start = async (dataDir: string) => {
    const server = await startServer(dataDir, newAdminToken());
    servers.push(server);
    return server;
  };

  test("a nedb DATA_DIR is imported on first start: every service's documents read through the API, its files kept aside, the import recorded once", async () => {
    const dataDir = dirs.make(join(FIXTURE, "data"));
    const server = await start(dataDir);
    await ready(server);
    const user = new ApiClient(server.url, fixture.userToken);
    // identity (the token), orgs, content (pages, search index built from them) all came over.
    const org = await user.get(`/v1/orgs/${fixture.orgId}`);
    expect(org.status).toBe(200);
    expect(org.body.title).toBe("Fixture Org");
    const pages = await user.get(`/v1/spaces/${fixture.spaceId}/content/pages`);
    expect(pages.status).toBe(200);
    expect((pages.body.pages as Array<{ id: string; title: string }>).map((p) => ({ id: p.id, title: p.title }))).toEqual(fixture.pages);
    const page = await user.get(`/v1/spaces/${fixture.spaceId}/content/page/${fixture.pages[0].id}?format=markdown`);
    expect(page.status).toBe(200);
    expect(page.body.markdown).toContain("quickstart");
    // A write after the import lands in SQLite.
    const space = await user.post(`/v1/orgs/${fixture.orgId}/spaces`, { title: "Made after the upgrade" });
    expect(space.status).toBe(201);
    await stopServer(server);

    for (const service of SERVICES) {
      const dir = join(dataDir, service);
      const kept = readdirSync(join(FIXTURE, "data", service)).filter((f) => f.endsWith(".db"));
      // Every nedb file moved aside unchanged, none left where the store looks.
      expect(readdirSync(dir).filter((f) => f.endsWith(".db"))).toEqual([]);
      for (const file of kept) expect(readFileSync(join(dir, "nedb-imported", file))).toEqual(readFileSync(join(FIXTURE, "data", service, file)));
      const recorded = migrations(dataDir, service);
      expect(recorded.map((m) => m.version)).toEqual([1, 2]);
      expect(recorded[1].detail).toMatch(/^imported /);
    }
    expect(migrations(dataDir, "content")[1].detail).toContain("spaces: 1 documents");

    // A second start neither imports again nor loses the later write.
    const again = await start(dataDir);
    await ready(again);
    const list = await new ApiClient(again.url, fixture.userToken).get(`/v1/orgs/${fixture.orgId}/spaces`);
    expect(list.status).toBe(200);
    expect((list.body.items as Array<{ title: string }>).map((s) => s.title).sort()).toEqual(["Fixture Handbook", "Made after the upgrade"]);
    await stopServer(again);
    for (const service of SERVICES) expect(migrations(dataDir, service).map((m) => m.version)).toEqual([1, 2]);
  }, 180_000);

  test("a store written by a newer version is refused at start-up with one message naming the versions and what to do, and is left unchanged", async () => {
    const dataDir = dirs.make(join(FIXTURE, "data"));
    const first = await start(dataDir);
    await ready(first);
    await stopServer(first);
    const file = join(dataDir, "orgs", "store.sqlite");
    const db = new DatabaseSync(file);
    db.exec("UPDATE _meta SET value = '99' WHERE key = 'schema_version'");
    db.close();
    const before = readFileSync(file);

    const newer = await start(dataDir);
    const { code } = await newer.exited;
    expect(code).toBe(1);
    const last = newer.err().trim().split("\n").pop();
    expect(last).toContain("has schema version 99, written by a newer docshelf; this version understands up to 2");
    expect(last).toContain("restore a backup");
    expect(readFileSync(file)).toEqual(before);
    expect(existsSync(join(dataDir, "orgs", ".lock"))).toBe(false);
  }, 120_000);
});
