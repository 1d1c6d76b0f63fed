// Nothing acknowledged is lost: the server is SIGKILLed in the middle of sustained writes, many times at random
// moments, and started again on the same DATA_DIR with no manual step; every write it acknowledged before the
// kill is there. Then the same after the tail of the write-ahead log was torn off (a crash while writing it).
import { openSync, closeSync, ftruncateSync, statSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, createOrg, createUser, type TestUser } from "@docshelf/testkit";
import { newAdminToken, ready, startServer, stopServer, tempDirs, until, type Server } from "./store-process";

const ROUNDS = 6;
const WRITERS = 4;
const COUNT_ROUNDS = 4;

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

  test("killed during comment posts and change request creates, the space's counts are right after the restart without another write", async () => {
    // A comment or a new change request is answered once it is durable, its space's counts sent after it in the
    // background (packages/count-sync): a kill between the two leaves a mark that the next start sends.
    let server = await start();
    await ensureOwner(server);
    const spaceRes = await new ApiClient(server.url, owner.token).post(`/v1/orgs/${orgId}/spaces`, { title: "counted" });
    expect(spaceRes.status).toBe(201);
    const spaceId = spaceRes.body.id as string;
    const comments: string[] = [];
    const changeRequests: Array<{ id: string; number: number }> = [];
    for (let round = 0; round < COUNT_ROUNDS; round++) {
      const api = new ApiClient(server.url, owner.token);
      let stopped = false;
      const loops = Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; !stopped; i++) {
          // Writers 0 and 1 post comments, 2 and 3 create change requests.
          const res = await (w < 2
            ? api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: `round ${round} w${w} #${i}` } })
            : api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: `round ${round} w${w} #${i}` })
          ).catch(() => undefined);
          if (res === undefined) return;
          if (res.status === 200) comments.push(res.body.id as string);
          else if (res.status === 201) changeRequests.push({ id: res.body.id as string, number: res.body.number as number });
          else throw new Error(`write answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
      });
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 1200)));
      server.child.kill("SIGKILL");
      await server.exited;
      stopped = true;
      await Promise.all(loops);
      server = await start();
      const after = new ApiClient(server.url, owner.token);
      // Every acknowledged write is there; numbers were never given twice.
      for (const id of comments) expect((await after.get(`/v1/spaces/${spaceId}/comments/${id}`)).status).toBe(200);
      for (const cr of changeRequests) expect((await after.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.number).toBe(cr.number);
      expect(new Set(changeRequests.map((cr) => cr.number)).size).toBe(changeRequests.length);
      // What is stored (acknowledged or not: a write may be durable and unanswered when the kill came) ...
      const stored = {
        comments: (await after.get(`/v1/spaces/${spaceId}/comments?status=open&limit=1`)).body.count as number,
        changeRequestsDraft: (await after.get(`/v1/spaces/${spaceId}/change-requests?status=draft&limit=1`)).body.count as number,
      };
      expect(stored.comments).toBeGreaterThanOrEqual(comments.length);
      expect(stored.changeRequestsDraft).toBeGreaterThanOrEqual(changeRequests.length);
      // ... is what the space counts, once the restarted server sent what the killed one left unsent; nothing
      // else is written meanwhile.
      let counted: Record<string, unknown> = {};
      await until(
        async () => {
          const body = (await after.get(`/v1/spaces/${spaceId}`)).body;
          counted = { comments: body.comments, changeRequestsDraft: body.changeRequestsDraft, changeRequests: body.changeRequests };
          return counted.comments === stored.comments && counted.changeRequestsDraft === stored.changeRequestsDraft;
        },
        30_000,
        "the space's counts to follow what is stored",
      ).catch(() => undefined);
      expect(counted).toEqual({ ...stored, changeRequests: stored.changeRequestsDraft });
    }
    expect(comments.length).toBeGreaterThan(0);
    expect(changeRequests.length).toBeGreaterThan(0);
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
