// Signing in to the app through the organization's SAML provider, through the HTTP gateway with an
// identity provider made in the test: the sign-in page sends the browser to the IdP, the assertion
// consumer hands a one-time grant to the app, the app opens a session and goes back where the link was.
import { randomUUID } from "node:crypto";
import { createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf } from "./app-fixtures";
import { MODES, type Mode, startPrivate } from "./modes";
import { encode, makeIdp, readAuthnRequest, responseXml, type TestIdp } from "./saml-idp";
import { countStored } from "./store-snapshot";

/** The /sso routes count anonymous requests per address; this suite makes more than a person would. */
const ENV = { RATE_LIMIT_ANON_PER_MINUTE: "10000" };
const start = (mode: Mode) => startPrivate(mode, ENV);

interface Provider {
  id: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

describe.each(MODES)("the app's SSO sign-in over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let spaceId: string;
  let idp: TestIdp;
  let provider: Provider;

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    otherOrgId = (await createOrg(owner.api)).id;
    spaceId = (await createSpace(owner.api, orgId)).id;
    idp = await makeIdp();
    const created = await owner.api.post(`/v1/orgs/${orgId}/saml`, { label: "Test IdP", entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL, defaultRole: "read" });
    expect(created.status).toBe(201);
    provider = created.body;
    expect((await sys.admin.post(`/v1/orgs/${orgId}/domains/example.com/approve`, {})).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  /** The sign-in page's SSO form, posted for the organization: answers the start path the app sends the browser to. */
  async function startFromApp(browser: Browser, returnTo: string, organization = orgId): Promise<string> {
    const form = await browser.get(`/app/sign-in?return=${encodeURIComponent(returnTo)}`);
    expect(form.text).toContain('action="/app/sign-in/sso"');
    const res = await browser.post("/app/sign-in/sso", { _csrf: csrfOf(form.text), organization, return: returnTo });
    expect(res.status).toBe(303);
    return res.location ?? "";
  }

  /** The IdP's part: follows the start path to the AuthnRequest, answers it signed for `email`, posts it to the ACS. */
  async function throughIdp(browser: Browser, startPath: string, email: string): Promise<{ status: number; location: string | null; text: string }> {
    const toIdp = await browser.get(startPath);
    expect(toIdp.status).toBe(302);
    const request = readAuthnRequest(toIdp.location ?? "");
    const xml = responseXml(idp, { inResponseTo: request.id, acsURL: provider.service.acsURL, audience: provider.service.entityID, email });
    // The IdP's page posts the form: a cross-site POST, with no cookie of ours needed.
    const res = await fetch(sys.url + new URL(provider.service.acsURL).pathname, { method: "POST", body: new URLSearchParams({ SAMLResponse: encode(xml), RelayState: "" }), redirect: "manual" });
    return { status: res.status, location: res.headers.get("location"), text: await res.text() };
  }

  /** The id of the organization's SSO member with this email (the instance administrator sees emails). */
  async function userIdOf(email: string): Promise<string> {
    const members = (await owner.api.get(`/v1/orgs/${orgId}/members?limit=100`)).body.items as Array<{ id: string; sso: boolean }>;
    for (const m of members.filter((x) => x.sso)) if ((await sys.admin.get(`/v1/users/${m.id}`)).body.email === email) return m.id;
    throw new Error(`no SSO member ${email}`);
  }

  const sessionsOf = (userId: string) =>
    countStored({ dataDir: sys.dataDir, mongoUrl: (sys as RunningSystem & { mongoUrl?: string }).mongoUrl }, "app", "sessions", (d) => d.userId === userId);

  test("SSO from the sign-in page opens a session for the IdP's user and returns to the link; the grant works once", async () => {
    const browser = new Browser(sys.url);
    const link = `/s/${spaceId}`;
    const startPath = await startFromApp(browser, link);
    expect(startPath).toMatch(new RegExp(`^/sso/saml/${provider.id}/start\\?app=[0-9a-f]{64}&return=`));
    expect(new URL(startPath, sys.url).searchParams.get("return")).toBe(link);

    const email = `sso-app-${randomUUID()}@example.com`;
    const acs = await throughIdp(browser, startPath, email);
    expect(acs.status).toBe(303);
    expect(acs.location).toMatch(/^\/app\/sso\/complete\?grant=[A-Za-z0-9_-]{43}$/);
    expect(acs.text).not.toMatch(/dsk_/); // no token shown: the app gets a grant, not the token

    const signInCookie = browser.cookies.get("docshelf_signin")!;
    const done = await browser.get(acs.location!);
    expect(done.status).toBe(303);
    expect(done.location).toBe(link);
    expect(done.headers.getSetCookie().find((c) => c.startsWith("docshelf_session="))).toMatch(/HttpOnly; SameSite=Lax/);
    const opened = await browser.get(link);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('action="/app/sign-out"');

    // The session is the IdP's user's, a member of this organization only.
    const userId = await userIdOf(email);
    expect(await sessionsOf(userId)).toBe(1);
    expect((await browser.get(`/o/${orgId}`)).status).toBe(200);
    expect((await browser.get(`/o/${otherOrgId}`)).status).toBe(404);

    // The same grant again, even from a browser holding the same sign-in cookie: refused, no session.
    const replay = new Browser(sys.url);
    replay.cookies.set("docshelf_signin", signInCookie);
    const again = await replay.get(acs.location!);
    expect(again.status).toBe(403);
    expect(replay.cookies.has("docshelf_session")).toBe(false);
    expect(await sessionsOf(userId)).toBe(1);
  });

  test("a grant from a sign-in started in another browser is refused (and used up)", async () => {
    const attacker = new Browser(sys.url);
    const acs = await throughIdp(attacker, await startFromApp(attacker, "/app"), `sso-app-${randomUUID()}@example.com`);
    expect(acs.status).toBe(303);
    const victim = new Browser(sys.url);
    await victim.get("/app/sign-in");
    const pushed = await victim.get(acs.location!);
    expect(pushed.status).toBe(403);
    expect(victim.cookies.has("docshelf_session")).toBe(false);
    expect((await attacker.get(acs.location!)).status).toBe(403);
    // Without any sign-in cookie at all: refused too.
    expect((await new Browser(sys.url).get(acs.location!)).status).toBe(403);
  });

  test("a foreign return path is refused at the start URL, and replaced by the app's start page in the app's form", async () => {
    const binding = "0".repeat(64);
    for (const bad of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const res = await fetch(`${sys.url}/sso/saml/${provider.id}/start?app=${binding}&return=${encodeURIComponent(bad)}`, { redirect: "manual" });
      expect(res.status).toBe(400);
    }
    const browser = new Browser(sys.url);
    const startPath = await startFromApp(browser, "https://evil.example/");
    expect(new URL(startPath, sys.url).searchParams.get("return")).toBe("/app");
    const acs = await throughIdp(browser, startPath, `sso-app-${randomUUID()}@example.com`);
    const done = await browser.get(acs.location!);
    expect(done.status).toBe(303);
    expect(done.location).toBe("/app");
  });

  test("an organization without a SAML provider, or an unknown one, shows the sign-in page again", async () => {
    const browser = new Browser(sys.url);
    const form = await browser.get("/app/sign-in");
    for (const organization of [otherOrgId, "no-such-org", "<script>"]) {
      const res = await browser.post("/app/sign-in/sso", { _csrf: csrfOf(form.text), organization, return: "/app" });
      expect(res.status).toBe(404);
      expect(res.text).toContain("does not sign in through SSO here");
    }
    // And without the form's CSRF token: 403.
    expect((await browser.post("/app/sign-in/sso", { organization: orgId })).status).toBe(403);
  });

  test("a sign-in started outside the app still shows the API token page", async () => {
    const res = await throughIdp(new Browser(sys.url), new URL(provider.service.startURL).pathname, `sso-api-${randomUUID()}@example.com`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<code id="token"[^>]*>dsk_/);
  });
});
