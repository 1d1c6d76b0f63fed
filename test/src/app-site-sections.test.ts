// A site's sections and its site spaces' paths in the app's site settings, through the HTTP gateway in both
// process modes: a section added with a first space, a space added to a section, a section renamed and given
// another path, a site space's path changed, sections moved up and down, a section deleted (only with its confirm box). Every form: no
// session, no CSRF token, a reader (refused, nothing changed), another organization's user (404), a field
// refused by name, odd input never a 5xx; the API shows each change.
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, csrfOf, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";

interface ApiSection {
  id: string;
  title: string;
  path: string;
  siteSpaces: Array<{ id: string; path: string; space: { id: string } }>;
}

describe.each(MODES)("a site's sections in the app over %s", (mode) => {
  let sys: RunningSystem;
  let alice: TestUser;
  let reader: TestUser;
  let bob: TestUser;
  let orgId: string;
  let aliceB: Browser;
  let readerB: Browser;
  let bobB: Browser;
  let sitePath: string;
  let api: string;
  let guides: string;
  let reference: string;

  async function postAs(browser: Browser, pagePath: string, action: string, fields: Record<string, string>) {
    const page = await browser.get(pagePath);
    return browser.post(action, { _csrf: csrfOf(page.text), ...fields });
  }
  const named = (field: string) => `&#39;${field}&#39;`;
  const sections = async (): Promise<ApiSection[]> => {
    const res = await alice.api.get(`${api}/sections`);
    expect(res.status).toBe(200);
    return res.body.items as ApiSection[];
  };

  beforeAll(async () => {
    sys = await start(mode);
    alice = await createUser(sys.admin, { displayName: "Alice Sections" });
    reader = await createUser(sys.admin, { displayName: "Rita Sections" });
    bob = await createUser(sys.admin, { displayName: "Bob Sections" });
    orgId = (await createOrg(alice.api, "Sections Org")).id;
    await addMember(alice.api, orgId, reader.email, "read");
    await createOrg(bob.api, "Bob's sections org");
    guides = (await createSpace(alice.api, orgId, { title: "Guides" })).id;
    reference = (await createSpace(alice.api, orgId, { title: "Reference" })).id;
    const site = await alice.api.post(`/v1/orgs/${orgId}/sites`, { title: "Sectioned", spaces: [guides] });
    expect(site.status).toBe(201);
    sitePath = `/o/${orgId}/sites/${site.body.id}`;
    api = `/v1/orgs/${orgId}/sites/${site.body.id}`;
    [aliceB, readerB, bobB] = [new Browser(sys.url), new Browser(sys.url), new Browser(sys.url)];
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

  test("a section added with a first space, a space added to it, renamed with another path, a site space's path changed, the section deleted", async () => {
    const page = await aliceB.get(sitePath);
    expect(page.text).toContain('<section id="sections"><h2>Sections</h2>');
    expect(page.text).toContain("No section.");
    expect(page.text).toContain('<input type="hidden" name="intent" value="add-section">');

    const added = await postAs(aliceB, sitePath, sitePath, { intent: "add-section", title: "API docs", space: reference });
    expect(added.status).toBe(303);
    expect(added.location).toBe(sitePath);
    let [section] = await sections();
    expect(section.title).toBe("API docs");
    expect(section.path).toBe("api-docs");
    // The site's first section takes the spaces that were at its root.
    expect(section.siteSpaces.map((s) => s.space.id).sort()).toEqual([guides, reference].sort());
    const shown = await aliceB.get(sitePath);
    expect(shown.text).toContain(`<li id="section-${section.id}"><strong>API docs</strong> <span class="meta">/api-docs`);

    // A second section, and a third space added to it through the add-space form's section select.
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "add-section", title: "Handbooks", space: guides })).status).toBe(303);
    const second = (await sections()).find((s) => s.title === "Handbooks")!;
    const third = (await createSpace(alice.api, orgId, { title: "Onboarding" })).id;
    // A space not yet in the site is added to the section picked.
    expect((await aliceB.get(sitePath)).text).toContain('<label for="site-add-space-section">In the section</label>');
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "add-space", space: third, section: second.id })).status).toBe(303);
    expect((await sections()).find((s) => s.id === second.id)!.siteSpaces.map((s) => s.space.id)).toContain(third);

    // Renamed, another path.
    const updated = await postAs(aliceB, sitePath, sitePath, { intent: "update-section", section: section.id, title: "API", path: "api" });
    expect(updated.status).toBe(303);
    section = (await sections()).find((s) => s.id === section.id)!;
    expect([section.title, section.path]).toEqual(["API", "api"]);

    // A site space's path.
    const siteSpace = section.siteSpaces.find((s) => s.space.id === reference)!;
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "site-space-path", siteSpace: siteSpace.id, path: "v2" })).status).toBe(303);
    expect((await sections()).find((s) => s.id === section.id)!.siteSpaces.find((s) => s.id === siteSpace.id)!.path).toBe("v2");
    expect((await aliceB.get(sitePath)).text).toContain(`value="v2" class="path">`);

    // Deleted only with its confirm box.
    const unconfirmed = await postAs(aliceB, sitePath, sitePath, { intent: "remove-section", section: second.id });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.text).toContain(named("confirm"));
    expect((await sections()).map((s) => s.id)).toContain(second.id);
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "remove-section", section: second.id, confirm: "yes" })).status).toBe(303);
    expect((await sections()).map((s) => s.id)).not.toContain(second.id);
    // A section that is not the site's: 404, nothing deleted.
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "remove-section", section: "nosuchsection", confirm: "yes" })).status).toBe(404);
    expect(await sections()).toHaveLength(1);
  });

  test("fields refused by name, nothing written; odd input never a 5xx", async () => {
    const [section] = await sections();
    const before = JSON.stringify(await sections());
    for (const [fields, field] of [
      [{ intent: "add-section", title: "x", space: guides }, "title"],
      [{ intent: "add-section", title: "y".repeat(129), space: guides }, "title"],
      [{ intent: "update-section", section: section.id, title: "Fine", path: "two words" }, "path"],
      [{ intent: "update-section", section: section.id, title: "Fine", path: "a/b" }, "path"],
      [{ intent: "update-section", section: section.id, title: "Fine", path: "" }, "path"],
      [{ intent: "update-section", section: section.id, title: "", path: "ok" }, "title"],
      [{ intent: "site-space-path", siteSpace: section.siteSpaces[0].id, path: "../up" }, "path"],
    ] as Array<[Record<string, string>, string]>) {
      const res = await postAs(aliceB, sitePath, sitePath, fields);
      expect({ fields, status: res.status }).toEqual({ fields, status: 400 });
      expect(res.text).toContain(named(field));
    }
    expect(JSON.stringify(await sections())).toBe(before);
    for (const odd of ["", "\u0000", "x".repeat(5000), "<script>alert(1)</script>", "%00", "🙂".repeat(300)]) {
      for (const intent of ["add-section", "update-section", "remove-section", "site-space-path", "add-space"]) {
        const res = await postAs(aliceB, sitePath, sitePath, { intent, section: odd, space: odd, siteSpace: odd, title: odd, path: odd, confirm: "yes" });
        expect(res.status).toBeLessThan(500);
      }
    }
    // Another site's section is not this site's.
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "add-space", space: guides, section: "nosuchsection" })).status).toBe(400);
  });

  test("a reader sees the sections without forms and is refused; another organization's user finds nothing; no session or no CSRF token: 403", async () => {
    const [section] = await sections();
    const before = JSON.stringify(await sections());
    const seen = await readerB.get(sitePath);
    expect(seen.status).toBe(200);
    expect(seen.text).toContain("<strong>API</strong>");
    expect(seen.text).not.toContain('value="add-section"');
    expect(seen.text).not.toContain('value="update-section"');
    const forms: Array<Record<string, string>> = [
      { intent: "add-section", title: "Reader's", space: guides },
      { intent: "update-section", section: section.id, title: "Taken", path: "taken" },
      { intent: "remove-section", section: section.id, confirm: "yes" },
      { intent: "site-space-path", siteSpace: section.siteSpaces[0].id, path: "mine" },
    ];
    for (const fields of forms) {
      expect([403, 404]).toContain((await postAs(readerB, sitePath, sitePath, fields)).status);
      expect((await postAs(bobB, "/app", sitePath, fields)).status).toBe(404);
      const csrfless = await aliceB.post(sitePath, fields);
      expect(csrfless.status).toBe(403);
      const anon = await new Browser(sys.url).post(sitePath, { _csrf: "x", ...fields });
      expect(anon.status).toBe(403);
    }
    expect((await bobB.get(sitePath)).status).toBe(404);
    expect(JSON.stringify(await sections())).toBe(before);
    const signedOut = await new Browser(sys.url).get(sitePath);
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toMatch(/^\/app\/sign-in\?return=/);
  });

  test("sections move up and down (their order is the site's tabs'); a bad direction is a 400 naming it; a reader, another organization's user, no CSRF token: refused, order kept", async () => {
    for (const title of ["Second", "Third"]) expect((await postAs(aliceB, sitePath, sitePath, { intent: "add-section", title, space: guides })).status).toBe(303);
    const titles = async () => (await sections()).map((s) => s.title);
    expect(await titles()).toEqual(["API", "Second", "Third"]);
    const byTitle = async (title: string) => (await sections()).find((s) => s.title === title)!.id;
    const page = await aliceB.get(sitePath);
    // The first section moves only down, the last only up; the page lists them in order.
    const first = await byTitle("API");
    const last = await byTitle("Third");
    expect(page.text).toMatch(new RegExp(`<li id="section-${first}">[\\s\\S]*?value="move-section"><input type="hidden" name="section" value="${first}"><button type="submit" name="direction" value="down"`));
    expect(page.text).toMatch(new RegExp(`value="move-section"><input type="hidden" name="section" value="${last}"><button type="submit" name="direction" value="up"[^>]*>Move up<span class="visually-hidden"> the section Third</span></button> </form>`));

    const moved = await postAs(aliceB, sitePath, sitePath, { intent: "move-section", section: last, direction: "up" });
    expect(moved.status).toBe(303);
    expect(moved.location).toBe(sitePath);
    expect(await titles()).toEqual(["API", "Third", "Second"]);
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "move-section", section: first, direction: "down" })).status).toBe(303);
    expect(await titles()).toEqual(["Third", "API", "Second"]);
    // Already first: nothing moves.
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "move-section", section: last, direction: "up" })).status).toBe(303);
    expect(await titles()).toEqual(["Third", "API", "Second"]);
    // The page shows the new order.
    const shown = (await aliceB.get(sitePath)).text;
    expect(shown.indexOf(`<li id="section-${last}">`)).toBeLessThan(shown.indexOf(`<li id="section-${first}">`));

    const bad = await postAs(aliceB, sitePath, sitePath, { intent: "move-section", section: first, direction: "sideways" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(named("direction"));
    expect((await postAs(aliceB, sitePath, sitePath, { intent: "move-section", section: "nosuchsection", direction: "up" })).status).toBe(404);
    const fields = { intent: "move-section", section: first, direction: "up" };
    expect([403, 404]).toContain((await postAs(readerB, sitePath, sitePath, fields)).status);
    expect((await postAs(bobB, "/app", sitePath, fields)).status).toBe(404);
    expect((await aliceB.post(sitePath, fields)).status).toBe(403);
    expect((await new Browser(sys.url).post(sitePath, { _csrf: "x", ...fields })).status).toBe(403);
    expect(await titles()).toEqual(["Third", "API", "Second"]);
    expect((await readerB.get(sitePath)).text).not.toContain('value="move-section"');
  });
});
