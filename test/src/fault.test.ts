// Fault tolerance with every service in its own process over a NATS server this suite starts, stops and restarts.
import type { ChildProcess } from "node:child_process";
import { ApiClient, addMember, createOrg, createSpace, createUser, freePort, startNats, type NatsSystem } from "@docshelf/testkit";
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";
import { startOwnNats, type OwnNats } from "./fault-nats";

/** Polls `check` every 100 ms until it returns true or `ms` have passed; returns how long it took, or throws. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const began = Date.now();
  while (Date.now() - began < ms) {
    if (await check().catch(() => false)) return Date.now() - began;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

/** One request that gives up after 5 s, so a load loop never waits on a call lost with NATS. */
async function send(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(5_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch {
    return { status: 0, body: undefined }; // refused, reset or timed out
  }
}

async function status(url: string): Promise<number> {
  return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).status;
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/**
 * A test body that, when it fails, adds to its error what the processes logged while it ran (they log at
 * warn and above here): a failure seen only in CI can then be read from CI's output.
 */
function logged(logs: () => string[], body: () => Promise<void>): () => Promise<void> {
  return async () => {
    const from = logs().length;
    try {
      await body();
    } catch (err) {
      const during = logs().slice(from).join("").trim();
      const tail = during.length > 12_000 ? `…${during.slice(-12_000)}` : during;
      throw new Error(`${(err as Error).message}\n\nwhat the processes logged during this test:\n${tail || "(nothing)"}`, { cause: err });
    }
  };
}

/** Two gateways, then every other service in a process of its own. */
const GROUPS: ServiceName[][] = [["gateway"], ["gateway"], ...ALL_SERVICES.filter((s) => s !== "gateway").map((s): ServiceName[] => [s])];
const CONTENT = GROUPS.findIndex((g) => g[0] === "content");
const SECOND_GATEWAY = 1;

describe("fault tolerance over a NATS server of our own", () => {
  let nats: OwnNats;
  let system: NatsSystem;
  const healthPorts = new Map<number, number>();

  beforeAll(async () => {
    nats = await startOwnNats();
    for (const [i, group] of GROUPS.entries()) if (!group.includes("gateway")) healthPorts.set(i, await freePort());
    system = await startNats({
      natsUrl: nats.url,
      processes: GROUPS,
      gatewayPerPort: true,
      // Short timeouts keep calls lost with NATS from piling up; no rate limit for the load loop.
      env: { REQUEST_TIMEOUT_MS: "2000", RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANON_PER_MINUTE: "0" },
      envFor: (_group, i): Record<string, string> => (healthPorts.has(i) ? { HEALTH_PORT: String(healthPorts.get(i)) } : {}),
    });
  }, 60_000);

  afterAll(async () => {
    await system?.stop();
    await nats?.dispose();
  });

  const healthUrls = () => [...healthPorts.values()].map((port) => `http://127.0.0.1:${port}`);

  test("each service process answers /health and /ready on its HEALTH_PORT once its store is open", logged(() => system.logs, async () => {
    for (const url of healthUrls()) {
      expect(await status(`${url}/health`)).toBe(200);
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready", transporter: "connected", notReady: [] });
    }
  }));

  test("/ready answers 503 with the transporter disconnected while NATS is down, /health stays 200, and both recover", logged(() => system.logs, async () => {
    await nats.stop();
    try {
      await within(5_000, "the gateway's /ready to say disconnected", async () => {
        const res = await fetch(`${system.url}/ready`, { signal: AbortSignal.timeout(4_000) });
        return res.status === 503 && ((await res.json()) as { transporter?: string }).transporter === "disconnected";
      });
      for (const url of healthUrls()) {
        await within(5_000, `${url}/ready to answer 503`, async () => (await status(`${url}/ready`)) === 503);
        expect(await status(`${url}/health`)).toBe(200);
      }
      expect(await status(`${system.url}/health`)).toBe(200);
    } finally {
      await nats.start();
    }
    for (const url of [...system.urls, ...healthUrls()]) {
      await within(10_000, `${url}/ready to answer 200 again`, async () => (await status(`${url}/ready`)) === 200);
    }
    // Ready is each process's own word. Requests that cross services (orgs asks identity for the owner,
    // content asks orgs for the role) need the nodes to know each other again, which takes until each has
    // heard the others announce themselves: within 10 s too.
    let owner: Awaited<ReturnType<typeof createUser>> | undefined;
    await within(10_000, "a user to be created (the gateway asks identity)", async () => {
      owner = await createUser(system.admin);
      return true;
    });
    let orgId = "";
    await within(10_000, "an organization to be created (orgs asks identity)", async () => {
      const res = await send(system.url, owner!.token, "POST", "/v1/orgs", { title: "after the outage" });
      orgId = res.body?.id ?? "";
      return res.status === 201;
    });
    await within(10_000, "a space to be created (content asks orgs)", async () => (await send(system.url, owner!.token, "POST", `/v1/orgs/${orgId}/spaces`, { title: "after the outage" })).status === 201);
  }));

  test("with NATS restarted under load, requests succeed again within 10 s and no acknowledged write is lost", logged(() => system.logs, async () => {
    const owner = await createUser(system.admin);
    const org = await createOrg(owner.api);
    const space = await createSpace(owner.api, org.id);
    const acknowledged: string[] = [];
    let recoveredAt = 0;
    let outageEndedAt = 0;
    let natsDown = false;

    const began = Date.now();
    const outage = (async () => {
      await new Promise((r) => setTimeout(r, 2_000));
      natsDown = true;
      await nats.stop();
      await new Promise((r) => setTimeout(r, 3_000));
      await nats.start();
      outageEndedAt = Date.now();
      natsDown = false;
    })();

    // Bounded: at most 2,000 rounds and ~12 s; a read and every third round a write.
    for (let round = 0; round < 2_000 && Date.now() - began < 12_000; round++) {
      const read = await send(system.url, owner.token, "GET", `/v1/spaces/${space.id}`);
      if (read.status === 200 && outageEndedAt && !natsDown) recoveredAt = recoveredAt || Date.now();
      if (round % 3 === 0) {
        const write = await send(system.url, owner.token, "POST", `/v1/orgs/${org.id}/spaces`, { title: `load ${round}` });
        if (write.status === 201) acknowledged.push(write.body.id);
      }
    }
    await outage;

    // Recovery: the first successful read after NATS came back, within 10 s of it.
    if (!recoveredAt) await within(10_000 - (Date.now() - outageEndedAt), "a read to succeed after NATS came back", async () => (await send(system.url, owner.token, "GET", `/v1/spaces/${space.id}`)).status === 200);
    else expect(recoveredAt - outageEndedAt).toBeLessThanOrEqual(10_000);
    expect((await send(system.url, owner.token, "POST", `/v1/orgs/${org.id}/spaces`, { title: "after" })).status).toBe(201);

    expect(acknowledged.length).toBeGreaterThan(0);
    for (const id of acknowledged) {
      const seen = await send(system.url, owner.token, "GET", `/v1/spaces/${id}`);
      expect({ id, status: seen.status }).toEqual({ id, status: 200 });
    }
  }), 60_000);

  test("after a NATS outage of 30 s, longer than nats.js's default reconnect budget, writes with an Idempotency-Key work again", logged(() => system.logs, async () => {
    const owner = await createUser(system.admin);
    const org = await createOrg(owner.api);
    const keyed = (key: string) =>
      fetch(`${system.url}/v1/orgs/${org.id}/spaces`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ title: key }),
        signal: AbortSignal.timeout(5_000),
      }).then((r) => r.status, () => 0);
    expect(await keyed(`before-${Date.now()}`)).toBe(201);
    await nats.stop();
    await new Promise((r) => setTimeout(r, 30_000)); // the outage itself is what is tested
    await nats.start();
    await within(15_000, "an idempotent write to succeed after the long outage", async () => (await keyed(`after-${Date.now()}`)) === 201);
  }), 90_000);

  test("a killed and restarted content process serves its data again and still hears role changes made in orgs", logged(() => system.logs, async () => {
    const owner = await createUser(system.admin);
    const member = await createUser(system.admin);
    const org = await createOrg(owner.api);
    const space = await createSpace(owner.api, org.id);
    await addMember(owner.api, org.id, member.email, "read");
    expect((await member.api.post(`/v1/orgs/${org.id}/spaces`, { title: "x" })).status).toBe(403);

    await killed(system.children[CONTENT]);
    system.respawn(CONTENT);
    await within(30_000, "the restarted content process to serve the space", async () => (await send(system.url, owner.token, "GET", `/v1/spaces/${space.id}`)).status === 200);
    expect((await member.api.post(`/v1/orgs/${org.id}/spaces`, { title: "x" })).status).toBe(403); // its role cache refilled as reader

    await addMember(owner.api, org.id, member.email, "create");
    await within(2_000, "the role change to reach the restarted content process", async () => (await member.api.post(`/v1/orgs/${org.id}/spaces`, { title: "x" })).status === 201);
  }), 60_000);

  test("a restarted gateway still drops a token revoked through another gateway", logged(() => system.logs, async () => {
    const [first, second] = system.urls;
    const user = await createUser(system.admin);
    const extra = await system.admin.post(`/v1/users/${user.id}/tokens`, {});
    expect(extra.status).toBe(201);

    await killed(system.children[SECOND_GATEWAY]);
    system.respawn(SECOND_GATEWAY);
    await within(30_000, "the restarted gateway to be ready", async () => (await status(`${second}/ready`)) === 200);
    const viaSecond = new ApiClient(second, extra.body.token);
    expect((await viaSecond.get("/v1/user")).status).toBe(200); // now cached on the restarted gateway

    expect((await new ApiClient(first, system.adminToken).delete(`/v1/users/${user.id}/tokens/${extra.body.id}`)).status).toBe(204);
    await within(2_000, "the revocation to reach the restarted gateway", async () => (await viaSecond.get("/v1/user")).status === 401);
  }), 60_000);
});
