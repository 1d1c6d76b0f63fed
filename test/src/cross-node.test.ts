// Cross-node behaviour on Moleculer's Fake transporter: several brokers in one process, as in production.
import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { loadConfig, type ServiceName } from "@docshelf/config";
import { ApiClient, addMember, createOrg, createUser } from "@docshelf/testkit";
import { createBroker, listeningPort } from "@docshelf/runtime";

interface Cluster {
  brokers: ServiceBroker[];
  gateways: ApiClient[];
  adminToken: string;
}

/** One broker per group of services, all on one Fake bus under a namespace of their own. */
async function startCluster(groups: ServiceName[][]): Promise<Cluster> {
  const namespace = `x${randomBytes(4).toString("hex")}`;
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const brokers = groups.map((services, i) =>
    createBroker(
      loadConfig({
        TRANSPORTER: "Fake",
        NAMESPACE: namespace,
        NODE_ID: `${namespace}-${i}`,
        SERVICES: services.join(","),
        DATA_DIR: ":memory:",
        ADMIN_TOKEN: adminToken,
        PORT: "0",
        HOST: "127.0.0.1",
        LOGLEVEL: "fatal",
      }),
      { logger: false },
    ),
  );
  await Promise.all(brokers.map((b) => b.start()));
  await Promise.all(brokers.map((b) => b.waitForServices(["identity", "orgs", "content"], 10_000)));
  const gateways = brokers
    .map((b) => listeningPort(b))
    .filter((port): port is number => port !== undefined)
    .map((port) => new ApiClient(`http://127.0.0.1:${port}`, adminToken));
  return { brokers, gateways, adminToken };
}

describe("across nodes on the Fake transporter", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster([["gateway"], ["gateway"], ["identity"], ["orgs"], ["content"]]);
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
