// Editing a SAML provider in the organization's sign-in settings (issue 39), through the HTTP gateway in both
// process modes: the form shows the provider's fields and saves them in place (identity's updateSamlProvider),
// a blank certificate keeping the current one; a refused field is a 400 naming it and changes nothing; the form
// needs its CSRF token; another organization's administrator finds nothing (404); a reader is refused (the
// page's 404 in the app, the API's 403).
import { addMember, createOrg, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";
import { makeIdp, type TestIdp } from "./saml-idp";

describe.each(MODES)("editing a SAML provider in the app over %s", (mode) => {
  let sys: RunningSystem;
  let alice: TestUser;
  let reader: TestUser;
  let bob: TestUser;
  let orgId: string;
  let bobOrgId: string;
  let aliceB: Browser;
  let readerB: Browser;
  let bobB: Browser;
  let idp: TestIdp;
  let other: TestIdp;

  beforeAll(async () => {
    sys = await start(mode);
    [alice, reader, bob] = await Promise.all(["Alice Admin", "Rita Reader", "Bob Elsewhere"].map((displayName) => createUser(sys.admin, { displayName })));
    orgId = (await createOrg(alice.api, "SAML Edit Org")).id;
    await addMember(alice.api, orgId, reader.email, "read");
    bobOrgId = (await createOrg(bob.api, "Bob's org")).id;
    [aliceB, readerB, bobB] = [new Browser(sys.url), new Browser(sys.url), new Browser(sys.url)];
    for (const [b, u] of [
      [aliceB, alice],
      [readerB, reader],
      [bobB, bob],
    ] as const)
      expect((await signIn(b, u.token)).status).toBe(303);
    [idp, other] = await Promise.all([makeIdp(), makeIdp()]);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  const sso = () => `/o/${orgId}/sso`;
  const named = (field: string) => `&#39;${field}&#39;`;

  async function provider(label = "Corp IdP"): Promise<string> {
    const created = await alice.api.post(`/v1/orgs/${orgId}/saml`, { label, entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const stored = async (id: string) => (await alice.api.get(`/v1/orgs/${orgId}/saml/${id}`)).body;

  test("the form shows the provider's fields and saves them in place; a blank certificate keeps it, a new one replaces it", async () => {
    const id = await provider();
    const page = await aliceB.get(sso());
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<details class="edit-saml"><summary>Edit`);
    expect(page.text).toContain(`id="saml-entity-${id}" name="entityID" required maxlength="1024" value="${idp.entityID}"`);
    expect(page.text).toContain(`id="saml-url-${id}" name="ssoURL" required maxlength="2048" value="${idp.ssoURL}"`);
    const saved = await aliceB.post(sso(), {
      _csrf: csrfOf(page.text),
      intent: "edit-saml",
      provider: id,
      label: "Renamed IdP",
      entityID: "https://idp.example.com/entity",
      ssoURL: "https://idp.example.com/sso",
      defaultRole: "edit",
      certificate: "",
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(sso());
    const after = await stored(id);
    expect(after).toMatchObject({ id, label: "Renamed IdP", entityID: "https://idp.example.com/entity", ssoURL: "https://idp.example.com/sso", defaultRole: "edit" });
    expect(after.certificate.replace(/\s/g, "")).toBe(idp.certificate.replace(/\s/g, ""));
    const shown = await aliceB.get(sso());
    expect(shown.text).toContain("Renamed IdP");
    expect(shown.text).toContain(`<option value="edit" selected>edit</option>`);
    // Still one provider: edited, not added again.
    expect((await alice.api.get(`/v1/orgs/${orgId}/saml`)).body.items.filter((p: { id: string }) => p.id === id)).toHaveLength(1);

    const replaced = await aliceB.post(sso(), {
      _csrf: csrfOf(shown.text),
      intent: "edit-saml",
      provider: id,
      label: "Renamed IdP",
      entityID: "https://idp.example.com/entity",
      ssoURL: "https://idp.example.com/sso",
      defaultRole: "read",
      certificate: other.certificate,
    });
    expect(replaced.status).toBe(303);
    expect((await stored(id)).certificate.replace(/\s/g, "")).toBe(other.certificate.replace(/\s/g, ""));
  });

  test("a refused field is a 400 naming it, and nothing changes", async () => {
    const id = await provider("Strict IdP");
    const before = await stored(id);
    const good = { intent: "edit-saml", provider: id, label: "Strict IdP", entityID: idp.entityID, ssoURL: idp.ssoURL, defaultRole: "read", certificate: "" };
    const cases: Array<[string, Record<string, string>]> = [
      ["label", { label: "" }],
      ["label", { label: "x".repeat(31) }],
      ["entityID", { entityID: " " }],
      ["ssoURL", { ssoURL: "not a url" }],
      ["certificate", { certificate: "-----BEGIN CERTIFICATE-----\nnonsense\n-----END CERTIFICATE-----" }],
      ["defaultRole", { defaultRole: "owner" }],
    ];
    for (const [field, change] of cases) {
      const res = await aliceB.post(sso(), { _csrf: csrfOf((await aliceB.get(sso())).text), ...good, ...change });
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(res.text).toContain(named(field));
    }
    expect(await stored(id)).toEqual(before);
    // An unknown provider (or a malformed id) is the not-found page.
    for (const provider of ["nope", "../x"]) {
      const res = await aliceB.post(sso(), { _csrf: csrfOf((await aliceB.get(sso())).text), ...good, provider });
      expect(res.status).toBe(404);
    }
  });

  test("CSRF: no token or a forged one is 403 and changes nothing", async () => {
    const id = await provider("Guarded IdP");
    const fields = { intent: "edit-saml", provider: id, label: "Forged", entityID: idp.entityID, ssoURL: idp.ssoURL, defaultRole: "admin" };
    expect((await aliceB.post(sso(), fields)).status).toBe(403);
    expect((await aliceB.post(sso(), { ...fields, _csrf: "x".repeat(43) })).status).toBe(403);
    expect((await new Browser(sys.url).post(sso(), fields)).status).toBe(403);
    expect((await stored(id)).label).toBe("Guarded IdP");
  });

  test("another organization's administrator finds nothing (404); a reader is refused (the app's 404, the API's 403); nothing changes", async () => {
    const id = await provider("Private IdP");
    const fields = { intent: "edit-saml", provider: id, label: "Taken", entityID: idp.entityID, ssoURL: idp.ssoURL, defaultRole: "admin", certificate: "" };
    // Bob, with a good token of his own organization's page, posting to Alice's organization: 404.
    const bobCsrf = csrfOf((await bobB.get(`/o/${bobOrgId}/sso`)).text);
    expect((await bobB.post(sso(), { _csrf: bobCsrf, ...fields })).status).toBe(404);
    // Alice's provider named through Bob's own organization's form: not his, 404.
    expect((await bobB.post(`/o/${bobOrgId}/sso`, { _csrf: bobCsrf, ...fields })).status).toBe(404);
    expect((await bob.api.patch(`/v1/orgs/${orgId}/saml/${id}`, { label: "Taken" })).status).toBe(404);
    expect((await bob.api.patch(`/v1/orgs/${bobOrgId}/saml/${id}`, { label: "Taken" })).status).toBe(404);
    const readerCsrf = csrfOf((await readerB.get("/app/account")).text);
    expect((await readerB.post(sso(), { _csrf: readerCsrf, ...fields })).status).toBe(404);
    expect((await reader.api.patch(`/v1/orgs/${orgId}/saml/${id}`, { label: "Taken" })).status).toBe(403);
    expect(await stored(id)).toMatchObject({ label: "Private IdP", defaultRole: "read" });
  });
});
