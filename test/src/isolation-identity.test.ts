// Tenant isolation, identity half: two organizations whose admins attack each other with SSO providers,
// SSO sign-ins, email domains, invitations, member enrolment and tokens, in every process mode.
// Each finding of issue 21 about accounts is a test here that fails on the code before the fix.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@docshelf/config";
import { createBroker, listeningPort } from "@docshelf/server";
import { ApiClient, createOrg, createUser, expectErrorBody, freePort, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { startDns, type TestDns } from "./dns-server";
import { countStored } from "./store-snapshot";
import { MODES, type Mode, startPrivate } from "./modes";
import { encode, makeIdp, readAuthnRequest, responseXml, type TestIdp } from "./saml-idp";

const MAX_TOKENS = 5;
/** Generous: in one process the DNS server shares the event loop with the whole system under test. */
const DNS_TIMEOUT_MS = 2000;

interface Provider {
  id: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

interface Side {
  admin: TestUser;
  orgId: string;
  idp: TestIdp;
  provider: Provider;
  /** A domain this organization verified through DNS. */
  domain: string;
}

const rand = () => randomBytes(4).toString("hex");

describe.each(MODES)("identity isolation between organizations over %s", (mode: Mode) => {
  let dns: TestDns;
  let sys: RunningSystem;
  let a: Side;
  let b: Side;

  const domains = (orgId: string) => `/v1/orgs/${orgId}/domains`;

  /** Opens the start URL, answers its AuthnRequest with a signed response for `email`, posts it to the ACS. */
  async function signIn(side: { idp: TestIdp; provider: Provider }, email: string, startURL = side.provider.service.startURL) {
    const start = new URL(startURL);
    const redirect = await fetch(sys.url + start.pathname + start.search, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    const request = readAuthnRequest(redirect.headers.get("location") ?? "");
    const xml = responseXml(side.idp, { inResponseTo: request.id, acsURL: side.provider.service.acsURL, audience: side.provider.service.entityID, email });
    const res = await fetch(sys.url + new URL(side.provider.service.acsURL).pathname, { method: "POST", body: new URLSearchParams({ SAMLResponse: encode(xml) }) });
    const text = await res.text();
    const token = /<code id="token"[^>]*>([^<]+)</.exec(text)?.[1];
    return { status: res.status, text, type: res.headers.get("content-type") ?? "", token, api: token ? sys.admin.as(token) : undefined };
  }

  /** Claims `domain` for the organization, publishes its TXT record and verifies it. */
  async function verifyByDns(api: ApiClient, orgId: string, domain: string) {
    const claimed = await api.post(domains(orgId), { domain });
    expect([200, 201]).toContain(claimed.status);
    dns.setTxt(claimed.body.verification.name, [claimed.body.verification.value]);
    const verified = await api.post(`${domains(orgId)}/${domain}/verify`);
    expect(verified.status).toBe(200);
    return verified.body;
  }

  async function side(name: string): Promise<Side> {
    const admin = await createUser(sys.admin);
    const orgId = (await createOrg(admin.api, `Org ${name}`)).id;
    const idp = await makeIdp();
    const created = await admin.api.post(`/v1/orgs/${orgId}/saml`, { label: `IdP ${name}`, entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL, defaultRole: "read" });
    expect(created.status).toBe(201);
    const domain = `${name}-${rand()}.test`;
    await verifyByDns(admin.api, orgId, domain);
    return { admin, orgId, idp, provider: created.body, domain };
  }

  /** Whether an account with this email exists: the instance administrator creating it would be 409. */
  async function accountExists(email: string): Promise<boolean> {
    const res = await sys.admin.post("/v1/users", { email, displayName: "Probe" });
    if (res.status === 201) return false;
    expect(res.status).toBe(409);
    return true;
  }

  async function until(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    dns = await startDns();
    const env = { RATE_LIMIT_ANON_PER_MINUTE: "10000", SSO_DNS_SERVERS: dns.address, SSO_DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS), MAX_TOKENS_PER_USER: String(MAX_TOKENS) };
    sys = await startPrivate(mode, env);
    [a, b] = [await side("a"), await side("b")];
  }, 180_000);
  afterAll(async () => {
    await sys?.stop();
    await dns?.close();
  });

  describe("verified email domains", () => {
    test("claiming hands out a TXT record; verify checks it through the configured DNS server", async () => {
      const domain = `claim-${rand()}.test`;
      const claimed = await a.admin.api.post(domains(a.orgId), { domain: domain.toUpperCase() });
      expect(claimed.status).toBe(201);
      expect(claimed.body).toMatchObject({
        object: "sso-domain",
        organization: a.orgId,
        domain,
        status: "pending",
        verification: { type: "TXT", name: `_docshelf-verification.${domain}` },
      });
      expect(claimed.body.verification.value).toMatch(/^docshelf-verification=[A-Za-z0-9_-]{32}$/);
      expect(claimed.headers.get("location")).toBe(claimed.body.urls.location);
      // Claiming again answers the same claim.
      const again = await a.admin.api.post(domains(a.orgId), { domain });
      expect(again.status).toBe(200);
      expect(again.body.verification.value).toBe(claimed.body.verification.value);

      const missing = await a.admin.api.post(`${domains(a.orgId)}/${domain}/verify`);
      expect(missing.status).toBe(400);
      expectErrorBody(400, missing.body);
      expect(missing.body.error.message).toContain(`_docshelf-verification.${domain}`);
      expect(dns.asked).toContain(`_docshelf-verification.${domain}`);

      dns.setTxt(claimed.body.verification.name, ["docshelf-verification=someone-elses-value", "v=spf1 -all"]);
      const wrong = await a.admin.api.post(`${domains(a.orgId)}/${domain}/verify`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.message).toMatch(/no TXT record/);

      dns.setTxt(claimed.body.verification.name, ["v=spf1 -all", claimed.body.verification.value]);
      const verified = await a.admin.api.post(`${domains(a.orgId)}/${domain}/verify`);
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ domain, status: "verified", verifiedBy: "dns" });
      expect(typeof verified.body.verifiedAt).toBe("string");

      const listed = await a.admin.api.get(domains(a.orgId));
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((d: { domain: string }) => d.domain)).toEqual(expect.arrayContaining([a.domain, domain]));
      expect((await a.admin.api.get(`${domains(a.orgId)}/${domain}`)).body.status).toBe("verified");
    });

    test("a DNS server that does not answer makes verify answer 400 within the configured time", async () => {
      const domain = `quiet-${rand()}.slow.test`;
      expect((await a.admin.api.post(domains(a.orgId), { domain })).status).toBe(201);
      const started = Date.now();
      const res = await a.admin.api.post(`${domains(a.orgId)}/${domain}/verify`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(`did not answer within ${DNS_TIMEOUT_MS} ms`);
      expect(Date.now() - started).toBeLessThan(DNS_TIMEOUT_MS + 3000);
    });

    test("a domain is verified for one organization at a time: another one gets 409, even with its own record or an instance admin", async () => {
      // B claims A's verified domain.
      const claim = await b.admin.api.post(domains(b.orgId), { domain: a.domain });
      expect(claim.status).toBe(409);
      expectErrorBody(409, claim.body);
      expect((await sys.admin.post(`${domains(b.orgId)}/${a.domain}/approve`)).status).toBe(409);
      // Both claim a fresh domain; both records are published; the first to verify holds it.
      const contested = `contested-${rand()}.test`;
      const fromA = (await a.admin.api.post(domains(a.orgId), { domain: contested })).body;
      const fromB = (await b.admin.api.post(domains(b.orgId), { domain: contested })).body;
      expect(fromA.verification.value).not.toBe(fromB.verification.value);
      dns.setTxt(fromA.verification.name, [fromA.verification.value, fromB.verification.value]);
      expect((await a.admin.api.post(`${domains(a.orgId)}/${contested}/verify`)).status).toBe(200);
      const late = await b.admin.api.post(`${domains(b.orgId)}/${contested}/verify`);
      expect(late.status).toBe(409);
      expect((await b.admin.api.get(`${domains(b.orgId)}/${contested}`)).body.status).toBe("pending");
      // Given up by A, the domain is free for B.
      expect((await a.admin.api.delete(`${domains(a.orgId)}/${contested}`)).status).toBe(204);
      expect((await a.admin.api.delete(`${domains(a.orgId)}/${contested}`)).status).toBe(204);
      expect((await b.admin.api.post(`${domains(b.orgId)}/${contested}/verify`)).body.status).toBe("verified");
    });

    test("an instance administrator approves a domain without DNS; organization admins cannot", async () => {
      const domain = `approved-${rand()}.test`;
      const denied = await b.admin.api.post(`${domains(b.orgId)}/${domain}/approve`);
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
      expect((await b.admin.api.get(`${domains(b.orgId)}/${domain}`)).status).toBe(404);
      const approved = await sys.admin.post(`${domains(b.orgId)}/${domain}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ domain, status: "verified", verifiedBy: "instance-admin", organization: b.orgId });
      expect((await sys.admin.post("/v1/orgs/no-such-org/domains/x.test/approve")).status).toBe(404);
      // B's IdP may now create accounts there.
      expect((await signIn(b, `new-${rand()}@${domain}`)).status).toBe(200);
    });

    test("who may manage domains: anonymous 401, members 403, another organization's admin 404, bad input 400", async () => {
      const anon = sys.admin.as(undefined);
      expect((await anon.get(domains(a.orgId))).status).toBe(401);
      expect((await anon.post(domains(a.orgId), { domain: "x.test" })).status).toBe(401);
      const forged = await sys.admin.as(`dsk_${randomBytes(32).toString("base64url")}`).post(`${domains(a.orgId)}/${a.domain}/verify`);
      expect(forged.status).toBe(401);
      expectErrorBody(401, forged.body);
      const member = (await signIn(a, `member-${rand()}@${a.domain}`)).api as ApiClient;
      for (const res of [await member.get(domains(a.orgId)), await member.post(domains(a.orgId), { domain: "m.test" }), await member.post(`${domains(a.orgId)}/${a.domain}/verify`), await member.delete(`${domains(a.orgId)}/${a.domain}`)]) {
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
      // B's admin against A's domains: as if the organization did not exist, and nothing changes.
      for (const res of [
        await b.admin.api.get(domains(a.orgId)),
        await b.admin.api.get(`${domains(a.orgId)}/${a.domain}`),
        await b.admin.api.post(domains(a.orgId), { domain: "b-into-a.test" }),
        await b.admin.api.post(`${domains(a.orgId)}/${a.domain}/verify`),
        await b.admin.api.post(`${domains(a.orgId)}/${a.domain}/approve`),
        await b.admin.api.delete(`${domains(a.orgId)}/${a.domain}`),
      ]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      expect((await a.admin.api.get(`${domains(a.orgId)}/${a.domain}`)).body.status).toBe("verified");
      for (const domain of ["not a domain", "localhost", "-x.test", `${"a".repeat(64)}.test`, 42]) {
        const res = await a.admin.api.post(domains(a.orgId), { domain });
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain("domain");
      }
      expect((await a.admin.api.post(`${domains(a.orgId)}/not_a_domain/verify`)).status).toBe(400);
    });

    test("an organization claims at most 20 domains (400 naming the limit)", async () => {
      const orgId = (await createOrg(b.admin.api, "Many domains")).id;
      for (let i = 0; i < 20; i++) expect((await b.admin.api.post(domains(orgId), { domain: `d${i}-${rand()}.test` })).status).toBe(201);
      const over = await b.admin.api.post(domains(orgId), { domain: `over-${rand()}.test` });
      expect(over.status).toBe(400);
      expectErrorBody(400, over.body);
      expect(over.body.error.message).toContain("20");
    });
  });

  describe("SSO sign-in creates accounts only in the organization's verified domains", () => {
    test("an unverified domain is refused with a page that says why, and no account is created", async () => {
      const email = `someone-${rand()}@unverified-${rand()}.test`;
      const res = await signIn(a, email);
      expect(res.status).toBe(403);
      expect(res.type).toMatch(/^text\/html/);
      expect(res.text).toContain("has not verified the email domain");
      expect(res.text).toContain(email.split("@")[1]);
      expect(res.token).toBeUndefined();
      expect(await accountExists(email)).toBe(false);
    });

    test("A's IdP cannot squat an email of B's verified domain, nor a pending claim of its own", async () => {
      const victim = `ceo-${rand()}@${b.domain}`;
      const res = await signIn(a, victim);
      expect(res.status).toBe(403);
      expect(res.text).toContain(b.domain);
      expect(await accountExists(victim)).toBe(false);
      const pending = `pending-${rand()}.test`;
      await a.admin.api.post(domains(a.orgId), { domain: pending });
      expect((await signIn(a, `x@${pending}`)).status).toBe(403);
      // B's own IdP signs the same person in.
      const own = await signIn(b, `cfo-${rand()}@${b.domain}`);
      expect(own.status).toBe(200);
      expect((await (own.api as ApiClient).get(`/v1/orgs/${b.orgId}`)).status).toBe(200);
    });
  });

  describe("invitations", () => {
    test("B's pending invitation does not convert when A's IdP creates the account; the invitee accepts it", async () => {
      // B invites an address in A's verified domain that has no account yet, as admin.
      const email = `target-${rand()}@${a.domain}`;
      expect((await b.admin.api.post(`/v1/orgs/${b.orgId}/invites`, { emails: [{ email, role: "admin" }] })).status).toBe(200);
      const invites = await b.admin.api.get(`/v1/orgs/${b.orgId}/invites`);
      expect(invites.status).toBe(200);
      const invite = invites.body.items.find((i: { email: string }) => i.email === email);
      expect(invite).toMatchObject({ object: "invite", role: "admin", sso: false });
      // A's admin signs that email in through A's IdP.
      const attacker = await signIn(a, email);
      expect(attacker.status).toBe(200);
      const api = attacker.api as ApiClient;
      const me = (await api.get("/v1/user")).body;
      await new Promise((r) => setTimeout(r, 500)); // the event that used to convert it has had its chance
      expect((await api.get(`/v1/orgs/${b.orgId}`)).status).toBe(404);
      expect((await api.get(`/v1/orgs/${b.orgId}/members`)).status).toBe(404);
      const members = await b.admin.api.get(`/v1/orgs/${b.orgId}/members?limit=1000`);
      expect(members.body.items.map((m: { id: string }) => m.id)).not.toContain(me.id);
      expect((await api.get("/v1/orgs")).body.items.map((o: { id: string }) => o.id)).toEqual([a.orgId]);
      // Still pending; someone else holding its id cannot take it.
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/invites`)).body.items.map((i: { id: string }) => i.id)).toContain(invite.id);
      const stolen = await a.admin.api.post(`/v1/orgs/${b.orgId}/invites/${invite.id}`);
      expect(stolen.status).toBe(404);
      expectErrorBody(404, stolen.body);
      expect((await a.admin.api.get(`/v1/orgs/${b.orgId}`)).status).toBe(404);
      // The invitee, signed in, accepts it: B decided to invite that address.
      const accepted = await api.post(`/v1/orgs/${b.orgId}/invites/${invite.id}`);
      expect(accepted.status).toBe(200);
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/members/${me.id}`)).body).toMatchObject({ role: "admin" });
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/invites`)).body.items.map((i: { id: string }) => i.id)).not.toContain(invite.id);
      expect((await api.post(`/v1/orgs/${b.orgId}/invites/${invite.id}`)).status).toBe(404); // used
    });

    test("an invitation converts when the organization's own SSO creates the account, or an instance admin does", async () => {
      const viaSso = `joiner-${rand()}@${b.domain}`;
      const viaAdmin = `hired-${rand()}@elsewhere-${rand()}.test`;
      expect((await b.admin.api.post(`/v1/orgs/${b.orgId}/invites`, { emails: [{ email: viaSso, role: "edit" }, { email: viaAdmin, role: "comment" }] })).status).toBe(200);
      expect((await a.admin.api.post(`/v1/orgs/${a.orgId}/invites`, { emails: [{ email: viaSso, role: "admin" }] })).status).toBe(200);
      const signed = await signIn(b, viaSso);
      expect(signed.status).toBe(200);
      const id = (await (signed.api as ApiClient).get("/v1/user")).body.id;
      const pendingIn = async (side: Side) => (await side.admin.api.get(`/v1/orgs/${side.orgId}/invites`)).body.items.map((i: { email: string }) => i.email);
      await until(async () => !(await pendingIn(b)).includes(viaSso), "B's invitation to convert");
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/members/${id}`)).body).toMatchObject({ role: "edit", sso: true }); // the invitation's role, not the provider's
      // A's invitation of the same address is not B's SSO's to convert.
      expect(await pendingIn(a)).toContain(viaSso);
      expect((await a.admin.api.get(`/v1/orgs/${a.orgId}/members/${id}`)).status).toBe(404);
      const hired = await createUser(sys.admin, { email: viaAdmin });
      await until(async () => (await b.admin.api.get(`/v1/orgs/${b.orgId}/members/${hired.id}`)).status === 200, "the instance admin's account to convert B's invitation");
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/members/${hired.id}`)).body.role).toBe("comment");
    });

    test("an account A's IdP made becomes B's member through B's own SSO once its owner links it: B's invitation applies", async () => {
      const email = `linker-${rand()}@${a.domain}`;
      expect((await b.admin.api.post(`/v1/orgs/${b.orgId}/invites`, { emails: [{ email, role: "review" }] })).status).toBe(200);
      const api = (await signIn(a, email)).api as ApiClient;
      const id = (await api.get("/v1/user")).body.id;
      // B's IdP alone may not sign in an account it did not make...
      expect((await signIn(b, email)).status).toBe(403);
      // ...until the owner asks to link it.
      const link = await api.post(`/v1/orgs/${b.orgId}/saml/${b.provider.id}/link`);
      expect(link.status).toBe(200);
      expect((await signIn(b, email, link.body.url)).status).toBe(200);
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/members/${id}`)).body).toMatchObject({ role: "review", sso: true });
      expect((await b.admin.api.get(`/v1/orgs/${b.orgId}/invites`)).body.items.map((i: { email: string }) => i.email)).not.toContain(email);
    });

    test("listing pending invitations takes an admin of the organization", async () => {
      expect((await sys.admin.as(undefined).get(`/v1/orgs/${b.orgId}/invites`)).status).toBe(401);
      expect((await a.admin.api.get(`/v1/orgs/${b.orgId}/invites`)).status).toBe(404);
      const member = (await signIn(b, `reader-${rand()}@${b.domain}`)).api as ApiClient;
      expect((await member.get(`/v1/orgs/${b.orgId}/invites`)).status).toBe(403);
    });
  });

  describe("enrolling a member in SSO", () => {
    test("A's admin cannot enrol B's admin (or any outsider) and so never sees their email", async () => {
      const res = await a.admin.api.post(`/v1/orgs/${a.orgId}/members/${b.admin.id}/sso`);
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
      expect(JSON.stringify(res.body)).not.toContain(b.admin.email);
      const list = await a.admin.api.get(`/v1/orgs/${a.orgId}/members?limit=1000`);
      expect(JSON.stringify(list.body)).not.toContain(b.admin.email);
      expect((await b.admin.api.get(`/v1/orgs/${a.orgId}`)).status).toBe(404);
      // Someone who came through B's SSO is not A's to enrol either.
      const bUser = await signIn(b, `b-only-${rand()}@${b.domain}`);
      const bUserId = (await (bUser.api as ApiClient).get("/v1/user")).body.id;
      expect((await a.admin.api.post(`/v1/orgs/${a.orgId}/members/${bUserId}/sso`)).status).toBe(404);
      // B's admin cannot enrol anyone into A.
      expect((await b.admin.api.post(`/v1/orgs/${a.orgId}/members/${bUserId}/sso`)).status).toBe(404);
    });

    test("a user who came through this organization's SSO and was removed is enrolled again", async () => {
      const signed = await signIn(a, `returning-${rand()}@${a.domain}`);
      const id = (await (signed.api as ApiClient).get("/v1/user")).body.id;
      expect((await a.admin.api.delete(`/v1/orgs/${a.orgId}/members/${id}`)).status).toBe(204);
      const back = await a.admin.api.post(`/v1/orgs/${a.orgId}/members/${id}/sso`);
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ id, sso: true });
    });
  });

  describe("API tokens", () => {
    test(`a user holds at most ${MAX_TOKENS} tokens: one more is 400 naming the limit; revoking makes room`, async () => {
      const user = await createUser(sys.admin); // holds one token already
      const made: Array<{ id: string; token: string }> = [];
      for (let i = 1; i < MAX_TOKENS; i++) {
        const res = await user.api.post(`/v1/users/${user.id}/tokens`, { label: `t${i}` });
        expect(res.status).toBe(201);
        made.push(res.body);
      }
      const over = await user.api.post(`/v1/users/${user.id}/tokens`, {});
      expect(over.status).toBe(400);
      expectErrorBody(400, over.body);
      expect(over.body.error.message).toContain(String(MAX_TOKENS));
      // The instance administrator is held to the same limit for the user.
      expect((await sys.admin.post(`/v1/users/${user.id}/tokens`, {})).status).toBe(400);
      expect((await user.api.delete(`/v1/users/${user.id}/tokens/${made[0].id}`)).status).toBe(204);
      expect((await user.api.post(`/v1/users/${user.id}/tokens`, {})).status).toBe(201);
      // Another organization's admin can neither mint nor revoke this user's tokens.
      expect((await a.admin.api.post(`/v1/users/${user.id}/tokens`, {})).status).toBe(403);
      expect((await a.admin.api.delete(`/v1/users/${user.id}/tokens/${made[1].id}`)).status).toBe(403);
      expect((await sys.admin.as(made[1].token).get("/v1/user")).status).toBe(200);
    });

    test("creations racing at the limit never leave the user above it, nor leave tokens behind", async () => {
      const user = await createUser(sys.admin); // holds one token already
      const answers = await Promise.all(Array.from({ length: 8 }, () => user.api.post(`/v1/users/${user.id}/tokens`, {})));
      const made = answers.filter((r) => r.status === 201);
      expect(made.length).toBeLessThanOrEqual(MAX_TOKENS - 1);
      for (const r of answers) expect([201, 400]).toContain(r.status);
      for (const r of made) expect((await user.api.delete(`/v1/users/${user.id}/tokens/${r.body.id}`)).status).toBe(204);
      // Back to the one token: exactly MAX_TOKENS - 1 more fit.
      for (let i = 1; i < MAX_TOKENS; i++) expect((await user.api.post(`/v1/users/${user.id}/tokens`, {})).status).toBe(201);
      expect((await user.api.post(`/v1/users/${user.id}/tokens`, {})).status).toBe(400);
    });

    test("SSO sign-ins at the limit revoke that user's oldest SSO tokens, never more than the limit", async () => {
      const email = `frequent-${rand()}@${a.domain}`;
      const tokens: string[] = [];
      for (let i = 0; i <= MAX_TOKENS; i++) {
        const res = await signIn(a, email);
        expect(res.status).toBe(200);
        tokens.push(res.token as string);
      }
      expect((await sys.admin.as(tokens[0]).get("/v1/user")).status).toBe(401);
      for (const token of tokens.slice(1)) expect((await sys.admin.as(token).get("/v1/user")).status).toBe(200);
    });

    test("tokens are stored only as their SHA-256", async () => {
      const user = await createUser(sys.admin);
      const hash = createHash("sha256").update(user.token).digest("hex");
      const mongoUrl = (sys as RunningSystem & { mongoUrl?: string }).mongoUrl;
      if (mongoUrl) {
        // Every collection in MongoDB: the tokens collection holds the hash, and no document the token.
        const where = { dataDir: sys.dataDir, mongoUrl };
        expect(await countStored(where, "identity", "tokens", (d) => d.hash === hash)).toBe(1);
        for (const collection of ["tokens", "users"]) {
          expect(await countStored(where, "identity", collection, (d) => JSON.stringify(d).includes(user.token))).toBe(0);
        }
        return;
      }
      const files = (function walk(dir: string): string[] {
        return readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      })(sys.dataDir);
      const stored = files.map((f) => readFileSync(f, "latin1")).join("\n");
      expect(stored).toContain(hash);
      expect(stored).not.toContain(user.token);
    });
  });
});

describe("ADMIN_EMAIL at start-up", () => {
  const MAIN = require.resolve("@docshelf/server/dist/main.js");
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "docshelf-admin-email-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function startIn(env: Record<string, string>) {
    const port = await freePort();
    const cfg = loadConfig({ DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}`, LOGLEVEL: "warn", ...env });
    const broker = createBroker(cfg, { logger: false });
    await broker.start();
    return { broker, api: new ApiClient(`http://127.0.0.1:${listeningPort(broker)}`, env.ADMIN_TOKEN) };
  }

  test("start-up refuses to promote an existing account and names ADMIN_EMAIL; the account stays ordinary", async () => {
    const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
    const email = `owner-${randomUUID()}@corp.test`;
    const first = await startIn({ ADMIN_TOKEN: adminToken, ADMIN_EMAIL: "root@admin.test" });
    let userToken: string;
    try {
      const user = await createUser(first.api, { email });
      userToken = user.token;
    } finally {
      await first.broker.stop();
    }
    // The real entry point, as an operator starts it, pointed at that account's email.
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATA_DIR: dataDir, MONGO_URL: "", PORT: String(port), HOST: "127.0.0.1", TRANSPORTER: "", SERVICES: "all", ADMIN_TOKEN: `dsk_${randomBytes(24).toString("base64url")}`, ADMIN_EMAIL: email.toUpperCase(), LOGLEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
      child.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    // It stopped by itself (a hang is killed after 90 s, with no exit code).
    expect(code).toBe(1);
    expect(stderr).toContain("ADMIN_EMAIL");
    expect(stderr).toContain(email);
    // Back with the dedicated administrator: the account was not promoted.
    const again = await startIn({ ADMIN_TOKEN: adminToken, ADMIN_EMAIL: "root@admin.test" });
    try {
      const asUser = again.api.as(userToken);
      expect((await asUser.get("/v1/user")).body.email).toBe(email);
      expect((await asUser.post("/v1/users", { email: `made-${randomUUID()}@corp.test`, displayName: "X" })).status).toBe(403);
      expect((await again.api.get("/v1/user")).body.email).toBe("root@admin.test");
    } finally {
      await again.broker.stop();
    }
  }, 180_000);
});
