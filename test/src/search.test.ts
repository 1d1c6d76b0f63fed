// Full-text search of a space and of an organization through HTTP, in every process mode.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("search over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let spaceId: string;
  let secondSpaceId: string;
  let otherOrgSpaceId: string;

  /** Adds pages with the given markdown through the test-only change hook (instance administrator). */
  async function addPages(id: string, ...markdowns: string[]): Promise<void> {
    const res = await sys.admin.post(`/v1/_test/spaces/${id}/changes`, { changes: markdowns.map((markdown) => ({ type: "insert_page", markdown })) });
    expect(res.status).toBe(201);
  }

  const spaceSearch = (id: string, query: string, extra = "") => `/v1/spaces/${id}/search?query=${encodeURIComponent(query)}${extra}`;
  const orgSearch = (id: string, query: string, extra = "") => `/v1/orgs/${id}/search?query=${encodeURIComponent(query)}${extra}`;

  beforeAll(async () => {
    sys = await start(mode);
    [owner, reader, guest, outsider] = await Promise.all([createUser(sys.admin), createUser(sys.admin), createUser(sys.admin), createUser(sys.admin)]);
    orgId = (await createOrg(owner.api)).id;
    otherOrgId = (await createOrg(outsider.api)).id;
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, guest.email, null);
    spaceId = (await createSpace(owner.api, orgId, { title: "Handbook" })).id;
    secondSpaceId = (await createSpace(owner.api, orgId, { title: "Runbook" })).id;
    otherOrgSpaceId = (await createSpace(outsider.api, otherOrgId, { title: "Elsewhere" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
    await addPages(spaceId, "# Deploying\n\nRoll the zephyrquartz release out.\n\n## Rollback\n\nUndo a zephyrquartz release.");
    await addPages(secondSpaceId, "# Operations\n\nRestart the zephyrquartz daemon.");
    // The same word in a space of another organization: never found from this one.
    await addPages(otherOrgSpaceId, "# Secret\n\nThe zephyrquartz plans of someone else.");
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("space search", () => {
    test("finds pages by their text with matching sections, as GitBook's SearchPageResult list", async () => {
      const res = await reader.api.get(spaceSearch(spaceId, "zephyrquartz"));
      expect(res.status).toBe(200);
      expectSchema("searchSpaceContent", 200, res.body);
      expect(res.body.items).toHaveLength(1);
      const [page] = res.body.items;
      expect(page).toMatchObject({ title: "Deploying", path: "deploying" });
      expect(page.urls.app.endsWith(`/s/${spaceId}/deploying`)).toBe(true);
      expect(page.sections.map((s: any) => s.path)).toEqual(expect.arrayContaining(["deploying", "deploying#rollback"]));
      expect(page.sections.every((s: any) => s.body.toLowerCase().includes("zephyrquartz"))).toBe(true);
      expect(res.body.next).toBeUndefined();
    });

    test("finds a page by its title", async () => {
      const res = await reader.api.get(spaceSearch(spaceId, "installation"));
      expect(res.status).toBe(200);
      expect(res.body.items.map((p: any) => p.path)).toContain("quickstart/installation");
    });

    test("a query with no match is an empty list", async () => {
      const res = await reader.api.get(spaceSearch(spaceId, "xylophonics"));
      expect(res.status).toBe(200);
      expectSchema("searchSpaceContent", 200, res.body);
      expect(res.body.items).toEqual([]);
    });

    test("only the searched space's pages are returned, not other spaces' of the organization", async () => {
      const res = await owner.api.get(spaceSearch(secondSpaceId, "zephyrquartz"));
      expect(res.status).toBe(200);
      expect(res.body.items.map((p: any) => p.title)).toEqual(["Operations"]);
    });

    test("results follow an edit: a template's text is found once it is applied", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Follows edits" });
      await addPages(space.id, "# Start\n\nNothing yet.");
      // The first search builds the space's index; the edit must then show up in the next one.
      expect((await reader.api.get(spaceSearch(space.id, "invoices"))).body.items).toEqual([]);
      expect((await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "faq" })).status).toBe(201);
      const after = await reader.api.get(spaceSearch(space.id, "invoices"));
      expect(after.status).toBe(200);
      expect(after.body.items.map((p: any) => p.path)).toEqual(["faq/accounts"]);
      // And a later change again.
      await addPages(space.id, "# Ledger\n\nMonthly invoices are archived here.");
      const again = await reader.api.get(spaceSearch(space.id, "invoices"));
      expect(again.body.items.map((p: any) => p.path).sort()).toEqual(["faq/accounts", "ledger"]);
    });

    test("pages through results with limit and an opaque next.page token, each page once", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Many" });
      await addPages(space.id, ...Array.from({ length: 5 }, (_, i) => `# Note ${i}\n\nThe pangolinfest word, ${"again ".repeat(i)}here.`));
      const first = await reader.api.get(spaceSearch(space.id, "pangolinfest", "&limit=2"));
      expect(first.status).toBe(200);
      expectSchema("searchSpaceContent", 200, first.body);
      expect(first.body.items).toHaveLength(2);
      expect(typeof first.body.next.page).toBe("string");
      const all = await walkPages(reader.api, spaceSearch(space.id, "pangolinfest"), 2);
      expect(all).toHaveLength(5);
      expect(new Set(all.map((p: any) => p.id)).size).toBe(5);
      const exact = await reader.api.get(spaceSearch(space.id, "pangolinfest", "&limit=5"));
      expect(exact.body.items).toHaveLength(5);
      expect(exact.body.next).toBeUndefined();
    });

    test("a result page of 1000 pages with excerpts, larger than one transporter message, arrives whole, with a next page when more match", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Big" });
      const filler = "the walrusgrove keeps every lantern lit and every ledger balanced through the long winter nights".repeat(3);
      const page = (i: number) => `# Big ${i}\n\n${filler}\n\n## First ${i}\n\n${filler}\n\n## Second ${i}\n\n${filler}`;
      for (let batch = 0; batch < 4; batch++) await addPages(space.id, ...Array.from({ length: 250 }, (_, i) => page(batch * 250 + i)));
      const res = await reader.api.get(spaceSearch(space.id, "walrusgrove", "&limit=1000"));
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body).length).toBeGreaterThan(1024 * 1024);
      expect(res.body.items).toHaveLength(1000);
      expect(res.body.items.every((p: any) => p.sections.length === 3)).toBe(true);
      expect(res.body.next).toBeUndefined();
      expectSchema("searchSpaceContent", 200, { ...res.body, items: res.body.items.slice(0, 5) });
      // One more page: a full page of 1000 now has a next page holding the rest.
      await addPages(space.id, page(1000));
      const full = await reader.api.get(spaceSearch(space.id, "walrusgrove", "&limit=1000"));
      expect(full.body.items).toHaveLength(1000);
      const rest = await reader.api.get(spaceSearch(space.id, "walrusgrove", `&limit=1000&page=${encodeURIComponent(full.body.next.page)}`));
      expect(rest.status).toBe(200);
      expect(rest.body.items).toHaveLength(1);
      expect(rest.body.next).toBeUndefined();
      expect(new Set([...full.body.items, ...rest.body.items].map((p: any) => p.id)).size).toBe(1001);
    });

    test("a page token of another query is 400 naming page", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Tokens" });
      await addPages(space.id, "# A\n\nmarmot", "# B\n\nmarmot");
      const first = await reader.api.get(spaceSearch(space.id, "marmot", "&limit=1"));
      const other = await reader.api.get(spaceSearch(space.id, "welcome", `&page=${encodeURIComponent(first.body.next.page)}`));
      expect(other.status).toBe(400);
      expectErrorBody(400, other.body);
      expect(other.body.error.message).toContain("page");
      const junk = await reader.api.get(spaceSearch(space.id, "marmot", "&page=not-a-token"));
      expect(junk.status).toBe(400);
      expect(junk.body.error.message).toContain("page");
    });

    test.each([
      ["no query", "query", ""],
      ["an empty query", "query", "?query="],
      ["a blank query", "query", "?query=%20%20"],
      ["a query over 512 characters", "query", `?query=${"a".repeat(513)}`],
      ["limit 0", "limit", "?query=welcome&limit=0"],
      ["limit over 1000", "limit", "?query=welcome&limit=1001"],
      ["a limit that is not a number", "limit", "?query=welcome&limit=many"],
    ])("%s is 400 naming %s", async (_what, field, qs) => {
      const res = await reader.api.get(`/v1/spaces/${spaceId}/search${qs}`);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("a query of exactly 512 characters is accepted", async () => {
      const res = await reader.api.get(spaceSearch(spaceId, "a".repeat(512)));
      expect(res.status).toBe(200);
    });

    test("no token is 401", async () => {
      const res = await reader.api.as(undefined).get(spaceSearch(spaceId, "welcome"));
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    });

    test("a space the caller cannot read is 404: another organization's, or a private one for a guest", async () => {
      const foreign = await reader.api.get(spaceSearch(otherOrgSpaceId, "zephyrquartz"));
      expect(foreign.status).toBe(404);
      expectErrorBody(404, foreign.body);
      // The same search, answered and kept for a reader of the space, is still 404 for one who is not.
      expect((await owner.api.get(spaceSearch(spaceId, "zephyrquartz"))).status).toBe(200);
      const asGuest = await guest.api.get(spaceSearch(spaceId, "zephyrquartz"));
      expect(asGuest.status).toBe(404);
      const missing = await owner.api.get(spaceSearch("nosuchspace", "welcome"));
      expect(missing.status).toBe(404);
    });

    test("a deleted space is not searchable (404) and drops out of organization search", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Doomed" });
      await addPages(space.id, "# Doomed\n\nThe quokkalith page.");
      expect((await owner.api.get(spaceSearch(space.id, "quokkalith"))).body.items).toHaveLength(1);
      expect((await owner.api.get(orgSearch(orgId, "quokkalith"))).body.items.map((s: any) => s.id)).toEqual([space.id]);
      expect((await owner.api.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
      expect((await owner.api.get(spaceSearch(space.id, "quokkalith"))).status).toBe(404);
      const org = await owner.api.get(orgSearch(orgId, "quokkalith"));
      expect(org.status).toBe(200);
      expect(org.body.items).toEqual([]);
    });
  });

  describe("organization search", () => {
    test("groups matching pages by space, with the space's title, as GitBook's SearchSpaceResult list", async () => {
      const res = await reader.api.get(orgSearch(orgId, "zephyrquartz"));
      expect(res.status).toBe(200);
      expectSchema("searchOrganizationContent", 200, res.body);
      const bySpace = Object.fromEntries(res.body.items.map((s: any) => [s.id, s]));
      expect(Object.keys(bySpace).sort()).toEqual([spaceId, secondSpaceId].sort());
      expect(bySpace[spaceId].title).toBe("Handbook");
      expect(bySpace[spaceId].pages.map((p: any) => p.title)).toEqual(["Deploying"]);
      expect(bySpace[secondSpaceId].title).toBe("Runbook");
      expect(bySpace[secondSpaceId].pages[0].urls.app).toContain(`/s/${secondSpaceId}/operations`);
    });

    test("never returns another organization's spaces, even for a member of both", async () => {
      await addMember(outsider.api, otherOrgId, owner.email, "admin");
      const res = await owner.api.get(orgSearch(orgId, "zephyrquartz"));
      expect(res.body.items.map((s: any) => s.id)).not.toContain(otherOrgSpaceId);
      const other = await owner.api.get(orgSearch(otherOrgId, "zephyrquartz"));
      expect(other.status).toBe(200);
      expect(other.body.items.map((s: any) => s.id)).toEqual([otherOrgSpaceId]);
    });

    test("a guest finds nothing in private spaces they cannot see", async () => {
      const res = await guest.api.get(orgSearch(orgId, "zephyrquartz"));
      expect(res.status).toBe(200);
      expectSchema("searchOrganizationContent", 200, res.body);
      expect(res.body.items).toEqual([]);
    });

    test("pages through spaces with limit and next.page", async () => {
      const res = await reader.api.get(orgSearch(orgId, "zephyrquartz", "&limit=1"));
      expect(res.status).toBe(200);
      expectSchema("searchOrganizationContent", 200, res.body);
      expect(res.body.items).toHaveLength(1);
      const all = await walkPages(reader.api, orgSearch(orgId, "zephyrquartz"), 1);
      expect(all.map((s: any) => s.id).sort()).toEqual([spaceId, secondSpaceId].sort());
    });

    test("results follow an edit in any of the organization's spaces", async () => {
      expect((await reader.api.get(orgSearch(orgId, "okapiwhistle"))).body.items).toEqual([]);
      await addPages(secondSpaceId, "# Whistles\n\nThe okapiwhistle drill.");
      const res = await reader.api.get(orgSearch(orgId, "okapiwhistle"));
      expect(res.body.items.map((s: any) => [s.id, s.pages.map((p: any) => p.title)])).toEqual([[secondSpaceId, ["Whistles"]]]);
    });

    test.each([
      ["no query", "query", ""],
      ["a query over 512 characters", "query", `?query=${"b".repeat(513)}`],
      ["limit over 1000", "limit", "?query=welcome&limit=1001"],
    ])("%s is 400 naming %s", async (_what, field, qs) => {
      const res = await reader.api.get(`/v1/orgs/${orgId}/search${qs}`);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("no token is 401; a non-member gets 404", async () => {
      const anonymous = await reader.api.as(undefined).get(orgSearch(orgId, "welcome"));
      expect(anonymous.status).toBe(401);
      const stranger = await createUser(sys.admin);
      const res = await stranger.api.get(orgSearch(orgId, "zephyrquartz"));
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    });
  });
});
