// Backup and restore while running: `npm run backup -- <directory>` while the server takes writes, then
// `npm run restore -- <directory>` into a fresh DATA_DIR, and a server there has everything acknowledged
// before the backup began (documents and stored files).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "@docshelf/testkit";
import { newAdminToken, ready, run, startServer, stopServer, tempDirs, type Server } from "./store-process";

const FIXTURE = join(__dirname, "..", "fixtures", "nedb-data-dir");
const fixture = JSON.parse(readFileSync(join(FIXTURE, "fixture.json"), "utf8")) as { userToken: string; orgId: string; spaceId: string; pages: Array<{ id: string; title: string }> };

interface Acked {
  id: string;
  title: string;
}

describe("backing up a running server and restoring", () => {
  const dirs = tempDirs();
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));
    dirs.removeAll();
  });

  test("a backup taken during sustained writes restores into a fresh DATA_DIR with every write acknowledged before it began, and its files", async () => {
    const dataDir = dirs.make(join(FIXTURE, "data"));
    const server = await startServer(dataDir, newAdminToken());
    servers.push(server);
    await ready(server);
    const api = new ApiClient(server.url, fixture.userToken);

    const acked: Array<Acked & { at: number }> = [];
    let stopped = false;
    const writers = Array.from({ length: 3 }, async (_, w) => {
      for (let i = 0; !stopped; i++) {
        const title = `w${w} #${i}`;
        const res = await api.post(`/v1/orgs/${fixture.orgId}/spaces`, { title });
        expect(res.status).toBe(201);
        acked.push({ id: res.body.id, title, at: Date.now() });
      }
    });
    await new Promise((r) => setTimeout(r, 700));

    const backupDir = join(dirs.make(), "backup");
    const began = Date.now();
    const backup = run("npm", ["run", "backup", "--silent", "--", backupDir], { DATA_DIR: dataDir });
    const backupExit = await backup.exited;
    expect({ code: backupExit.code, err: backup.err() }).toEqual({ code: 0, err: "" });
    expect(backup.out()).toMatch(/^backed up .* into .*: 9 services, \d+ documents, 1 files, in \d+ ms\n$/);
    const writtenDuring = acked.filter((a) => a.at > began).length;
    stopped = true;
    await Promise.all(writers);
    expect(writtenDuring).toBeGreaterThan(0); // the server kept writing while the backup ran

    // Restoring over the running server's DATA_DIR is refused and changes nothing.
    const over = run("npm", ["run", "restore", "--silent", "--", backupDir], { DATA_DIR: dataDir });
    expect((await over.exited).code).toBe(1);
    expect(over.err()).toContain(`DATA_DIR ${dataDir} is in use by a running docshelf`);
    await stopServer(server);

    const freshDir = join(dirs.make(), "restored");
    const restore = run("npm", ["run", "restore", "--silent", "--", backupDir], { DATA_DIR: freshDir });
    expect((await restore.exited).code).toBe(0);
    expect(restore.out()).toContain(`into ${freshDir}: app, change-requests, comments, content`);
    const blobs = readdirSync(join(dataDir, "content", "files"));
    expect(readdirSync(join(freshDir, "content", "files"))).toEqual(blobs);
    for (const blob of blobs) expect(readFileSync(join(freshDir, "content", "files", blob))).toEqual(readFileSync(join(dataDir, "content", "files", blob)));

    const restored = await startServer(freshDir, newAdminToken());
    servers.push(restored);
    await ready(restored);
    const after = new ApiClient(restored.url, fixture.userToken);
    const missing: Acked[] = [];
    for (const write of acked.filter((a) => a.at < began)) {
      const res = await after.get(`/v1/spaces/${write.id}`);
      if (res.status !== 200 || res.body.title !== write.title) missing.push(write);
    }
    expect(missing).toEqual([]);
    const page = await after.get(`/v1/spaces/${fixture.spaceId}/content/page/${fixture.pages[0].id}?format=markdown`);
    expect(page.status).toBe(200);
    expect((await after.post(`/v1/orgs/${fixture.orgId}/spaces`, { title: "after the restore" })).status).toBe(201);
    await stopServer(restored);
  }, 180_000);

  test("a restore refuses a directory that is not a backup, and a DATA_DIR that already holds a store", async () => {
    const notBackup = dirs.make();
    const target = join(dirs.make(), "target");
    const bad = run("npm", ["run", "restore", "--silent", "--", notBackup], { DATA_DIR: target });
    expect((await bad.exited).code).toBe(1);
    expect(bad.err()).toContain("is not a docshelf backup (no docshelf-backup.json)");
    expect(existsSync(target)).toBe(false);

    const occupied = dirs.make(join(FIXTURE, "data"));
    const server = await startServer(occupied, newAdminToken());
    servers.push(server);
    await ready(server);
    await stopServer(server);
    const backupDir = join(dirs.make(), "b");
    expect((await run("npm", ["run", "backup", "--silent", "--", backupDir], { DATA_DIR: occupied }).exited).code).toBe(0);
    const again = run("npm", ["run", "restore", "--silent", "--", backupDir], { DATA_DIR: occupied });
    expect((await again.exited).code).toBe(1);
    expect(again.err()).toContain("already holds a store");
    const noArgs = run("npm", ["run", "backup", "--silent"], { DATA_DIR: occupied });
    expect((await noArgs.exited).code).toBe(2);
    expect(noArgs.err()).toContain("usage: npm run backup -- <new directory>");
  }, 120_000);
});
