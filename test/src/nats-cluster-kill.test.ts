// A three-node NATS cluster on loopback ports, every service in its own process connected to all three
// (TRANSPORTER lists them). The node with the most clients is SIGKILLed under load: its clients reconnect
// to the others, and every request sent more than 10 s after the kill succeeds (those in flight through
// the node may time out: core NATS messages die with it); no write the API acknowledged is lost. The test
// logs what it saw.
import { connect } from "nats";
import { createOrg, createSpace, createUser, startNats, type NatsSystem, type TestUser } from "@docshelf/testkit";
import { MODES } from "./modes";
import { startNatsCluster, type OwnServers } from "./nats-servers";

const maybe = MODES.includes("nats") ? describe : describe.skip;
const RECOVERY_MS = 10_000;

jest.setTimeout(180_000);

maybe("a three-node NATS cluster with one node killed under load", () => {
  let cluster: OwnServers;
  let sys: NatsSystem;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    cluster = await startNatsCluster();
    // Three copies of every stream and bucket, as deploy/k8s sets it.
    sys = await startNats({ natsUrl: cluster.urls, env: { RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANON_PER_MINUTE: "0", NATS_STREAM_REPLICAS: "3" } });
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
  });

  afterAll(async () => {
    await sys?.stop();
    await cluster?.dispose();
  });

  let keyed: { key: string; id: string } | undefined;

  test("every JetStream stream the system made has three copies, and a keyed write is recorded before the kill", async () => {
    const key = `cluster-${Date.now()}`;
    const first = await owner.api.request("POST", `/v1/orgs/${orgId}/spaces`, { title: "keyed" }, { "Idempotency-Key": key });
    expect(first.status).toBe(201);
    keyed = { key, id: first.body.id };
    const nc = await connect({ servers: cluster.urls.split(",").map((u) => u.replace("nats://", "")) });
    try {
      const jsm = await nc.jetstreamManager();
      const streams: Array<{ name: string; replicas: number }> = [];
      for await (const info of jsm.streams.list()) streams.push({ name: info.config.name, replicas: info.config.num_replicas });
      console.log(`nats-cluster-kill: streams ${streams.map((s) => `${s.name}×${s.replicas}`).join(", ")}`);
      // The gateway's two buckets and the durable channels of change-requests and git-sync.
      expect(streams.length).toBeGreaterThanOrEqual(3);
      expect(streams.filter((s) => s.replicas !== 3)).toEqual([]);
    } finally {
      await nc.close();
    }
  });

  test(`requests succeed again within ${RECOVERY_MS / 1000} s of a node's SIGKILL, and every acknowledged write is kept`, async () => {
    const acknowledged: Array<{ id: string; title: string }> = [];
    /** Failed requests by when they were sent: those in flight at the kill may time out (their messages died with the node). */
    const failures: Array<{ sent: number; status: number }> = [];
    let killedAt = 0;
    let requests = 0;
    // The node most clients (each process has several: transporter, channels, buckets) are connected to.
    const counts = await Promise.all(cluster.nodes.map((n) => n.connections()));
    const victim = counts.indexOf(Math.max(...counts));
    const end = Date.now() + 20_000;
    const killer = setTimeout(() => {
      killedAt = Date.now();
      void cluster.nodes[victim].kill();
    }, 5_000);
    const worker = async (n: number) => {
      for (let i = 0; Date.now() < end; i++) {
        requests += 1;
        const title = `k${n}-${i}`;
        const sent = Date.now();
        const res = i % 2 === 0 ? await owner.api.post(`/v1/orgs/${orgId}/spaces`, { title }) : await owner.api.get(`/v1/orgs/${orgId}/spaces?limit=3`);
        if (res.status === 201) acknowledged.push({ id: res.body.id, title });
        else if (res.status !== 200) failures.push({ sent, status: res.status });
      }
    };
    await Promise.all(Array.from({ length: 4 }, (_, n) => worker(n)));
    clearTimeout(killer);
    // Recovered: every request sent later than this after the kill succeeded.
    const recoveredMs = Math.max(0, ...failures.map((f) => f.sent - killedAt));
    console.log(
      `nats-cluster-kill: clients per node ${counts.join("/")}, node ${victim} killed; ${requests} requests, ${failures.length} failed (${[...new Set(failures.map((f) => f.status))].join(",") || "none"}), ` +
        `the last failed one sent ${recoveredMs} ms after the kill; ${acknowledged.length} writes acknowledged`,
    );
    expect(killedAt).toBeGreaterThan(0);
    expect(counts[victim]).toBeGreaterThan(0);
    expect(cluster.nodes[victim].running()).toBe(false);
    expect(recoveredMs).toBeLessThan(RECOVERY_MS);
    expect(acknowledged.length).toBeGreaterThan(10);
    for (const { id, title } of acknowledged) {
      const res = await owner.api.get(`/v1/spaces/${id}`);
      expect({ id, status: res.status, title: res.body?.title }).toEqual({ id, status: 200, title });
    }
  });

  test("the Idempotency-Key recorded before the kill still replays its first answer (its bucket kept a copy)", async () => {
    expect(keyed).toBeDefined();
    const again = await owner.api.request("POST", `/v1/orgs/${orgId}/spaces`, { title: "keyed" }, { "Idempotency-Key": keyed!.key });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(keyed!.id);
  });

  test("the killed node restarts and rejoins; the system keeps answering through it", async () => {
    const victim = cluster.nodes.findIndex((n) => !n.running());
    expect(victim).toBeGreaterThanOrEqual(0);
    await cluster.nodes[victim].start();
    const space = await createSpace(owner.api, orgId, { title: "after the restart" });
    expect((await owner.api.get(`/v1/spaces/${space.id}`)).status).toBe(200);
  });
});
