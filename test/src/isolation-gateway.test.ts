// Tenant isolation at the gateway (issue 21): request logs carry no secret that rode in a URL, rate
// limits count per user whatever number of tokens they mint (across gateways), and a revoked token is
// refused at once. Both process modes.
import { ALL_SERVICES } from "@docshelf/config";
import {
  ApiClient,
  awayFromWindowEdge,
  createOrg,
  createSpace,
  createUser,
  expectErrorBody,
  startEmbedded,
  startNats,
  type RunningSystem,
  type TestUser,
} from "@docshelf/testkit";
import { MODES } from "./modes";
import { makeIdp } from "./saml-idp";
import { addPages, GUIDE_PAGES, rawGet, signToken } from "./sites-serve-fixtures";

/** Above what the instance administrator's own setup calls take in a window, so only the tested user hits it. */
const LIMIT = 16;
/** Past the NATS counter store's flush interval (200 ms): each gateway has seen the other's counts. */
const SETTLE_MS = 350;

/** A second token of `user`, by the instance administrator. */
async function secondToken(admin: ApiClient, user: TestUser): Promise<{ id: string; token: string }> {
  const res = await admin.post(`/v1/users/${user.id}/tokens`, { label: "second" });
  expect(res.status).toBe(201);
  return { id: res.body.id, token: res.body.token };
}

describe.each(MODES)("request logs never carry a secret that rode in a URL (%s)", (mode) => {
  let sys: RunningSystem;

  beforeAll(async () => {
    sys = mode === "embedded" ? await startEmbedded({ LOGLEVEL: "info" }, { captureLogs: true }) : await startNats({ env: { LOGLEVEL: "info" } });
  }, 120_000);
  afterAll(async () => {
    await sys?.stop();
  });

  test("share keys, visitor tokens, SSO link tickets and API tokens used in a run never appear in its logs", async () => {
    const owner = await createUser(sys.admin);
    const orgId = (await createOrg(owner.api)).id;
    const spaceId = (await createSpace(owner.api, orgId, { title: "Shared" })).id;
    await addPages(sys, spaceId, GUIDE_PAGES);
    const secrets: string[] = [sys.adminToken, owner.token];

    // A share-link site, read with its key; the space asked for with the key through the API.
    const site = await owner.api.post(`/v1/orgs/${orgId}/sites`, { title: "Shared site", spaces: [spaceId], visibility: "share-link" });
    expect(site.status).toBe(201);
    expect((await owner.api.post(`/v1/orgs/${orgId}/sites/${site.body.id}/publish`)).status).toBe(200);
    const link = await owner.api.post(`/v1/orgs/${orgId}/sites/${site.body.id}/share-links`, { name: "Link" });
    expect(link.status).toBe(201);
    const shareKey = new URL(link.body.urls.published).searchParams.get("share")!;
    secrets.push(shareKey);
    expect((await rawGet(sys.url, `/sites/${site.body.id}?share=${encodeURIComponent(shareKey)}`)).status).toBe(200);
    const space = await owner.api.get(`/v1/spaces/${spaceId}?shareKey=${encodeURIComponent(shareKey)}`);
    expect(space.status).toBe(200);
    // A path that is no site's, with the key: the API answers it (and logs the request line).
    expect((await owner.api.get(`/v1/orgs/${orgId}/sites?share=${encodeURIComponent(shareKey)}&jwt_token=${encodeURIComponent(shareKey)}x`)).status).toBeLessThan(500);

    // A visitor token of a visitor-auth site, signed with the site's key, on the site and sent to the API.
    const guarded = await owner.api.post(`/v1/orgs/${orgId}/sites`, { title: "Guarded", spaces: [spaceId], visibility: "visitor-auth" });
    expect(guarded.status).toBe(201);
    expect((await owner.api.post(`/v1/orgs/${orgId}/sites/${guarded.body.id}/publish`)).status).toBe(200);
    const auth = await owner.api.get(`/v1/orgs/${orgId}/sites/${guarded.body.id}/publishing/auth`);
    expect(auth.status).toBe(200);
    const visitorToken = signToken(auth.body.privateKey, { aud: guarded.body.id, exp: Math.floor(Date.now() / 1000) + 600 });
    secrets.push(auth.body.privateKey, visitorToken);
    expect((await rawGet(sys.url, `/sites/${guarded.body.id}?jwt_token=${visitorToken}`)).status).toBe(200);
    expect((await owner.api.get(`/v1/spaces/${spaceId}?jwt_token=${visitorToken}`)).status).toBeLessThan(500);

    // A file's download URL: the signed token in the path is the capability.
    const inserted = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, {
      changes: [{ type: "insert_file", name: "a.txt", contentType: "text/plain", data: Buffer.from("hello").toString("base64") }],
    });
    expect(inserted.status).toBe(201);
    const files = await owner.api.get(`/v1/spaces/${spaceId}/content/files`);
    const download = new URL(files.body.items[0].downloadURL);
    const fileToken = download.pathname.split("/").pop()!;
    secrets.push(fileToken);
    expect((await fetch(sys.url + download.pathname)).status).toBe(200);

    // An SSO link ticket, opened as a browser would.
    const idp = await makeIdp();
    const provider = await owner.api.post(`/v1/orgs/${orgId}/saml`, { label: "IdP", entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL });
    expect(provider.status).toBe(201);
    const ticketUrl = await owner.api.post(`/v1/orgs/${orgId}/saml/${provider.body.id}/link`, {});
    expect(ticketUrl.status).toBe(200);
    const start = new URL(ticketUrl.body.url);
    const ticket = start.searchParams.get("link")!;
    secrets.push(ticket);
    const started = await fetch(sys.url + start.pathname + start.search, { redirect: "manual" });
    expect(started.status).toBe(302);

    // A token sent where a URL takes one, and a second token that is then revoked.
    const extra = await secondToken(sys.admin, owner);
    secrets.push(extra.token);
    expect((await owner.api.get(`/v1/user?token=${encodeURIComponent(extra.token)}&access_token=${encodeURIComponent(extra.token)}`)).status).toBe(200);
    expect((await owner.api.delete(`/v1/users/${owner.id}/tokens/${extra.id}`)).status).toBe(204);

    // The lines are there (the capture works), with the request paths, but none of the secrets.
    await new Promise((r) => setTimeout(r, 500));
    const logs = sys.logs!.join("");
    expect(logs).toContain(`/v1/spaces/${spaceId}?shareKey=[redacted]`);
    expect(logs).toContain(`/sso/saml/${provider.body.id}/start?link=[redacted]`);
    expect(logs).toContain("token=[redacted]");
    expect(logs).toContain("/v1/files/[redacted]");
    for (const secret of secrets) expect(logs.includes(secret)).toBe(false);
    // Nor any URL-encoded form of them.
    for (const secret of secrets) expect(logs.includes(encodeURIComponent(secret))).toBe(false);
  });
});

describe.each(MODES)("rate limits count per user, whatever number of tokens (%s)", (mode) => {
  let sys: RunningSystem;
  /** Each gateway's URL: two in NATS mode, so a user's tokens spread over both. */
  let gateways: string[];

  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    if (mode === "embedded") {
      sys = await startEmbedded(env);
      gateways = [sys.url];
    } else {
      const nats = await startNats({ env, processes: [["gateway"], ["gateway"], ALL_SERVICES.filter((name) => name !== "gateway")], gatewayPerPort: true });
      sys = nats;
      gateways = nats.urls;
    }
  }, 120_000);
  afterAll(async () => {
    await sys?.stop();
  });

  test("two tokens of one user share one budget and together hit 429 at the limit; another user is not affected", async () => {
    const user = await createUser(sys.admin);
    const other = await createUser(sys.admin);
    const second = await secondToken(sys.admin, user);
    const clients = [new ApiClient(gateways[0], user.token), new ApiClient(gateways[gateways.length - 1], second.token)];
    await awayFromWindowEdge();
    // Alternating tokens (and, over NATS, gateways) until refused: per token they would get 2 × LIMIT.
    let admitted = 0;
    for (let i = 0; i < 2 * LIMIT; i++) {
      const res = await clients[i % 2].get("/v1/user");
      if (res.status === 429) break;
      expect([i, res.status]).toEqual([i, 200]);
      admitted++;
      // One process counts exactly; gateways share counts within a flush, and a gateway's first hit of a
      // user it has not seen yet cannot know the others' counts (NatsCounterStore's bounded overshoot).
      if (gateways.length === 1) expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - i - 1));
      else await new Promise((r) => setTimeout(r, SETTLE_MS));
    }
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    expect(admitted).toBeLessThanOrEqual(LIMIT + gateways.length - 1);
    for (const client of clients) {
      const refused = await client.get("/v1/user");
      expect(refused.status).toBe(429);
      expectErrorBody(429, refused.body);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    // A third token minted now starts no fresh budget.
    const third = await secondToken(sys.admin, user);
    expect((await new ApiClient(gateways[0], third.token).get("/v1/user")).status).toBe(429);
    expect((await new ApiClient(gateways[0], other.token).get("/v1/user")).status).toBe(200);
  });

  test("a revoked token is refused on the very next request, on every gateway", async () => {
    const user = await createUser(sys.admin);
    const extra = await secondToken(sys.admin, user);
    // Cached on each gateway first.
    for (const url of gateways) expect((await new ApiClient(url, extra.token).get("/v1/user")).status).toBe(200);
    expect((await new ApiClient(gateways[0], user.token).delete(`/v1/users/${user.id}/tokens/${extra.id}`)).status).toBe(204);
    for (const url of gateways) {
      const res = await new ApiClient(url, extra.token).get("/v1/user");
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
  });
});
