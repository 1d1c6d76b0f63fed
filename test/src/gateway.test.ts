// What the gateway promises for every route: probes, the error body, limits, request ids.
import { expectErrorBody, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("gateway over %s", (mode) => {
  let sys: RunningSystem;
  beforeAll(async () => {
    sys = await start(mode);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("/health and /ready answer without a token", async () => {
    const health = await fetch(`${sys.url}/health`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${sys.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  test("an unknown route is 404 in the error body", async () => {
    const res = await sys.admin.get("/v1/no/such/route");
    expect(res.status).toBe(404);
    expectErrorBody(404, res.body);
  });

  test("internal actions are not reachable through HTTP", async () => {
    for (const path of ["/v1/$node/list", "/v1/identity/authenticate", "/v1/orgs/memberRole", "/$node/services", "/identity/getMany"]) {
      const res = await sys.admin.get(path);
      expect(res.status).toBe(404);
    }
  });

  test("a body that is not JSON is 400", async () => {
    const res = await sys.admin.request("POST", "/v1/orgs", "{not json");
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
  });

  test("a body over the limit is 413", async () => {
    const res = await sys.admin.post("/v1/orgs", { title: "x".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expectErrorBody(413, res.body);
  });

  test("X-Request-ID is echoed when plain and replaced when not", async () => {
    const given = await sys.admin.request("GET", "/v1/user", undefined, { "x-request-id": "req-123" });
    expect(given.headers.get("x-request-id")).toBe("req-123");
    const odd = await sys.admin.request("GET", "/v1/user", undefined, { "x-request-id": "bad id with spaces" });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("every answer gets its own request id, errors included, and X-Correlation-ID is not taken for one", async () => {
    const ids = new Set<string | null>();
    for (const [token, path] of [["admin", "/v1/user"], ["admin", "/v1/user"], ["admin", "/v1/no/such/route"], ["none", "/v1/user"]] as const) {
      const res = await fetch(`${sys.url}${path}`, token === "admin" ? { headers: { authorization: `Bearer ${sys.adminToken}` } } : {});
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(res.headers.get("x-request-id"));
    }
    expect(ids.size).toBe(4);
    const correlated = await sys.admin.request("GET", "/v1/user", undefined, { "x-correlation-id": "corr-1" });
    expect(correlated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const both = await sys.admin.request("GET", "/v1/user", undefined, { "x-correlation-id": "corr-2", "x-request-id": "req-2" });
    expect(both.headers.get("x-request-id")).toBe("req-2");
  });
});
