// Scaled out for real (E2E_MONGO_URL only: replicas share their collections and file bytes in MongoDB):
// two content replicas behind the gateway, one SIGKILLed in the middle of 30 s of mixed load. No GET
// fails — the gateway's reads whose node died are sent again to the live replica once the heartbeat
// timeout drops it (packages/runtime/src/safe-retries.ts) — and every write the API acknowledged is there
// afterwards. Then the killed replica comes back: it serves again (its caches and subscriptions too),
// as the second kill, of the other replica, shows. Each test logs the numbers it saw.
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";
import { addMember, createOrg, createSpace, createUser, freePort, startNats, type NatsSystem, type TestUser } from "@docshelf/testkit";

const LOAD_MS = Number(process.env.SCALE_KILL_LOAD_MS || 30_000);
const KILL_AFTER_MS = 8_000;
const READERS = 6;
const WRITERS = 2;
/** gateway | every other service | content | content */
const PROCESSES: ServiceName[][] = [["gateway"], ALL_SERVICES.filter((s) => s !== "gateway" && s !== "content"), ["content"], ["content"]];
const REPLICA_A = 2;
const REPLICA_B = 3;

interface LoadResult {
  gets: number;
  failedGets: Array<{ path: string; status: number }>;
  slowestGetMs: number;
  acknowledged: Array<{ id: string; title: string }>;
  refusedWrites: number[];
}

jest.setTimeout(240_000);

describe("two content replicas on MongoDB, one killed under load", () => {
  let sys: NatsSystem;
  let owner: TestUser;
  let reader: TestUser;
  let orgId: string;
  let spaceId: string;
  let fileUrl: string;
  const healthPorts: number[] = [];

  beforeAll(async () => {
    for (let i = 0; i < PROCESSES.length; i++) healthPorts.push(await freePort());
    sys = await startNats({
      processes: PROCESSES,
      env: { RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANON_PER_MINUTE: "0" },
      // Each content replica answers /ready on a port of its own, so a restarted one is seen to be back.
      envFor: (group, i): Record<string, string> => (group.includes("gateway") ? {} : { HEALTH_PORT: String(healthPorts[i]) }),
    });
    [owner, reader] = await Promise.all([createUser(sys.admin), createUser(sys.admin)]);
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, reader.email, "read");
    spaceId = (await createSpace(owner.api, orgId, { title: "Under load" })).id;
    // A template with a file: its bytes are in GridFS, readable through either replica.
    const applied = await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" });
    expect(applied.status).toBe(201);
    const files = await owner.api.get(`/v1/spaces/${spaceId}/content/files`);
    expect(files.status).toBe(200);
    fileUrl = files.body.items[0]?.downloadURL ?? "";
  });

  afterAll(async () => {
    await sys?.stop();
  });

  /** Readers and writers for `ms`, calling `during` once after `killAfterMs`. */
  async function load(ms: number, killAfterMs: number, during: () => void): Promise<LoadResult> {
    const result: LoadResult = { gets: 0, failedGets: [], slowestGetMs: 0, acknowledged: [], refusedWrites: [] };
    const end = Date.now() + ms;
    const killer = setTimeout(during, killAfterMs);
    const paths = [`/v1/spaces/${spaceId}`, `/v1/spaces/${spaceId}/content/pages`, `/v1/orgs/${orgId}/spaces?limit=5`, `/v1/spaces/${spaceId}/content/files`];
    const readerLoop = async (n: number) => {
      for (let i = n; Date.now() < end; i++) {
        const path = paths[i % paths.length];
        const started = Date.now();
        const res = await reader.api.get(path);
        result.slowestGetMs = Math.max(result.slowestGetMs, Date.now() - started);
        result.gets += 1;
        if (res.status !== 200) result.failedGets.push({ path, status: res.status });
      }
    };
    const writerLoop = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const title = `w${n}-${i}`;
        const res = await owner.api.post(`/v1/orgs/${orgId}/spaces`, { title });
        if (res.status === 201) result.acknowledged.push({ id: res.body.id, title });
        else result.refusedWrites.push(res.status);
      }
    };
    await Promise.all([...Array.from({ length: READERS }, (_, n) => readerLoop(n)), ...Array.from({ length: WRITERS }, (_, n) => writerLoop(n))]);
    clearTimeout(killer);
    return result;
  }

  async function checkWrites(result: LoadResult): Promise<void> {
    for (const { id, title } of result.acknowledged) {
      const res = await owner.api.get(`/v1/spaces/${id}`);
      expect({ id, status: res.status, title: res.body?.title }).toEqual({ id, status: 200, title });
    }
  }

  test(`SIGKILL of one replica after ${KILL_AFTER_MS / 1000} s of ${LOAD_MS / 1000} s of load: no GET fails, no acknowledged write is lost`, async () => {
    const killedAt: number[] = [];
    const result = await load(LOAD_MS, KILL_AFTER_MS, () => {
      killedAt.push(Date.now());
      sys.children[REPLICA_A].kill("SIGKILL");
    });
    console.log(
      `scale-kill: ${result.gets} GETs (slowest ${result.slowestGetMs} ms), ${result.failedGets.length} failed; ` +
        `${result.acknowledged.length} writes acknowledged, ${result.refusedWrites.length} refused (${[...new Set(result.refusedWrites)].join(",") || "none"})`,
    );
    expect(killedAt).toHaveLength(1);
    expect(sys.children[REPLICA_A].signalCode).toBe("SIGKILL");
    expect(result.failedGets).toEqual([]);
    expect(result.gets).toBeGreaterThan(100);
    expect(result.acknowledged.length).toBeGreaterThan(10);
    await checkWrites(result);
    // The file's bytes come from GridFS through the replica that is left.
    expect(fileUrl).toMatch(/^http/);
    expect((await fetch(fileUrl)).status).toBe(200);
  });

  test("the killed replica restarts and serves: with the other one killed in turn, GETs and writes still succeed", async () => {
    sys.respawn(REPLICA_A);
    // Ready again on its own /ready (the gateway's asks content's storeReady, which either replica answers).
    const restarted = Date.now();
    const ready = `http://127.0.0.1:${healthPorts[REPLICA_A]}/ready`;
    while (Date.now() - restarted < 90_000 && (await fetch(ready).then((r) => r.status, () => 0)) !== 200) await new Promise((r) => setTimeout(r, 200));
    expect((await fetch(ready)).status).toBe(200);
    console.log(`scale-kill: the killed replica was ready again ${Date.now() - restarted} ms after its restart`);
    await new Promise((r) => setTimeout(r, 3_000)); // the gateway has its INFO and first heartbeat
    const result = await load(12_000, 2_000, () => sys.children[REPLICA_B].kill("SIGKILL"));
    console.log(
      `scale-kill after restart: ${result.gets} GETs (slowest ${result.slowestGetMs} ms), ${result.failedGets.length} failed; ` +
        `${result.acknowledged.length} writes acknowledged, ${result.refusedWrites.length} refused ${JSON.stringify(result.failedGets)}`,
    );
    expect(result.failedGets).toEqual([]);
    expect(result.acknowledged.length).toBeGreaterThan(0);
    await checkWrites(result);
  });
});
