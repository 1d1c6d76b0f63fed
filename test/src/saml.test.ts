// SAML single sign-on end to end, against an identity provider made in the test, in every process mode.
import { randomUUID } from "node:crypto";
import { addMember, createOrg, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, type Mode, startPrivate } from "./modes";
import { encode, injectAssertion, makeIdp, readAuthnRequest, responseXml, rsaKey, type ResponseOptions, type TestIdp } from "./saml-idp";

/** The browser routes count anonymous requests per address; this suite makes more than a person would. */
const ENV = { RATE_LIMIT_ANON_PER_MINUTE: "10000" };
const start = (mode: Mode) => startPrivate(mode, ENV);

interface Provider {
  id: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

describe.each(MODES)("SAML single sign-on over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let teamId: string;
  let idp: TestIdp;
  let provider: Provider;

  const path = (url: string) => new URL(url).pathname;

  async function createProvider(api: TestUser["api"], organizationId: string, forIdp: TestIdp, extra: Record<string, unknown> = {}) {
    return api.post(`/v1/orgs/${organizationId}/saml`, { label: "Test IdP", entityID: forIdp.entityID, certificate: forIdp.certificate, ssoURL: forIdp.ssoURL, ...extra });
  }

  /** Opens the start URL as a browser would and answers the AuthnRequest it redirects to. */
  async function begin(p: Provider, startURL = p.service.startURL) {
    const url = new URL(startURL);
    const res = await fetch(sys.url + url.pathname + url.search, { redirect: "manual" });
    expect(res.status).toBe(302);
    return readAuthnRequest(res.headers.get("location") ?? "");
  }

  async function post(p: Provider, xml: string) {
    const res = await fetch(sys.url + path(p.service.acsURL), { method: "POST", body: new URLSearchParams({ SAMLResponse: encode(xml), RelayState: "" }) });
    const text = await res.text();
    return { status: res.status, text, headers: res.headers, token: /<code id="token"[^>]*>([^<]+)</.exec(text)?.[1] };
  }

  async function optionsFor(p: Provider, email = `sso-${randomUUID()}@example.com`, startURL?: string): Promise<ResponseOptions> {
    const request = await begin(p, startURL);
    return { inResponseTo: request.id, acsURL: p.service.acsURL, audience: p.service.entityID, email };
  }

  /** The start URL that links `user`'s existing account to the provider. */
  async function linkURL(user: TestUser, p: Provider, organizationId = orgId): Promise<string> {
    const res = await user.api.post(`/v1/orgs/${organizationId}/saml/${p.id}/link`, {});
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/\?link=/);
    return res.body.url;
  }

  async function expectRefused(p: Provider, xml: string, reason: RegExp) {
    const res = await post(p, xml);
    expect(res.status).toBe(403);
    const body = JSON.parse(res.text);
    expectErrorBody(403, body);
    expect(body.error.message).toMatch(reason);
  }

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    teamId = (await owner.api.put(`/v1/orgs/${orgId}/teams`, { title: "Federated" })).body.id;
    idp = await makeIdp();
    const created = await createProvider(owner.api, orgId, idp, { defaultTeam: teamId, defaultRole: "edit" });
    expect(created.status).toBe(201);
    provider = created.body;
    // First sign-ins create accounts only in a domain the organization verified (isolation-identity.test.ts).
    expect((await sys.admin.post(`/v1/orgs/${orgId}/domains/example.com/approve`, {})).status).toBe(200);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("providers", () => {
    test("creating a provider answers GitBook's OrganizationSAMLProvider with our service URLs, active", async () => {
      const created = await createProvider(owner.api, orgId, await makeIdp(), { defaultTeam: teamId });
      expect(created.status).toBe(201);
      expectSchema("createOrganizationSAMLProvider", 201, created.body);
      expect(created.headers.get("location")).toBe(created.body.urls.location);
      expect(created.body).toMatchObject({ object: "saml-provider", label: "Test IdP", status: "active", defaultRole: "read", defaultTeam: { id: teamId, title: "Federated" } });
      expect(created.body.service.acsURL).toMatch(new RegExp(`/sso/saml/${created.body.id}/acs$`));
      expect(created.body.service.startURL).toMatch(new RegExp(`/sso/saml/${created.body.id}/start$`));
    });

    test("list, get, patch and delete a provider; deleting a missing one is 204", async () => {
      const created = (await createProvider(owner.api, orgId, await makeIdp())).body;
      const list = await owner.api.get(`/v1/orgs/${orgId}/saml?limit=100`);
      expect(list.status).toBe(200);
      expectSchema("listSAMLProvidersInOrganizationById", 200, list.body);
      expect(list.body.items.map((p: { id: string }) => p.id)).toContain(created.id);
      const got = await owner.api.get(`/v1/orgs/${orgId}/saml/${created.id}`);
      expectSchema("getOrganizationSAMLProviderById", 200, got.body);
      const patched = await owner.api.patch(`/v1/orgs/${orgId}/saml/${created.id}`, { label: "Renamed", defaultRole: null });
      expect(patched.status).toBe(200);
      expectSchema("updateOrganizationSAMLProvider", 200, patched.body);
      expect(patched.body).toMatchObject({ label: "Renamed", defaultRole: null, entityID: created.entityID });
      expect((await owner.api.delete(`/v1/orgs/${orgId}/saml/${created.id}`)).status).toBe(204);
      const gone = await owner.api.get(`/v1/orgs/${orgId}/saml/${created.id}`);
      expect(gone.status).toBe(404);
      expectErrorBody(404, gone.body);
      expect((await owner.api.delete(`/v1/orgs/${orgId}/saml/${created.id}`)).status).toBe(204);
    });

    test.each([
      [{ certificate: "not a certificate" }, "certificate"],
      [{ ssoURL: "javascript:alert(1)" }, "ssoURL"],
      [{ label: "" }, "label"],
      [{ defaultTeam: "no-such-team" }, "defaultTeam"],
      [{ defaultRole: "owner" }, "defaultRole"],
    ])("creating a provider with %j is 400 naming %s", async (extra, field) => {
      const res = await createProvider(owner.api, orgId, idp, extra);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("members who are not admins get 403, strangers 404", async () => {
      const member = await createUser(sys.admin);
      await addMember(owner.api, orgId, member.email, "edit");
      const stranger = await createUser(sys.admin);
      expect((await member.api.get(`/v1/orgs/${orgId}/saml`)).status).toBe(403);
      expect((await createProvider(member.api, orgId, idp)).status).toBe(403);
      expect((await stranger.api.get(`/v1/orgs/${orgId}/saml/${provider.id}`)).status).toBe(404);
      expect((await stranger.api.delete(`/v1/orgs/${orgId}/saml/${provider.id}`)).status).toBe(404);
    });

    test("GET /sso lists each provider's label and start URL; a missing organization is 404", async () => {
      const res = await owner.api.get(`/v1/orgs/${orgId}/sso`);
      expect(res.status).toBe(200);
      expectSchema("listSSOProviderLoginsInOrganization", 200, res.body);
      expect(res.body.items).toContainEqual({ id: provider.id, label: "Test IdP", startURL: provider.service.startURL });
      expect((await owner.api.get("/v1/orgs/no-such-org/sso")).status).toBe(404);
    });

    test("the SP metadata document names our entity id and assertion consumer URL", async () => {
      const res = await fetch(`${sys.url}/sso/saml/${provider.id}/metadata`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/xml/);
      const xml = await res.text();
      expect(xml).toContain(`entityID="${provider.service.entityID}"`);
      expect(xml).toContain(`Location="${provider.service.acsURL}"`);
      expect(xml).toContain('WantAssertionsSigned="true"');
      expect(res.headers.get("x-ratelimit-limit")).toBe("10000"); // counted like every anonymous request
    });
  });

  describe("sign-in", () => {
    test("the start URL redirects to the IdP with an AuthnRequest from our entity id to our ACS", async () => {
      const request = await begin(provider);
      expect(request.id).toMatch(/^_/);
      expect(request.destination).toBe(idp.ssoURL);
      expect(request.acsURL).toBe(provider.service.acsURL);
      expect(request.issuer).toBe(provider.service.entityID);
    });

    test("a valid response signs the user in: a new user, an SSO member with the default role and team, and an API token", async () => {
      const options = { ...(await optionsFor(provider)), displayName: "Federated Fran" };
      const res = await post(provider, responseXml(idp, options));
      expect(res.status).toBe(200);
      expect(res.token).toMatch(/^dsk_/);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const api = sys.admin.as(res.token);
      const me = await api.get("/v1/user");
      expect(me.body).toMatchObject({ email: options.email, displayName: "Federated Fran" });
      const member = await owner.api.get(`/v1/orgs/${orgId}/members/${me.body.id}`);
      expect(member.status).toBe(200);
      expect(member.body).toMatchObject({ role: "edit", sso: true });
      const teams = await owner.api.get(`/v1/orgs/${orgId}/members/${me.body.id}/teams`);
      expect(teams.body.items.map((t: { team: { id: string } }) => t.team.id)).toEqual([teamId]);
      expect((await api.get(`/v1/orgs/${orgId}`)).status).toBe(200);
      // An ordinary API token: its owner revokes it like any other.
      const tokenId = /data-token-id="([^"]+)"/.exec(res.text)?.[1];
      expect((await api.delete(`/v1/users/${me.body.id}/tokens/${tokenId}`)).status).toBe(204);
      expect((await api.get("/v1/user")).status).toBe(401);
    });

    test("a new display name from the IdP is the account's from the next sign-in, and everything that shows the user follows it", async () => {
      const options = await optionsFor(provider);
      const first = await post(provider, responseXml(idp, { ...options, displayName: "Sam Before" }));
      expect(first.status).toBe(200);
      const me = await sys.admin.as(first.token).get("/v1/user");
      expect(me.body.displayName).toBe("Sam Before");
      const again = await post(provider, responseXml(idp, { ...(await optionsFor(provider, options.email)), displayName: "Sam After" }));
      expect(again.status).toBe(200);
      expect((await sys.admin.as(again.token).get("/v1/user")).body.displayName).toBe("Sam After");
      // The change is broadcast as identity.user.changed: orgs refreshes the member's search text (other nodes too).
      const deadline = Date.now() + 5000;
      let found: string[] = [];
      while (Date.now() < deadline) {
        const res = await owner.api.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent("Sam After")}`);
        found = res.body.items.map((m: { user: { id: string } }) => m.user.id);
        if (found.includes(me.body.id)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(found).toContain(me.body.id);
    });

    test("an IdP cannot sign in an existing account it merely names by email", async () => {
      await expectRefused(provider, responseXml(idp, await optionsFor(provider, owner.email)), /not linked/);
      await expectRefused(provider, responseXml(idp, await optionsFor(provider, "admin@localhost")), /not linked/);
      const member = await createUser(sys.admin);
      await addMember(owner.api, orgId, member.email, "read"); // even a member of the organization
      await expectRefused(provider, responseXml(idp, await optionsFor(provider, member.email)), /not linked/);
    });

    test("an existing account signs in once its owner linked it, and keeps signing in afterwards", async () => {
      const existing = await createUser(sys.admin);
      const linked = await post(provider, responseXml(idp, await optionsFor(provider, existing.email, await linkURL(existing, provider))));
      expect(linked.status).toBe(200);
      expect((await sys.admin.as(linked.token).get("/v1/user")).body.id).toBe(existing.id);
      const again = await post(provider, responseXml(idp, await optionsFor(provider, existing.email)));
      expect(again.status).toBe(200);
      expect((await sys.admin.as(again.token).get("/v1/user")).body.id).toBe(existing.id);
    });

    test("a link ticket works once, and only for the email of the account that asked", async () => {
      const existing = await createUser(sys.admin);
      const url = await linkURL(existing, provider);
      await expectRefused(provider, responseXml(idp, await optionsFor(provider, owner.email, url)), /not for the account that asked/);
      const reused = await fetch(sys.url + new URL(url).pathname + new URL(url).search, { redirect: "manual" });
      expect(reused.status).toBe(403);
      expectErrorBody(403, await reused.json());
    });

    test("an unsigned response is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), signResponse: false, signAssertion: false }), /signature/i);
    });

    test("a signed response whose assertion is not signed is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), signAssertion: false }), /signature/i);
    });

    test("a response signed by another key is refused", async () => {
      const otherKey = (await rsaKey()).privateKey;
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), signingKey: otherKey }), /signature/i);
    });

    test("a response changed after signing is refused", async () => {
      const options = await optionsFor(provider, "honest@example.com");
      const tampered = responseXml(idp, options).replace("honest@example.com", "ceo@example.com");
      await expectRefused(provider, tampered, /signature/i);
    });

    test("a response with a second assertion injected is refused", async () => {
      const options = await optionsFor(provider);
      const injected = injectAssertion(responseXml(idp, options), idp, { ...options, email: "intruder@example.com" });
      await expectRefused(provider, injected, /signature|multiple/i);
    });

    test("an expired assertion is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), issuedAt: -3600, validFor: 60 }), /expired|too old|NotOnOrAfter|subject confirmation/i);
    });

    test("an assertion for another audience is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), audience: "https://someone-else.example.com/sp" }), /audience/i);
    });

    test("a response sent to another Destination is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), destination: "https://evil.example.com/acs" }), /Destination/);
    });

    test("an assertion meant for another Recipient is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), recipient: "https://evil.example.com/acs" }), /Recipient/);
    });

    test("a response naming another Issuer is refused", async () => {
      await expectRefused(provider, responseXml(idp, { ...(await optionsFor(provider)), issuer: "https://other-idp.example.com" }), /identity provider/);
    });

    test("a response without a request we sent is refused", async () => {
      const options = await optionsFor(provider);
      await expectRefused(provider, responseXml(idp, { ...options, inResponseTo: "_never-sent" }), /InResponseTo/);
    });

    test("another organization's IdP cannot sign users into this organization", async () => {
      const other = await createUser(sys.admin);
      const otherOrg = (await createOrg(other.api)).id;
      const otherIdp = await makeIdp();
      const otherProvider: Provider = (await createProvider(other.api, otherOrg, otherIdp)).body;
      // Its own response, posted to our ACS with a request id of ours: its key is not the one we pinned.
      const ours = await optionsFor(provider);
      await expectRefused(provider, responseXml(otherIdp, { ...ours, issuer: idp.entityID }), /signature/i);
      // A response for the other provider, replayed at ours: wrong audience, destination and key.
      const theirs = await optionsFor(otherProvider);
      await expectRefused(provider, responseXml(otherIdp, theirs), /signature|InResponseTo/i);
      // A request id of ours answered through the other provider is unknown there.
      await expectRefused(otherProvider, responseXml(otherIdp, { ...(await optionsFor(otherProvider)), inResponseTo: (await begin(provider)).id }), /InResponseTo/);
    });

    test("a response accepted once is refused the second time", async () => {
      const xml = responseXml(idp, await optionsFor(provider));
      expect((await post(provider, xml)).status).toBe(200);
      const again = await post(provider, xml);
      expect(again.status).toBe(403);
    });

    test("a response posted twice at the same moment signs in once", async () => {
      const xml = responseXml(idp, await optionsFor(provider));
      const answers = await Promise.all([post(provider, xml), post(provider, xml), post(provider, xml)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403]);
    });
  });

  describe("organizations that require SSO", () => {
    test("refuse members who did not come through SSO until they sign in through it", async () => {
      const plain = await createUser(sys.admin);
      await addMember(owner.api, orgId, plain.email, "comment");
      expect((await plain.api.get(`/v1/orgs/${orgId}`)).status).toBe(200);
      expect((await owner.api.patch(`/v1/orgs/${orgId}`, { sso: true })).status).toBe(200);
      try {
        const refused = await plain.api.get(`/v1/orgs/${orgId}`);
        expect(refused.status).toBe(404);
        expectErrorBody(404, refused.body);
        // The sign-in entries stay visible to them, so they can come back in.
        expect((await plain.api.get(`/v1/orgs/${orgId}/sso`)).body.items.map((p: { id: string }) => p.id)).toContain(provider.id);
        expect((await owner.api.get(`/v1/orgs/${orgId}`)).status).toBe(200); // administrators stay in
        const res = await post(provider, responseXml(idp, await optionsFor(provider, plain.email, await linkURL(plain, provider))));
        expect(res.status).toBe(200);
        const back = await plain.api.get(`/v1/orgs/${orgId}`);
        expect(back.status).toBe(200);
        expect((await owner.api.get(`/v1/orgs/${orgId}/members/${plain.id}`)).body).toMatchObject({ role: "comment", sso: true });
      } finally {
        await owner.api.patch(`/v1/orgs/${orgId}`, { sso: false });
      }
    });
  });
});
