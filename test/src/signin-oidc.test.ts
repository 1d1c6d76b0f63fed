// OpenID Connect sign-in to the app through an organization's OpenID Provider: a real one (oidc-provider)
// on loopback in a process of its own. The app's SSO form lists the provider; the sign-in carries state,
// nonce and PKCE, ends with the app's grant, and follows SAML's rule for accounts (verified domains).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { addMember, createOrg, createUser, freePort, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, type Page } from "./app-fixtures";
import { MODES, type Mode, startPrivate } from "./modes";

interface Op {
  issuer: string;
  port: number;
  control(body: Record<string, unknown>): Promise<void>;
  stop(): void;
}

async function startOp(port: number, redirectUris: string[]): Promise<Op> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, "oidc-op.mjs"), JSON.stringify({ port, clientId: "docshelf", clientSecret: "op-client-secret-for-tests", redirectUris })], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the OP did not start: ${out}`)), 20_000);
    const seen = (d: Buffer) => {
      out += String(d);
      if (out.includes("ready ")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", () => reject(new Error(`the OP exited: ${out}`)));
  });
  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    port,
    async control(body) {
      const res = await fetch(`${issuer}/test/control`, { method: "POST", body: JSON.stringify(body) });
      expect(res.status).toBe(204);
    },
    stop: () => child.kill("SIGTERM"),
  };
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe.each(MODES)("OpenID Connect sign-in over %s", (mode: Mode) => {
  let sys: RunningSystem;
  let op: Op;
  let owner: TestUser;
  let orgId: string;
  let providerId: string;
  const domain = `oidc-${randomUUID().slice(0, 8)}.example.com`;

  beforeAll(async () => {
    const opPort = await freePort();
    const env = { OIDC_FETCH_ALLOW_PRIVATE: `127.0.0.1:${opPort}`, RATE_LIMIT_ANON_PER_MINUTE: "100000" };
    sys = await startPrivate(mode, env);
    op = await startOp(opPort, [`${sys.url}/sso/oidc/PLACEHOLDER/callback`]);
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    expect((await sys.admin.post(`/v1/orgs/${orgId}/domains/${domain}/approve`, {})).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    op?.stop();
    await sys?.stop();
  });

  /** Creates the provider; the OP learns its redirect URI (the OP of this suite takes any registered one, restarted with it). */
  async function createProvider(): Promise<string> {
    const created = await owner.api.post(`/v1/docshelf/orgs/${orgId}/oidc`, { label: "Test OP", issuer: op.issuer, clientId: "docshelf", clientSecret: "op-client-secret-for-tests" });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("clientSecret");
    expect(created.body.redirectURL).toBe(`${sys.url}/sso/oidc/${created.body.id}/callback`);
    return created.body.id;
  }

  beforeAll(async () => {
    providerId = await createProvider();
    // The OP registers redirect URIs at start: start it again knowing this provider's.
    op.stop();
    await new Promise((r) => setTimeout(r, 300));
    op = await startOp(op.port, [`${sys.url}/sso/oidc/${providerId}/callback`]);
  }, 60_000);

  /** From the app's SSO form to the OP: answers the authorization request URL. */
  async function startSignIn(browser: Browser, returnTo = "/app"): Promise<string> {
    const form = await browser.get(`/app/sign-in?return=${encodeURIComponent(returnTo)}`);
    const toStart = await browser.post("/app/sign-in/sso", { _csrf: csrfOf(form.text), organization: orgId, return: returnTo });
    expect(toStart.status).toBe(303);
    expect(toStart.location).toMatch(new RegExp(`^/sso/oidc/${providerId}/start\\?app=[0-9a-f]{64}&return=`));
    const toOp = await browser.get(toStart.location!);
    expect(toOp.status).toBe(302);
    const auth = new URL(toOp.location!);
    expect(auth.origin).toBe(op.issuer);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("state")).toBeTruthy();
    expect(auth.searchParams.get("nonce")).toBeTruthy();
    return toOp.location!;
  }

  /** The person at the OP (signed in and consenting at once): answers the callback path with code and state. */
  async function atOp(authUrl: string): Promise<string> {
    const opBrowser = new Browser(op.issuer);
    let res = await opBrowser.get(pathOf(authUrl));
    for (let hops = 0; hops < 6 && res.location && !res.location.startsWith(sys.url); hops++) {
      res = await opBrowser.get(res.location.startsWith("http") ? pathOf(res.location) : res.location);
    }
    expect(res.location).toMatch(new RegExp(`^${sys.url}/sso/oidc/${providerId}/callback\\?`));
    return pathOf(res.location!);
  }

  function person(email = `p-${randomUUID().slice(0, 8)}@${domain}`, extra: Record<string, unknown> = {}) {
    return { sub: randomUUID(), email, email_verified: true, name: "Olga Idc", ...extra };
  }

  async function complete(browser: Browser, callback: string): Promise<Page> {
    const back = await browser.get(callback);
    expect(back.status).toBe(303);
    expect(back.location).toMatch(/^\/app\/sso\/complete\?grant=/);
    return browser.get(back.location!);
  }

  test("a new person in a verified domain: account created, member of the organization, app session opened; the same subject signs in again", async () => {
    const who = person();
    await op.control({ account: who });
    const browser = new Browser(sys.url);
    const done = await complete(browser, await atOp(await startSignIn(browser, `/o/${orgId}`)));
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/o/${orgId}`);
    expect((await browser.get(`/o/${orgId}`)).status).toBe(200);
    const members = (await owner.api.get(`/v1/orgs/${orgId}/members?limit=100`)).body.items as Array<{ user: { displayName: string }; sso: boolean; role: string }>;
    expect(members.find((m) => m.user.displayName === "Olga Idc")).toMatchObject({ sso: true, role: "read" });

    const again = new Browser(sys.url);
    expect((await complete(again, await atOp(await startSignIn(again)))).status).toBe(303);
    expect((await again.get("/app")).status).toBe(200);
  });

  test("state: a callback with an unknown, replayed or other browser's state opens nothing", async () => {
    await op.control({ account: person() });
    const browser = new Browser(sys.url);
    const callback = await atOp(await startSignIn(browser));
    const forged = new URL(callback, sys.url);
    forged.searchParams.set("state", "forged-state");
    expect((await browser.get(forged.pathname + forged.search)).status).toBe(403);
    expect((await browser.get(`/sso/oidc/${providerId}/callback?code=x`)).status).toBe(403);
    // The real one works once…
    expect((await complete(browser, callback)).status).toBe(303);
    // …and never again.
    expect((await browser.get(callback)).status).toBe(403);

    // Login CSRF: an attacker's finished sign-in pushed into a victim's browser ends with a grant the victim's app refuses.
    const attacker = new Browser(sys.url);
    const attackerCallback = await atOp(await startSignIn(attacker));
    const victim = new Browser(sys.url);
    await victim.get("/app/sign-in");
    const back = await victim.get(attackerCallback);
    expect(back.status).toBe(303);
    expect((await victim.get(back.location!)).status).toBe(403);
    expect(victim.cookies.has("docshelf_session")).toBe(false);
  });

  test("PKCE: a code of one sign-in brought back with another sign-in's state is refused at the token endpoint", async () => {
    await op.control({ account: person() });
    const browser = new Browser(sys.url);
    const first = new URL(await atOp(await startSignIn(browser)), sys.url);
    const second = new URL(await atOp(await startSignIn(browser)), sys.url);
    // The first sign-in's code with the second's state (and so its verifier and nonce).
    const swapped = new URL(second);
    swapped.searchParams.set("code", first.searchParams.get("code")!);
    const res = await browser.get(swapped.pathname + swapped.search);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/invalid_grant/);
    expect(browser.cookies.has("docshelf_session")).toBe(false);
    expect(browser.cookies.has("docshelf_session")).toBe(false);
  });

  test("nonce: an ID token whose nonce is not this sign-in's is refused", async () => {
    await op.control({ account: person(), tamper: "nonce" });
    try {
      const browser = new Browser(sys.url);
      const res = await browser.get(await atOp(await startSignIn(browser)));
      expect(res.status).toBe(403);
      expect(res.text).toMatch(/nonce/i);
    } finally {
      await op.control({ tamper: null });
    }
  });

  test("accounts: no account in an unverified domain, none for an unverified email, and an existing account is never taken over", async () => {
    const browser = new Browser(sys.url);
    await op.control({ account: person(`x-${randomUUID().slice(0, 8)}@unverified.example.org`) });
    const unverifiedDomain = await browser.get(await atOp(await startSignIn(browser)));
    expect(unverifiedDomain.status).toBe(403);
    expect(unverifiedDomain.text).toMatch(/not verified the email domain/);

    await op.control({ account: person(undefined, { email_verified: false }) });
    const unverifiedEmail = await browser.get(await atOp(await startSignIn(browser)));
    expect(unverifiedEmail.status).toBe(403);
    expect(unverifiedEmail.text).toMatch(/verified/);

    // The instance administrator's email (or anyone's) asserted by an organization's OP signs nobody in.
    const victim = await createUser(sys.admin, { email: `victim-${randomUUID().slice(0, 8)}@${domain}` });
    await op.control({ account: person(victim.email) });
    const takeover = await browser.get(await atOp(await startSignIn(browser)));
    expect(takeover.status).toBe(403);
    expect(takeover.text).toMatch(/already exists/);
    expect(browser.cookies.has("docshelf_session")).toBe(false);
  });

  test("an existing account is linked by its owner (a one-time ticket; the OP must vouch for that account's email), then signs in through the OP", async () => {
    const owned = await createUser(sys.admin, { email: `linked-${randomUUID().slice(0, 8)}@elsewhere.example.org` });
    const ticket = await owned.api.post(`/v1/docshelf/orgs/${orgId}/oidc/${providerId}/link`, {});
    expect(ticket.status).toBe(200);
    expect(ticket.body.url).toMatch(new RegExp(`^${sys.url}/sso/oidc/${providerId}/start\\?link=`));
    const sub = randomUUID();

    // The OP vouching for someone else's email: refused, and the ticket is used up.
    await op.control({ account: { sub, email: `other-${randomUUID().slice(0, 8)}@elsewhere.example.org`, email_verified: true, name: "Other" } });
    const browser = new Browser(sys.url);
    const wrongStart = await browser.get(pathOf(ticket.body.url));
    expect(wrongStart.status).toBe(302);
    const wrong = await browser.get(await atOp(wrongStart.location!));
    expect(wrong.status).toBe(403);
    expect(wrong.text).toMatch(/not for the account that asked to link/);
    expect((await browser.get(pathOf(ticket.body.url))).status).toBe(403);

    // A new ticket, the OP vouching for the account's own email: linked.
    const again = await owned.api.post(`/v1/docshelf/orgs/${orgId}/oidc/${providerId}/link`, {});
    await op.control({ account: { sub, email: owned.email, email_verified: true, name: "Owner" } });
    const start = await browser.get(pathOf(again.body.url));
    const linked = await browser.get(await atOp(start.location!));
    expect(linked.status).toBe(200);
    expect(linked.text).toMatch(/is linked/);
    expect(browser.cookies.has("docshelf_session")).toBe(false);

    // From now on that subject signs in as the account (outside the verified domain: the account existed).
    const signingIn = new Browser(sys.url);
    expect((await complete(signingIn, await atOp(await startSignIn(signingIn)))).status).toBe(303);
    expect((await signingIn.get("/app")).status).toBe(200);
    const sessions = await owned.api.get("/v1/docshelf/user/sessions");
    expect(sessions.body.items.map((x: { method: string }) => x.method)).toContain("oidc");
    expect((await fetch(`${sys.url}/v1/docshelf/orgs/${orgId}/oidc/${providerId}/link`, { method: "POST" })).status).toBe(401);
  });

  test("providers: organization admins only (members 403, others 404, anonymous 401); 400 names the field; the secret is never answered", async () => {
    const member = await createUser(sys.admin);
    await addMember(owner.api, orgId, member.email, "edit");
    expect((await member.api.get(`/v1/docshelf/orgs/${orgId}/oidc`)).status).toBe(403);
    expect((await member.api.post(`/v1/docshelf/orgs/${orgId}/oidc`, { label: "x", issuer: op.issuer, clientId: "a", clientSecret: "b" })).status).toBe(403);
    expect((await member.api.delete(`/v1/docshelf/orgs/${orgId}/oidc/${providerId}`)).status).toBe(403);
    const stranger = await createUser(sys.admin);
    expect((await stranger.api.get(`/v1/docshelf/orgs/${orgId}/oidc`)).status).toBe(404);
    expect((await stranger.api.post(`/v1/docshelf/orgs/${orgId}/oidc`, { label: "x", issuer: op.issuer, clientId: "a", clientSecret: "b" })).status).toBe(404);
    expect((await stranger.api.delete(`/v1/docshelf/orgs/${orgId}/oidc/${providerId}`)).status).toBe(404);
    expect((await fetch(`${sys.url}/v1/docshelf/orgs/${orgId}/oidc`)).status).toBe(401);
    const missing = await owner.api.post(`/v1/docshelf/orgs/${orgId}/oidc`, { label: "x", clientId: "a", clientSecret: "b" });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/issuer/);
    const badRole = await owner.api.post(`/v1/docshelf/orgs/${orgId}/oidc`, { label: "x", issuer: op.issuer, clientId: "a", clientSecret: "b", defaultRole: "king" });
    expect(badRole.status).toBe(400);
    expect(JSON.stringify(badRole.body)).toMatch(/defaultRole/);
    const listed = await owner.api.get(`/v1/docshelf/orgs/${orgId}/oidc`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((p: { id: string }) => p.id)).toContain(providerId);
    expect(JSON.stringify(listed.body)).not.toContain("op-client-secret-for-tests");
    expect((await owner.api.get(`/v1/docshelf/orgs/${orgId}/oidc/${providerId}`)).body.issuer).toBe(op.issuer);
  });
});
