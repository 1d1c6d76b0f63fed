// API hardening through HTTP: rate limits with GitBook's headers, Idempotency-Key replays, and
// shape limits on bodies and query strings, in one process and over NATS (two gateways sharing state).
import { randomBytes } from "node:crypto";
import { ApiClient, awayFromWindowEdge, createUser, expectErrorBody, startNats, type ApiResponse, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { ALL_SERVICES } from "@docshelf/config";
import { MODES, type Mode, startPrivate } from "./modes";

function startWith(mode: Mode, env: Record<string, string>): Promise<RunningSystem> {
  return startPrivate(mode, env);
}


function expectRateHeaders(res: ApiResponse, limit: number): void {
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
  const reset = Number(res.headers.get("x-ratelimit-reset"));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
}

/** Sends until the answer is 429 (or `max` requests), and returns every answer. */
async function untilLimited(send: () => Promise<ApiResponse>, max: number): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let i = 0; i < max; i++) {
    const res = await send();
    answers.push(res);
    if (res.status === 429) break;
  }
  return answers;
}

function expectLimited(answers: ApiResponse[], limit: number): ApiResponse {
  const last = answers[answers.length - 1];
  expect(last.status).toBe(429);
  expectErrorBody(429, last.body);
  expectRateHeaders(last, limit);
  expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(Number(last.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  return last;
}

const orgCount = async (user: TestUser) => {
  const res = await user.api.get("/v1/orgs?limit=1000");
  expect(res.status).toBe(200);
  return res.body.items.length as number;
};

const withKey = (api: ApiClient, path: string, body: unknown, key: string) => api.request("POST", path, body, { "idempotency-key": key });

describe.each(MODES)("rate limits over %s", (mode) => {
  const TOKEN_LIMIT = 8;
  const ANON_LIMIT = 4;
  let sys: RunningSystem;
  let user: TestUser;
  beforeAll(async () => {
    sys = await startWith(mode, { RATE_LIMIT_PER_MINUTE: String(TOKEN_LIMIT), RATE_LIMIT_ANON_PER_MINUTE: String(ANON_LIMIT) });
    user = await createUser(sys.admin);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("a token's requests carry X-RateLimit-* and the one past the limit is 429 with Retry-After in the error body", async () => {
    await awayFromWindowEdge();
    const first = await user.api.get("/v1/user");
    expect(first.status).toBe(200);
    expectRateHeaders(first, TOKEN_LIMIT);
    const answers = await untilLimited(() => user.api.get("/v1/user"), 2 * TOKEN_LIMIT + 2);
    expectLimited(answers, TOKEN_LIMIT);
    // An error answer carries the headers too, and a limited token stays limited on every route.
    const missing = await user.api.get("/v1/orgs/nope");
    expect(missing.status).toBe(429);
    expectRateHeaders(missing, TOKEN_LIMIT);
  });

  test("requests without a valid token are counted per address, their 401s carry the headers, and a spoofed X-Forwarded-For does not reset the count", async () => {
    await awayFromWindowEdge();
    const anon = new ApiClient(sys.url);
    const unauthorized = await anon.get("/v1/user");
    expect(unauthorized.status).toBe(401);
    expectErrorBody(401, unauthorized.body);
    expectRateHeaders(unauthorized, ANON_LIMIT);
    // A made-up token fails authentication and counts against the same address.
    const bogus = await anon.as("dsk_not-a-real-token-at-all").get("/v1/user");
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get("x-ratelimit-limit")).toBe(String(ANON_LIMIT));
    expectLimited(await untilLimited(() => anon.get("/v1/user"), 2 * ANON_LIMIT + 2), ANON_LIMIT);
    const spoofed = await anon.request("GET", "/v1/user", undefined, { "x-forwarded-for": `198.51.100.${1 + (Date.now() % 200)}` });
    expect(spoofed.status).toBe(429);
  });

  test("/health and /ready are not limited", async () => {
    for (let i = 0; i < ANON_LIMIT + 2; i++) {
      const res = await fetch(`${sys.url}/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    }
    expect((await fetch(`${sys.url}/ready`)).status).toBe(200);
  });
});

describe.each(MODES)("behind a trusted proxy, idempotency and request limits over %s", (mode) => {
  const ANON_LIMIT = 3;
  let sys: RunningSystem;
  let user: TestUser;
  beforeAll(async () => {
    sys = await startWith(mode, { RATE_LIMIT_ANON_PER_MINUTE: String(ANON_LIMIT), TRUSTED_PROXIES: "127.0.0.1,::1", JSON_MAX_STRING_BYTES: "4096" });
    user = await createUser(sys.admin);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("with TRUSTED_PROXIES the right-most forwarded address is counted, so clients behind the proxy are limited apart", async () => {
    await awayFromWindowEdge();
    const anon = new ApiClient(sys.url);
    const as = (xff: string) => () => anon.request("GET", "/v1/user", undefined, { "x-forwarded-for": xff });
    const a = `203.0.113.${1 + (Date.now() % 100)}`;
    const b = `203.0.113.${101 + (Date.now() % 100)}`;
    expectLimited(await untilLimited(as(a), 2 * ANON_LIMIT + 2), ANON_LIMIT);
    const other = await as(b)();
    expect(other.status).toBe(401);
    expect(other.headers.get("x-ratelimit-remaining")).toBe(String(ANON_LIMIT - 1));
    // Prepending an address does not help a limited client: the right-most untrusted one is its own.
    expect((await as(`${b}, ${a}`)()).status).toBe(429);
  });

  test("a retry with the same Idempotency-Key and body replays the first answer and creates nothing", async () => {
    const key = `create-org-${randomBytes(6).toString("hex")}`;
    const before = await orgCount(user);
    const first = await withKey(user.api, "/v1/orgs", { title: "Once" }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const retry = await withKey(user.api, "/v1/orgs", { title: "Once" }, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expectRateHeaders(retry, 600);
    expect(await orgCount(user)).toBe(before + 1);
  });

  test("the same Idempotency-Key with another body is 422 and creates nothing", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    expect((await withKey(user.api, "/v1/orgs", { title: "First" }, key)).status).toBe(201);
    const before = await orgCount(user);
    const other = await withKey(user.api, "/v1/orgs", { title: "Second" }, key);
    expect(other.status).toBe(422);
    expectErrorBody(422, other.body);
    expect(other.body.error.message).toMatch(/Idempotency-Key/);
    expect(await orgCount(user)).toBe(before);
  });

  test("five concurrent requests with one Idempotency-Key create exactly one space and all answer it", async () => {
    const org = await withKey(user.api, "/v1/orgs", { title: "Spaces" }, `org-${randomBytes(6).toString("hex")}`);
    const key = `space-${randomBytes(6).toString("hex")}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => withKey(user.api, `/v1/orgs/${org.body.id}/spaces`, { title: "Handbook" }, key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    const spaces = await user.api.get(`/v1/orgs/${org.body.id}/spaces`);
    expect(spaces.body.items).toHaveLength(1);
  });

  test("the same key of another caller is another request", async () => {
    const other = await createUser(sys.admin);
    const key = `shared-${randomBytes(6).toString("hex")}`;
    const mine = await withKey(user.api, "/v1/orgs", { title: "Mine" }, key);
    const theirs = await withKey(other.api, "/v1/orgs", { title: "Mine" }, key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a failed first attempt is not stored, so its retry runs again", async () => {
    const key = `bad-${randomBytes(6).toString("hex")}`;
    const first = await withKey(user.api, "/v1/orgs", { title: "" }, key);
    expect(first.status).toBe(400);
    const retry = await withKey(user.api, "/v1/orgs", { title: "" }, key);
    expect(retry.status).toBe(400);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });

  test("an Idempotency-Key over 255 characters or with a control character is 400 and creates nothing", async () => {
    const before = await orgCount(user);
    for (const key of ["k".repeat(256), "tab\tkey"]) {
      const res = await withKey(user.api, "/v1/orgs", { title: "x" }, key);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toMatch(/Idempotency-Key/);
    }
    expect(await orgCount(user)).toBe(before);
  });

  test("a body nested deeper than JSON_MAX_DEPTH is 400 naming the limit", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const res = await user.api.post("/v1/orgs", { title: "x", deep });
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toMatch(/deeper than 32 levels \(limit JSON_MAX_DEPTH\)/);
    expectRateHeaders(res, 600);
  });

  test("an array longer than JSON_MAX_ARRAY_LENGTH is 400 naming the limit", async () => {
    const res = await user.api.post("/v1/orgs", { title: "x", list: Array.from({ length: 10_001 }, () => 0) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/'\$\.list' is an array of more than 10000 elements \(limit JSON_MAX_ARRAY_LENGTH\)/);
  });

  test("a string longer than JSON_MAX_STRING_BYTES is 400 naming the limit", async () => {
    const res = await user.api.post("/v1/orgs", { title: "x".repeat(5000) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/'\$\.title' holds a string longer than 4096 bytes \(limit JSON_MAX_STRING_BYTES\)/);
  });

  test("a body over JSON_BODY_LIMIT_BYTES is still 413, with the rate-limit headers", async () => {
    const res = await user.api.post("/v1/orgs", { title: "x".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expectErrorBody(413, res.body);
    expectRateHeaders(res, 600);
  });

  test("query parameters nested deeper than 2 levels or with over 100 items are 400", async () => {
    const deep = await user.api.get("/v1/orgs?filter[a][b][c]=1");
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toMatch(/'filter'.*deeper than 2 levels \(limit QUERY_MAX_DEPTH\)/);
    const many = await user.api.get(`/v1/orgs?${Array.from({ length: 101 }, (_, i) => `authors=a${i}`).join("&")}`);
    expect(many.status).toBe(400);
    expect(many.body.error.message).toMatch(/'authors' has more than 100 items \(limit QUERY_MAX_ARRAY_LENGTH\)/);
    // Up to the limit, repeated keys (as GitBook's client sends arrays) are fine.
    const hundred = Array.from({ length: 100 }, (_, i) => `authors=a${i}`).join("&");
    expect((await user.api.get(`/v1/orgs?limit=5&${hundred}`)).status).toBe(200);
  });
});

// Two gateway processes on one NATS: counts and Idempotency-Keys are shared through JetStream.
for (const mode of MODES.filter((m) => m === "nats")) {
  describe(`two gateways over ${mode}`, () => {
    const TOKEN_LIMIT = 40;
    let sys: RunningSystem & { urls: string[] };
    let a: ApiClient;
    let b: ApiClient;
    beforeAll(async () => {
      sys = await startNats({
        // Every service in a process of its own, and a second gateway.
        processes: [["gateway"], ...ALL_SERVICES.map((name) => [name])],
        gatewayPerPort: true,
        env: { RATE_LIMIT_PER_MINUTE: String(TOKEN_LIMIT) },
      });
      [a, b] = sys.urls.map((url) => new ApiClient(url, sys.adminToken));
    });
    afterAll(async () => {
      await sys?.stop();
    });

    test("the system runs two gateways on two ports", () => {
      expect(sys.urls).toHaveLength(2);
      expect(sys.urls[0]).not.toBe(sys.urls[1]);
    });

    test("a token's requests are counted across both gateways: each sees the other's count within a flush interval, and one limit holds for both", async () => {
      const user = await createUser(a);
      const remaining = (res: ApiResponse) => Number(res.headers.get("x-ratelimit-remaining"));
      const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
      await awayFromWindowEdge();
      // A gateway's own count is exact at once.
      const first = 10;
      for (let i = 1; i <= first; i++) {
        const res = await a.as(user.token).get("/v1/user");
        expect(res.status).toBe(200);
        expect(remaining(res)).toBe(TOKEN_LIMIT - i);
      }
      // The other gateway learns them at its next flush: until then each look (itself counted) shows less.
      let sent = first;
      let looks = 0;
      let seen = false;
      for (const deadline = Date.now() + 10_000; !seen && Date.now() < deadline; ) {
        const res = await b.as(user.token).get("/v1/user");
        sent++;
        looks++;
        expect(res.status).toBe(200);
        seen = remaining(res) === TOKEN_LIMIT - sent;
        if (!seen) await pause();
      }
      expect(seen).toBe(true);
      // Using up the rest through the first gateway: it refuses once the shared count reaches the limit.
      const rest = await untilLimited(() => a.as(user.token).get("/v1/user"), 2 * TOKEN_LIMIT);
      expectLimited(rest, TOKEN_LIMIT);
      const admitted = sent + rest.length - 1;
      // Never fewer than the limit; more only by the second gateway's counts it had not yet seen.
      expect(admitted).toBeGreaterThanOrEqual(TOKEN_LIMIT);
      expect(admitted).toBeLessThanOrEqual(TOKEN_LIMIT + looks);
      // The second gateway refuses too within a flush interval, long before it would have counted alone to the limit.
      const late: ApiResponse[] = [];
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        const res = await b.as(user.token).get("/v1/user");
        late.push(res);
        if (res.status === 429) break;
        await pause();
      }
      expectLimited(late, TOKEN_LIMIT);
      expect(late.length - 1).toBeLessThan((TOKEN_LIMIT - looks) / 2);
    });

    test("a retry landing on the other gateway replays the first answer", async () => {
      const user = await createUser(a);
      const key = `k-${randomBytes(6).toString("hex")}`;
      const first = await withKey(a.as(user.token), "/v1/orgs", { title: "Shared" }, key);
      expect(first.status).toBe(201);
      const retry = await withKey(b.as(user.token), "/v1/orgs", { title: "Shared" }, key);
      expect(retry.status).toBe(201);
      expect(retry.body.id).toBe(first.body.id);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect((await withKey(b.as(user.token), "/v1/orgs", { title: "Other" }, key)).status).toBe(422);
    });

    test("concurrent requests with one key spread over both gateways create exactly one organization", async () => {
      const user = await createUser(a);
      const key = `k-${randomBytes(6).toString("hex")}`;
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => withKey((i % 2 ? b : a).as(user.token), "/v1/orgs", { title: "Raced" }, key)));
      expect(answers.map((r) => r.status)).toEqual(Array(6).fill(201));
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect(await orgCount(user)).toBe(1);
    });
  });
}
