// What operators see of a running system: JSON logs that follow a request id across processes and never
// carry a secret, and a Prometheus endpoint per process. Every service is its own process over NATS.
import { randomBytes } from "node:crypto";
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";
import { createOrg, createUser, freePort, startNats, type NatsSystem } from "@docshelf/testkit";
import { startOwnNats, type OwnNats } from "./fault-nats";

async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

interface LogLine {
  level: number;
  nodeID?: string;
  requestID?: string;
  msg?: string;
}

function logLines(system: NatsSystem): { raw: string[]; json: LogLine[] } {
  const raw = system.logs.join("").split("\n").filter(Boolean);
  const json: LogLine[] = [];
  for (const line of raw) {
    try {
      json.push(JSON.parse(line) as LogLine);
    } catch {
      /* a non-JSON line (the start-up banner): still searched for secrets */
    }
  }
  return { raw, json };
}

describe("logs, traces and metrics of a multi-process system", () => {
  let nats: OwnNats;
  let system: NatsSystem;
  const metricsPorts: number[] = [];
  const groups: ServiceName[][] = ALL_SERVICES.map((s): ServiceName[] => [s]);

  beforeAll(async () => {
    for (let i = 0; i < groups.length; i++) metricsPorts.push(await freePort());
    nats = await startOwnNats();
    system = await startNats({
      natsUrl: nats.url,
      processes: groups,
      env: { LOGLEVEL: "debug", TRACING_EXPORTER: "console" },
      envFor: (_group, i): Record<string, string> => ({ METRICS_PORT: String(metricsPorts[i]) }),
    });
  }, 60_000);

  afterAll(async () => {
    await system?.stop();
    await nats?.dispose();
  });

  test("no log line carries the admin token, a user's API token or credentials sent in a body, even at debug", async () => {
    const requestId = `obs-${randomBytes(6).toString("hex")}`;
    const password = `pw${randomBytes(12).toString("hex")}`;
    const gitUrl = `https://deploy-bot:${password}@git.example.invalid/acme/handbook.git`;

    const me = await system.admin.request("GET", "/v1/user", undefined, { "x-request-id": requestId });
    expect(me.status).toBe(200);
    expect(me.headers.get("x-request-id")).toBe(requestId);
    const owner = await createUser(system.admin);
    expect((await owner.api.get("/v1/user")).status).toBe(200);
    const org = await createOrg(owner.api);
    // A spec whose source URL carries credentials: the openapi service fetches it in the background and fails.
    const slug = `s${randomBytes(4).toString("hex")}`;
    const created = await owner.api.post(`/v1/orgs/${org.id}/openapi`, { slug, source: { url: gitUrl } });
    expect([201, 400]).toContain(created.status);
    if (created.status === 201) {
      await within(15_000, "the spec's processing to end", async () => (await owner.api.get(`/v1/orgs/${org.id}/openapi/${slug}`)).body.processingState !== "pending");
    }
    // The same URL where the API does not expect it: refused by validation, whose message must not echo it into a log.
    await owner.api.post(`/v1/orgs/${org.id}/spaces`, { title: 42, gitUrl, token: owner.token });
    // A bad token is refused: the refused token is not logged either.
    const wrongToken = `dsk_${randomBytes(24).toString("base64url")}`;
    expect((await system.admin.as(wrongToken).get("/v1/user")).status).toBe(401);

    await within(5_000, "the request id to reach the log", async () => logLines(system).json.some((l) => l.requestID === requestId));
    const { raw } = logLines(system);
    expect(raw.length).toBeGreaterThan(50); // debug really is on
    for (const secret of [system.adminToken, owner.token, wrongToken, password, gitUrl]) {
      expect(raw.filter((line) => line.includes(secret))).toEqual([]);
    }
  }, 60_000);

  test("the id of X-Request-ID is the requestID of the log lines of every process the request went through", async () => {
    const requestId = `trace-${randomBytes(6).toString("hex")}`;
    const owner = await createUser(system.admin);
    const org = await createOrg(owner.api);
    const res = await owner.api.request("GET", `/v1/orgs/${org.id}/spaces`, undefined, { "x-request-id": requestId });
    expect(res.status).toBe(200);
    // The gateway authenticated through identity, content listed the spaces (asking orgs for the caller's role).
    const expected = ["gateway", "content"].map((s) => groups.findIndex((g) => g[0] === s));
    let nodes = new Set<string>();
    await within(5_000, "log lines of the gateway and content with the request id", async () => {
      nodes = new Set(logLines(system).json.filter((l) => l.requestID === requestId && l.nodeID).map((l) => l.nodeID!));
      return expected.every((i) => [...nodes].some((n) => n.endsWith(`-${groups[i].join("-")}-${i}`)));
    });
    expect(nodes.size).toBeGreaterThanOrEqual(2);
  });

  test("a request without X-Request-ID gets one, and that one is the requestID in the log", async () => {
    const res = await system.admin.get("/v1/user");
    const given = res.headers.get("x-request-id");
    expect(given).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
    await within(5_000, "the generated request id in the log", async () => logLines(system).json.some((l) => l.requestID === given));
  });

  test("every process serves Prometheus metrics on its METRICS_PORT, request counters included", async () => {
    for (const [i, port] of metricsPorts.entries()) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect({ process: groups[i].join(), status: res.status }).toEqual({ process: groups[i].join(), status: 200 });
      const text = await res.text();
      expect(text).toContain("moleculer_request_total");
      expect(text).toContain("process_");
    }
  });

  test("the gateway counts and times HTTP requests by route pattern and status, never by URL", async () => {
    const owner = await createUser(system.admin);
    const org = await createOrg(owner.api);
    expect((await owner.api.get(`/v1/orgs/${org.id}`)).status).toBe(200);
    expect((await fetch(`${system.url}/v1/orgs/${org.id}`)).status).toBe(401);
    expect((await fetch(`${system.url}/sites/no-such-site-${org.id}/page`)).status).toBe(404);
    const gateway = metricsPorts[groups.findIndex((g) => g.includes("gateway"))];
    const text = await (await fetch(`http://127.0.0.1:${gateway}/metrics`)).text();
    const counted = (route: string, status: number) =>
      text.split("\n").some((line) => line.startsWith("docshelf_http_requests_total{") && line.includes(`route="${route}"`) && line.includes(`method="GET"`) && line.includes(`status="${status}"`));
    expect(counted("/v1/orgs/:organizationId", 200)).toBe(true);
    expect(counted("/v1/orgs/:organizationId", 401)).toBe(true);
    expect(counted("sites", 404)).toBe(true);
    expect(text.split("\n").some((line) => line.startsWith("docshelf_http_request_duration_seconds_bucket{") && line.includes('route="/v1/orgs/:organizationId"'))).toBe(true);
    // Ids, site paths and queries never become labels.
    expect(text).not.toContain(org.id);
  });
});
