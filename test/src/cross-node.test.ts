// Cross-node behaviour on Moleculer's Fake transporter: several brokers in one process, as in production.
import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { ALL_SERVICES, loadConfig, type ServiceName } from "@docshelf/config";

/** Every service but the gateway: what a gateway needs running somewhere. */
const BACKENDS = ALL_SERVICES.filter((name) => name !== "gateway");
import { ApiClient, addMember, createOrg, createUser } from "@docshelf/testkit";
import { createBroker, listeningPort } from "@docshelf/server";

interface Cluster {
  brokers: ServiceBroker[];
  gateways: ApiClient[];
  adminToken: string;
}

function nodeFactory(namespace: string, adminToken: string) {
  let count = 0;
  return (services: ServiceName[]) =>
    createBroker(
      loadConfig({
        TRANSPORTER: "Fake",
        NAMESPACE: namespace,
        NODE_ID: `${namespace}-${count++}`,
        SERVICES: services.join(","),
        DATA_DIR: ":memory:",
        ADMIN_TOKEN: adminToken,
        PORT: "0",
        HOST: "127.0.0.1",
        LOGLEVEL: "fatal",
      }),
      { logger: false },
    );
}

/** One broker per group of services, all on one Fake bus under a namespace of their own. */
async function startCluster(groups: ServiceName[][]): Promise<Cluster> {
  const cluster = await startClusterWithout(...groups);
  await Promise.all(cluster.brokers.map((b) => b.waitForServices([...BACKENDS], 10_000)));
  return cluster;
}

/** Like startCluster, without waiting for every service: some may be missing on purpose. */
async function startClusterWithout(...groups: ServiceName[][]): Promise<Cluster & { addNode(services: ServiceName[]): ServiceBroker }> {
  const namespace = `x${randomBytes(4).toString("hex")}`;
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const makeNode = nodeFactory(namespace, adminToken);
  const brokers = groups.map((services) => makeNode(services));
  await Promise.all(brokers.map((b) => b.start()));
  const gateways = brokers
    .map((b) => listeningPort(b))
    .filter((port): port is number => port !== undefined)
    .map((port) => new ApiClient(`http://127.0.0.1:${port}`, adminToken));
  const addNode = (services: ServiceName[]) => {
    const broker = makeNode(services);
    brokers.push(broker);
    return broker;
  };
  return { brokers, gateways, adminToken, addNode };
}

describe("across nodes on the Fake transporter", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster([["gateway"], ["gateway"], ...BACKENDS.map((name) => [name])]);
  });
  afterAll(async () => {
    await Promise.all(cluster.brokers.map((b) => b.stop()));
  });

  test("a token revoked through one gateway is refused by another gateway that had cached it", async () => {
    const [a, b] = cluster.gateways;
    const user = await createUser(a);
    const extra = await a.post(`/v1/users/${user.id}/tokens`, {});
    expect(extra.status).toBe(201);
    expect((await b.as(extra.body.token).get("/v1/user")).status).toBe(200); // cached on gateway b
    expect((await a.delete(`/v1/users/${user.id}/tokens/${extra.body.id}`)).status).toBe(204);
    // The revocation is a broadcast; it has reached b once a's answer is back... or within moments.
    const deadline = Date.now() + 2000;
    let status = 200;
    while (Date.now() < deadline && status === 200) status = (await b.as(extra.body.token).get("/v1/user")).status;
    expect(status).toBe(401);
  });

  test("a role change on the orgs node takes effect on the content node's next request", async () => {
    const [a] = cluster.gateways;
    const owner = await createUser(a);
    const member = await createUser(a);
    const org = await createOrg(owner.api);
    await addMember(owner.api, org.id, member.email, "read");
    expect((await member.api.post(`/v1/orgs/${org.id}/spaces`, { title: "x" })).status).toBe(403); // cached as reader
    await addMember(owner.api, org.id, member.email, "create");
    const deadline = Date.now() + 2000;
    let status = 403;
    while (Date.now() < deadline && status === 403) status = (await member.api.post(`/v1/orgs/${org.id}/spaces`, { title: "x" })).status;
    expect(status).toBe(201);
  });

  test("both gateways serve the same data", async () => {
    const [a, b] = cluster.gateways;
    const owner = await createUser(a);
    const org = await createOrg(owner.api);
    const seen = await b.as(owner.token).get(`/v1/orgs/${org.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.id).toBe(org.id);
  });
});

describe("readiness across nodes", () => {
  test("/ready is 503 and names the service while one is not running anywhere, and 200 once it is", async () => {
    const others = BACKENDS.filter((name) => name !== "content");
    const cluster = await startClusterWithout(["gateway"], others);
    try {
      await cluster.brokers[0].waitForServices(others, 10_000);
      const res = await fetch(`${cluster.gateways[0].baseUrl}/ready`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { missing: string[] }).missing).toEqual(["content"]);
      const late = cluster.addNode(["content"]);
      await late.start();
      const deadline = Date.now() + 5000;
      let status = 503;
      while (Date.now() < deadline && status !== 200) status = (await fetch(`${cluster.gateways[0].baseUrl}/ready`)).status;
      expect(status).toBe(200);
    } finally {
      await Promise.all(cluster.brokers.map((b) => b.stop()));
    }
  });
});
