// Nothing acknowledged is lost: the server is SIGKILLed in the middle of sustained writes, many times at random
// moments, and started again on the same DATA_DIR with no manual step; every write it acknowledged before the
// kill is there. Then the same after the tail of the write-ahead log was torn off (a crash while writing it).
import { openSync, closeSync, ftruncateSync, statSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, createOrg, createUser, type TestUser } from "@docshelf/testkit";
import { newAdminToken, ready, startServer, stopServer, tempDirs, type Server } from "./store-process";

const ROUNDS = 6;
const WRITERS = 4;

interface Acked {
  id: string;
  title: string;
}

/** Writers creating spaces until `stop` says so; each space the API answered 201 for goes to `acked`. */
function sustainedWrites(api: ApiClient, orgId: string, tag: string, acked: Acked[]): { stop: () => Promise<number> } {
  let stopped = false;
  let attempts = 0;
  const loops = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; !stopped; i++) {
      const title = `${tag} w${w} #${i}`;
      attempts++;
      const res = await api.post(`/v1/orgs/${orgId}/spaces`, { title }).catch(() => undefined);
      if (res?.status === 201) acked.push({ id: res.body.id as string, title });
      else if (res === undefined) return; // the server is gone: what it did not answer was not acknowledged
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return attempts;
    },
  };
}

async function expectAllThere(api: ApiClient, acked: Acked[]): Promise<void> {
  const missing: Acked[] = [];
  for (const write of acked) {
    const res = await api.get(`/v1/spaces/${write.id}`);
    if (res.status !== 200 || res.body.title !== write.title) missing.push(write);
  }
  expect({ checked: acked.length, missing }).toEqual({ checked: acked.length, missing: [] });
}

describe("the embedded store under SIGKILL", () => {
  const dirs = tempDirs();
  const servers: Server[] = [];
  const dataDir = dirs.make();
  const adminToken = newAdminToken();
  let owner: TestUser;
  let orgId = "";
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));
    dirs.removeAll();
  });
  /** The suite's user and organization, made on the first server (each test can run alone). */
  const ensureOwner = async (server: Server) => {
    if (orgId) return;
    owner = await createUser(new ApiClient(server.url, adminToken));
    orgId = (await createOrg(owner.api)).id;
  };
  const start = async () => {
    const server = await startServer(dataDir, adminToken);
    servers.push(server);
    await ready(server);
    return server;
  };

  test(`killed ${ROUNDS} times at random moments of sustained writes, it starts again by itself with every acknowledged write`, async () => {
    let server = await start();
    await ensureOwner(server);
    const acked: Acked[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const api = new ApiClient(server.url, owner.token);
      const before = acked.length;
      const writes = sustainedWrites(api, orgId, `round ${round}`, acked);
      // Somewhere between 0.3 and 2 s into the writes, at a moment nobody chose.
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 1700)));
      server.child.kill("SIGKILL");
      expect((await server.exited).signal).toBe("SIGKILL");
      await writes.stop();
      expect(acked.length).toBeGreaterThan(before); // the kill came during writes
      server = await start();
      await expectAllThere(new ApiClient(server.url, owner.token), acked);
    }
    await stopServer(server);
  }, 300_000);

  test("with the tail of the write-ahead log torn off after a kill, it starts by itself and keeps everything written before", async () => {
    let server = await start();
    await ensureOwner(server);
    const api = new ApiClient(server.url, owner.token);
    const earlier: Acked[] = [];
    const first = sustainedWrites(api, orgId, "before the tear", earlier);
    await new Promise((r) => setTimeout(r, 500));
    await first.stop();
    // A clean stop folds the log into the database file.
    await stopServer(server);
    server = await start();
    const later: Acked[] = [];
    const writes = sustainedWrites(new ApiClient(server.url, owner.token), orgId, "torn", later);
    await new Promise((r) => setTimeout(r, 800));
    server.child.kill("SIGKILL");
    await server.exited;
    await writes.stop();
    const wal = join(dataDir, "content", "store.sqlite-wal");
    const size = statSync(wal).size;
    expect(size).toBeGreaterThan(1000);
    const fd = openSync(wal, "r+");
    // Through the middle of a frame a third of the way back: more than a crash ever tears (only the
    // transaction being written, which was never acknowledged), so that the tear surely cuts commits.
    ftruncateSync(fd, Math.floor((size * 2) / 3) - 700);
    closeSync(fd);

    server = await start();
    const after = new ApiClient(server.url, owner.token);
    await expectAllThere(after, earlier);
    // What the torn frames held is gone, and only that: what survived is whole (each space reads back with
    // its title); the writes before the tear are there, and the store takes new ones.
    let kept = 0;
    for (const write of later) {
      const res = await after.get(`/v1/spaces/${write.id}`);
      if (res.status === 200) {
        expect(res.body.title).toBe(write.title);
        kept++;
      } else {
        expect(res.status).toBe(404);
      }
    }
    // How much the tear took depends on where SQLite's last automatic checkpoint left the log (a loaded
    // machine writes less in the same 800 ms): reported, not asserted.
    console.log(`store-kill: after the tear ${kept} of ${later.length} writes made since the restart were kept`);
    expect((await after.post(`/v1/orgs/${orgId}/spaces`, { title: "after the tear" })).status).toBe(201);
    await stopServer(server);
  }, 180_000);
});
