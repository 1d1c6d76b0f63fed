// Setup and administration in the app without curl, through the HTTP gateway in both process modes: an
// organization created and renamed, spaces and collections created, renamed, moved and deleted, a site
// created with a space, its settings, look, share links and redirects, invite links joined, pending
// invitations revoked, the sign-in settings (verified domains with their TXT record), and one's own API
// tokens, password and sessions. For every form: no session, no CSRF token, a reader, another
// organization's user, a field refused by name, and odd input never a 5xx.
import { randomUUID } from "node:crypto";
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";

describe.each(MODES)("setup and administration forms in the app over %s", (mode) => {
  let sys: RunningSystem;
  let alice: TestUser;
  let reader: TestUser;
  let bob: TestUser;
  let orgId: string;
  let aliceB: Browser;
  let readerB: Browser;
  let bobB: Browser;

  beforeAll(async () => {
    sys = await start(mode);
    alice = await createUser(sys.admin, { displayName: "Alice Admin" });
    reader = await createUser(sys.admin, { displayName: "Rita Reader" });
    bob = await createUser(sys.admin, { displayName: "Bob Elsewhere" });
    orgId = (await createOrg(alice.api, "Admin Forms Org")).id;
    await addMember(alice.api, orgId, reader.email, "read");
    await createOrg(bob.api, "Bob's own org");
    aliceB = new Browser(sys.url);
    readerB = new Browser(sys.url);
    bobB = new Browser(sys.url);
    for (const [b, u] of [
      [aliceB, alice],
      [readerB, reader],
      [bobB, bob],
    ] as const)
      expect((await signIn(b, u.token)).status).toBe(303);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  const home = () => `/o/${orgId}`;
  /** Posts with the CSRF token of `page` as `browser` sees it. */
  async function postAs(browser: Browser, pagePath: string, action: string, fields: Record<string, string>) {
    const page = await browser.get(pagePath);
    const csrf = csrfOf(page.text);
    return browser.post(action, { _csrf: csrf, ...fields });
  }
  /** A reader or another organization's user: refused (the not-found page, or 403), nothing changed. */
  const refused = (status: number) => expect([403, 404]).toContain(status);
  /** A field's name as a refusal names it, in the page's escaped HTML ('title'). */
  const named = (field: string) => `&#39;${field}&#39;`;

  test("without a session the pages send to sign-in and the forms are refused; without the CSRF token every new form is 403", async () => {
    const anon = new Browser(sys.url);
    for (const path of ["/app/account", `${home()}/sso`, `/app/join/${orgId}/abcdef`]) {
      const page = await anon.get(path);
      expect(page.status).toBe(303);
      expect(page.location).toBe(`/app/sign-in?return=${encodeURIComponent(path)}`);
    }
    const forms: Array<[string, Record<string, string>]> = [
      ["/app", { intent: "create-org", title: "Forged org" }],
      ["/app/account", { intent: "create-token", label: "forged" }],
      ["/app/account", { intent: "password", password: "x".repeat(20), confirm: "x".repeat(20) }],
      [home(), { intent: "create-space", title: "Forged" }],
      [home(), { intent: "create-collection", title: "Forged" }],
      [home(), { intent: "create-site", title: "Forged" }],
      [home(), { intent: "create-link-invite", role: "admin" }],
      [`${home()}/settings`, { intent: "rename", title: "Forged" }],
      [`${home()}/sso`, { intent: "add-domain", domain: "forged.example.com" }],
    ];
    for (const [path, fields] of forms) {
      expect((await anon.post(path, fields)).status).toBe(403);
      expect((await aliceB.post(path, fields)).status).toBe(403);
      expect((await aliceB.post(path, { ...fields, _csrf: "x".repeat(43) })).status).toBe(403);
    }
    const orgs = (await alice.api.get("/v1/orgs?limit=100")).body.items as Array<{ title: string }>;
    expect(orgs.map((o) => o.title)).not.toContain("Forged org");
    expect((await alice.api.get(`/v1/orgs/${orgId}`)).body.title).toBe("Admin Forms Org");
  });

  test("an organization is created from the home page (its creator its administrator) and renamed in its settings", async () => {
    const page = await aliceB.get("/app");
    expect(page.text).toContain('value="create-org"');
    const short = await postAs(aliceB, "/app", "/app", { intent: "create-org", title: " x " });
    expect(short.status).toBe(400);
    expect(short.text).toContain(named("title"));
    const created = await postAs(aliceB, "/app", "/app", { intent: "create-org", title: "  Made in the browser  " });
    expect(created.status).toBe(303);
    const newOrg = created.location!.split("/").pop()!;
    expect(created.location).toBe(`/o/${newOrg}`);
    const api = await alice.api.get(`/v1/orgs/${newOrg}`);
    expect(api.body.title).toBe("Made in the browser");
    expect(api.body.permissions.admin).toBe(true);

    const settings = `/o/${newOrg}/settings`;
    expect((await aliceB.get(settings)).text).toContain('value="rename"');
    expect((await postAs(aliceB, settings, settings, { intent: "rename", title: "Renamed org" })).location).toBe(settings);
    expect((await alice.api.get(`/v1/orgs/${newOrg}`)).body.title).toBe("Renamed org");
    const tooLong = await postAs(aliceB, settings, settings, { intent: "rename", title: "y".repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain(named("title"));

    // A reader has no rename form and is refused; another organization's user finds nothing.
    expect((await readerB.get(`${home()}/settings`)).text).not.toContain('value="rename"');
    refused((await postAs(readerB, `${home()}/settings`, `${home()}/settings`, { intent: "rename", title: "Taken over" })).status);
    refused((await postAs(bobB, "/app", `${home()}/settings`, { intent: "rename", title: "Taken over" })).status);
    expect((await alice.api.get(`/v1/orgs/${orgId}`)).body.title).toBe("Admin Forms Org");
  });

  test("spaces and collections: created on the organization page, renamed, moved into a collection and out, deleted with the confirm box", async () => {
    const collection = await postAs(aliceB, home(), home(), { intent: "create-collection", title: "Guides" });
    expect(collection.status).toBe(303);
    const collectionId = collection.location!.split("/").pop()!;
    expect((await alice.api.get(`/v1/collections/${collectionId}`)).body.title).toBe("Guides");

    const space = await postAs(aliceB, home(), home(), { intent: "create-space", title: "Runbook", collection: collectionId });
    expect(space.status).toBe(303);
    const spaceId = space.location!.split("/").pop()!;
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ title: "Runbook", parent: collectionId });
    const tooLong = await postAs(aliceB, home(), home(), { intent: "create-space", title: "z".repeat(51) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain(named("title"));

    const settings = `/s/${spaceId}/~/settings`;
    expect((await aliceB.get(`/s/${spaceId}`)).text).toContain(`href="${settings}"`);
    expect((await postAs(aliceB, settings, settings, { intent: "rename", title: "Ops runbook", emoji: "📘" })).location).toBe(settings);
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ title: "Ops runbook", emoji: "📘" });
    expect((await postAs(aliceB, settings, settings, { intent: "move", parent: "" })).status).toBe(303);
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).body.parent).toBeUndefined();
    expect((await postAs(aliceB, settings, settings, { intent: "move", parent: collectionId })).status).toBe(303);
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).body.parent).toBe(collectionId);
    expect((await aliceB.get(`${home()}/c/${collectionId}`)).text).toContain("Ops runbook");

    // The reader sees the space, but its settings forms are the API's refusal; Bob finds nothing.
    refused((await postAs(readerB, `/s/${spaceId}`, settings, { intent: "rename", title: "Hijacked" })).status);
    refused((await postAs(readerB, `/s/${spaceId}`, settings, { intent: "delete", confirm: "yes" })).status);
    refused((await postAs(readerB, home(), home(), { intent: "create-space", title: "Reader's" })).status);
    expect((await bobB.get(settings)).status).toBe(404);
    expect((await postAs(bobB, "/app", settings, { intent: "rename", title: "Hijacked" })).status).toBe(404);
    expect((await postAs(bobB, "/app", home(), { intent: "create-space", title: "Bob's" })).status).toBe(404);
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).body.title).toBe("Ops runbook");

    // The collection: renamed; a reader and Bob refused; deleted only with its box ticked.
    const cpath = `${home()}/c/${collectionId}`;
    expect((await postAs(aliceB, cpath, cpath, { intent: "rename", title: "Handbooks", description: "For the team" })).location).toBe(cpath);
    expect((await alice.api.get(`/v1/collections/${collectionId}`)).body).toMatchObject({ title: "Handbooks", description: "For the team" });
    expect((await readerB.get(cpath)).text).not.toContain('value="rename"');
    refused((await postAs(readerB, cpath, cpath, { intent: "rename", title: "Mine" })).status);
    expect((await postAs(bobB, "/app", cpath, { intent: "delete", confirm: "yes" })).status).toBe(404);

    const unconfirmed = await postAs(aliceB, settings, settings, { intent: "delete" });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.text).toContain(named("confirm"));
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).status).toBe(200);
    expect((await postAs(aliceB, settings, settings, { intent: "delete", confirm: "yes" })).location).toBe(home());
    expect((await alice.api.get(`/v1/spaces/${spaceId}`)).status).toBe(404);
    expect((await postAs(aliceB, cpath, cpath, { intent: "delete" })).status).toBe(400);
    expect((await postAs(aliceB, cpath, cpath, { intent: "delete", confirm: "yes" })).location).toBe(home());
    expect((await alice.api.get(`/v1/collections/${collectionId}`)).status).toBe(404);
  });

  test("a site: created with a space, its basename, visibility, hostname, look, share links and redirects set in the page, deleted", async () => {
    const space = await createSpace(alice.api, orgId, { title: "Public docs" });
    const created = await postAs(aliceB, home(), home(), { intent: "create-site", title: "Docs site", space: space.id });
    expect(created.status).toBe(303);
    const sitePath = created.location!;
    const siteId = sitePath.split("/").pop()!;
    const api = `/v1/orgs/${orgId}/sites/${siteId}`;
    const spaces = await alice.api.get(`${api}/site-spaces`);
    expect(spaces.body.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([space.id]);

    const basename = `docs-${randomUUID().slice(0, 8)}`;
    const settings = { intent: "settings", title: "Docs site", basename, visibility: "unlisted", hostname: "" };
    expect((await postAs(aliceB, sitePath, sitePath, settings)).location).toBe(sitePath);
    expect((await alice.api.get(api)).body).toMatchObject({ basename, visibility: "unlisted" });
    const badBasename = await postAs(aliceB, sitePath, sitePath, { ...settings, basename: "Not OK!" });
    expect(badBasename.status).toBe(400);
    expect(badBasename.text).toContain(named("basename"));
    const badHost = await postAs(aliceB, sitePath, sitePath, { ...settings, hostname: "localhost" });
    expect(badHost.status).toBe(400);
    expect(badHost.text).toContain(named("hostname"));
    const badVisibility = await postAs(aliceB, sitePath, sitePath, { ...settings, visibility: "everyone" });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.text).toContain(named("visibility"));

    const look = { intent: "customization", logo: "https://cdn.example.com/logo.png", favicon: "https://cdn.example.com/icon.png", primaryColor: "#cc3300", theme: "dark", toggle: "on" };
    expect((await postAs(aliceB, sitePath, sitePath, look)).location).toBe(sitePath);
    const customization = (await alice.api.get(`${api}/customization`)).body;
    expect(customization.header.logo).toEqual({ light: look.logo, dark: look.logo });
    expect(customization.favicon.icon).toEqual({ light: look.favicon, dark: look.favicon });
    expect(customization.styling.primaryColor).toEqual({ light: "#cc3300", dark: "#cc3300" });
    expect(customization.themes).toMatchObject({ default: "dark", toggeable: true });
    for (const [field, value] of [
      ["primaryColor", "red"],
      ["logo", "javascript:alert(1)"],
      ["favicon", "not a url"],
      ["theme", "blue"],
    ]) {
      const bad = await postAs(aliceB, sitePath, sitePath, { ...look, [field]: value });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain(named(field));
    }
    const page = await aliceB.get(sitePath);
    expect(page.text).toContain('value="https://cdn.example.com/logo.png"');
    expect(page.text).toContain('value="#cc3300"');

    // A share link: its address shown once, on the answer that creates it.
    const share = await postAs(aliceB, sitePath, sitePath, { intent: "create-share-link", name: "Partners" });
    expect(share.status).toBe(201);
    const url = /id="share-link-url" readonly value="([^"]+)"/.exec(share.text)![1].replace(/&amp;/g, "&");
    expect(url).toContain("share=");
    expect((await aliceB.get(sitePath)).text).not.toContain(url);
    const links = (await alice.api.get(`${api}/share-links`)).body.items as Array<{ id: string; name: string }>;
    expect(links.map((l) => l.name)).toEqual(["Partners"]);

    // Redirects: a path and an external address; a source that is not a path is refused by name.
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "create-redirect", source: "/old", destination: "https://example.com/new" })).location).toBe(sitePath);
    // A path is a page of the site's space: a page that is not there is refused, naming the field.
    const noPage = await postAs(aliceB, sitePath, sitePath, { intent: "create-redirect", source: "/gone", destination: "/no/such/page" });
    expect(noPage.status).toBe(400);
    expect(noPage.text).toContain("destination");
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "create-redirect", source: "/away", destination: "https://example.com/x" })).status).toBe(303);
    const badSource = await postAs(aliceB, sitePath, sitePath, { intent: "create-redirect", source: "old", destination: "https://example.com/new" });
    expect(badSource.status).toBe(400);
    expect(badSource.text).toContain(named("source"));
    const badDestination = await postAs(aliceB, sitePath, sitePath, { intent: "create-redirect", source: "/x", destination: "ftp://x" });
    expect(badDestination.status).toBe(400);
    expect(badDestination.text).toContain(named("destination"));
    const redirects = (await alice.api.get(`${api}/redirects`)).body.items as Array<{ id: string; source: string }>;
    expect(redirects.map((r) => r.source).sort()).toEqual(["/away", "/old"]);

    // The reader sees the site without forms and is refused; Bob finds nothing.
    const seen = await readerB.get(sitePath);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('value="settings"');
    const forms: Array<Record<string, string>> = [settings, look, { intent: "create-share-link", name: "r" }, { intent: "delete", confirm: "yes" }, { intent: "add-space", space: space.id }];
    for (const fields of forms)
      refused((await postAs(readerB, sitePath, sitePath, fields)).status);
    expect((await bobB.get(sitePath)).status).toBe(404);
    expect((await postAs(bobB, "/app", sitePath, { ...settings, basename: "bobs" })).status).toBe(404);
    expect((await alice.api.get(api)).body.basename).toBe(basename);

    // Removing and deleting.
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "remove-share-link", shareLink: links[0].id })).status).toBe(303);
    expect((await alice.api.get(`${api}/share-links`)).body.items).toEqual([]);
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "delete-redirect", redirect: redirects[0].id })).status).toBe(303);
    expect((await alice.api.get(`${api}/redirects`)).body.items).toHaveLength(1);
    const siteSpace = (await alice.api.get(`${api}/site-spaces`)).body.items[0].id as string;
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "remove-space", siteSpace })).status).toBe(303);
    expect((await alice.api.get(`${api}/site-spaces`)).body.items).toEqual([]);
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "add-space", space: space.id })).status).toBe(303);
    expect((await alice.api.get(`${api}/site-spaces`)).body.items).toHaveLength(1);
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "delete" })).status).toBe(400);
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "delete", confirm: "yes" })).location).toBe(home());
    expect((await alice.api.get(api)).status).toBe(404);
  });

  test("invite links: created (switching them on), joined from the link's page, deleted; a pending email invitation revoked", async () => {
    const carol = await createUser(sys.admin, { displayName: "Carol Link" });
    const carolB = new Browser(sys.url);
    await signIn(carolB, carol.token);
    expect((await postAs(aliceB, home(), home(), { intent: "create-link-invite", role: "edit" })).status).toBe(303);
    const page = await aliceB.get(home());
    const link = /id="invite-links"><li><input type="text" readonly aria-label="[^"]*" value="([^"]+)"/.exec(page.text)![1];
    const path = new URL(link).pathname;
    expect(path).toMatch(new RegExp(`^/app/join/${orgId}/`));
    expect((await carolB.get(path)).status).toBe(200);
    expect((await carolB.post(path, { intent: "join" })).status).toBe(403);
    const joined = await postAs(carolB, path, path, { intent: "join" });
    expect(joined.location).toBe(home());
    const member = await alice.api.get(`/v1/orgs/${orgId}/members/${carol.id}`);
    expect(member.body.role).toBe("edit");

    // The reader and Bob cannot make links; a deleted link no longer joins anyone.
    refused((await postAs(readerB, home(), home(), { intent: "create-link-invite", role: "admin" })).status);
    expect((await postAs(bobB, "/app", home(), { intent: "create-link-invite", role: "admin" })).status).toBe(404);
    const badRole = await postAs(aliceB, home(), home(), { intent: "create-link-invite", role: "owner" });
    expect(badRole.status).toBe(400);
    expect(badRole.text).toContain(named("role"));
    const inviteId = path.split("/").pop()!;
    expect((await postAs(aliceB, home(), home(), { intent: "delete-link-invite", invite: inviteId })).status).toBe(303);
    const dave = await createUser(sys.admin, { displayName: "Dave Late" });
    const daveB = new Browser(sys.url);
    await signIn(daveB, dave.token);
    expect((await postAs(daveB, path, path, { intent: "join" })).status).toBe(404);
    expect((await alice.api.get(`/v1/orgs/${orgId}/members/${dave.id}`)).status).toBe(404);

    // An email invitation waits on the page until revoked.
    const email = `pending-${randomUUID().slice(0, 8)}@example.com`;
    expect((await postAs(aliceB, home(), home(), { intent: "invite", email, role: "read" })).status).toBe(303);
    const withPending = await aliceB.get(home());
    expect(withPending.text).toContain(email);
    const invites = (await alice.api.get(`/v1/orgs/${orgId}/invites`)).body.items as Array<{ id: string; email: string }>;
    const pending = invites.find((i) => i.email === email)!;
    refused((await postAs(readerB, home(), home(), { intent: "revoke-invite", invite: pending.id })).status);
    expect((await postAs(aliceB, home(), home(), { intent: "revoke-invite", invite: pending.id })).status).toBe(303);
    expect(((await alice.api.get(`/v1/orgs/${orgId}/invites`)).body.items as Array<{ email: string }>).some((i) => i.email === email)).toBe(false);
  });

  test("one's account: an API token created (shown once) works and is revoked; the password set and changed; fields refused by name", async () => {
    const dana = await createUser(sys.admin, { displayName: "Dana Tokens" });
    const danaB = new Browser(sys.url);
    await signIn(danaB, dana.token);
    const account = await danaB.get("/app/account");
    expect(account.status).toBe(200);
    const made = await postAs(danaB, "/app/account", "/app/account", { intent: "create-token", label: "CI" });
    expect(made.status).toBe(201);
    const token = /id="token-value" readonly value="([^"]+)"/.exec(made.text)![1];
    const me = await fetch(`${sys.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBe(dana.id);
    const listed = await danaB.get("/app/account");
    expect(listed.text).toContain("CI");
    expect(listed.text).not.toContain(token);
    const tokens = (await dana.api.get("/v1/docshelf/user/tokens")).body.items as Array<{ id: string; label: string }>;
    const ci = tokens.find((t) => t.label === "CI")!;
    // Another user's token id is not found (revokeToken itself answers 204 for any id).
    expect((await postAs(aliceB, "/app/account", "/app/account", { intent: "revoke-token", token: ci.id })).status).toBe(404);
    expect((await fetch(`${sys.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await postAs(danaB, "/app/account", "/app/account", { intent: "revoke-token", token: ci.id })).location).toBe("/app/account");
    expect((await fetch(`${sys.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const longLabel = await postAs(danaB, "/app/account", "/app/account", { intent: "create-token", label: "l".repeat(101) });
    expect(longLabel.status).toBe(400);
    expect(longLabel.text).toContain(named("label"));

    const differ = await postAs(danaB, "/app/account", "/app/account", { intent: "password", password: "a long new password", confirm: "another one" });
    expect(differ.status).toBe(400);
    expect(differ.text).toContain(named("confirm"));
    const short = await postAs(danaB, "/app/account", "/app/account", { intent: "password", password: "short", confirm: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toContain(named("password"));
    const set = await postAs(danaB, "/app/account", "/app/account", { intent: "password", password: "a long new password", confirm: "a long new password" });
    expect(set.status).toBe(200);
    expect(set.text).toContain("Your password was changed.");
    const noCurrent = await postAs(danaB, "/app/account", "/app/account", { intent: "password", password: "a second password!", confirm: "a second password!" });
    expect(noCurrent.status).toBe(400);
    expect(noCurrent.text).toContain(named("currentPassword"));
    const wrong = await postAs(danaB, "/app/account", "/app/account", { intent: "password", currentPassword: "wrong password here", password: "a second password!", confirm: "a second password!" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(named("currentPassword"));
    const changed = await postAs(danaB, "/app/account", "/app/account", { intent: "password", currentPassword: "a long new password", password: "a second password!", confirm: "a second password!" });
    expect(changed.status).toBe(200);
    expect((await postAs(danaB, "/app/account", "/app/account", { intent: "revoke-session", session: "nosuchsession" })).status).toBe(404);
  });

  test("sign-in settings: a verified domain shows the TXT record to add; providers refused by field; administrators only", async () => {
    const sso = `${home()}/sso`;
    const domain = `d${randomUUID().slice(0, 8)}.example.com`;
    expect((await postAs(aliceB, sso, sso, { intent: "add-domain", domain })).location).toBe(sso);
    const page = await aliceB.get(sso);
    expect(page.text).toContain(`_docshelf-verification.${domain}`);
    const record = (await alice.api.get(`/v1/orgs/${orgId}/domains/${domain}`)).body.verification;
    expect(page.text).toContain(record.value);
    const badDomain = await postAs(aliceB, sso, sso, { intent: "add-domain", domain: "not a domain" });
    expect(badDomain.status).toBe(400);
    expect(badDomain.text).toContain(named("domain"));
    const badIssuer = await postAs(aliceB, sso, sso, { intent: "add-oidc", label: "Corp", issuer: "not a url", clientId: "c", clientSecret: "s" });
    expect(badIssuer.status).toBe(400);
    expect(badIssuer.text).toContain(named("issuer"));

    expect((await readerB.get(sso)).status).toBe(404);
    expect((await postAs(readerB, home(), sso, { intent: "add-domain", domain: `r${domain}` })).status).toBe(404);
    expect((await bobB.get(sso)).status).toBe(404);
    expect((await postAs(bobB, "/app", sso, { intent: "delete-domain", domain })).status).toBe(404);
    expect((await alice.api.get(`/v1/orgs/${orgId}/domains/${domain}`)).status).toBe(200);
    expect((await postAs(aliceB, sso, sso, { intent: "delete-domain", domain })).status).toBe(303);
    expect((await alice.api.get(`/v1/orgs/${orgId}/domains/${domain}`)).status).toBe(404);
  });

  test("odd input is never a 5xx: unknown intents, malformed ids, huge and control-character values", async () => {
    const sitePath = await (async () => {
      const made = await postAs(aliceB, home(), home(), { intent: "create-site", title: "Odd site" });
      return made.location!;
    })();
    const odd = ["", "\u0000", "../../etc", "x".repeat(5000), "<script>alert(1)</script>", "%00", "🙂".repeat(300)];
    const targets: Array<[string, string[]]> = [
      ["/app", ["create-org"]],
      ["/app/account", ["create-token", "revoke-token", "revoke-session", "password", "nonsense"]],
      [home(), ["create-space", "create-collection", "create-site", "create-link-invite", "delete-link-invite", "revoke-invite", "nonsense"]],
      [sitePath, ["settings", "customization", "add-space", "remove-space", "create-share-link", "remove-share-link", "create-redirect", "delete-redirect", "delete", "nonsense"]],
      [`${home()}/sso`, ["add-domain", "verify-domain", "delete-domain", "add-oidc", "delete-oidc", "add-saml", "edit-saml", "delete-saml", "nonsense"]],
    ];
    for (const [path, intents] of targets) {
      const csrf = csrfOf((await aliceB.get(path)).text);
      for (const intent of intents)
        for (const value of odd) {
          const fields: Record<string, string> = { _csrf: csrf, intent };
          for (const name of ["title", "label", "token", "session", "space", "collection", "role", "invite", "basename", "visibility", "hostname", "logo", "primaryColor", "theme", "source", "destination", "domain"]) fields[name] = value;
          const answer = await aliceB.post(path, fields);
          expect({ path, intent, value: value.slice(0, 20), status: answer.status < 500 }).toEqual({ path, intent, value: value.slice(0, 20), status: true });
        }
    }
    expect((await aliceB.get("/app/join/..%2F/x")).status).toBeLessThan(500);
  }, 120_000);
});
