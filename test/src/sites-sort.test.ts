// sortSiteStructure through HTTP, in every process mode: GitBook's shapes, the order a sort persists,
// access (403 for lower roles, 404 for other organizations) and bad input naming the field.
import { createOrg, expectErrorBody, expectSchema, type ApiClient, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";

describe.each(MODES)("site structure sort over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let outsiderOrg: string;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    outsiderOrg = (await createOrg(w.outsider.api)).id;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

  describe("sortSiteStructure", () => {
    const sort = (api: ApiClient, siteId: string, body: unknown, org = w.orgId) => api.patch(`/v1/orgs/${org}/sites/${siteId}/structure/sort`, body);
    const topLevel = async (siteId: string) => ids((await w.owner.api.get(`${w.sites}/${siteId}/structure`)).body.structure);

    test("sections and section groups sort among each other at the top level; the answer is the item moved", async () => {
      const site = await newSite(w);
      const [a, b] = [await newSection(w, site.id, "Alpha"), await newSection(w, site.id, "Beta")];
      const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "Group" })).body;
      expect(await topLevel(site.id)).toEqual([a.id, b.id, group.id]);

      const moved = await sort(w.creator.api, site.id, { item: { type: "site-section-group", id: group.id }, position: { before: { type: "site-section", id: a.id } } });
      expect(moved.status).toBe(200);
      expectSchema("sortSiteStructure", 200, moved.body, { latest: true });
      expect(moved.body).toMatchObject({ object: "site-section-group", id: group.id });
      expect(await topLevel(site.id)).toEqual([group.id, a.id, b.id]);

      const section = await sort(w.creator.api, site.id, { item: { type: "site-section", id: a.id }, position: { after: { type: "site-section", id: b.id } } });
      expect(section.status).toBe(200);
      expectSchema("sortSiteStructure", 200, section.body, { latest: true });
      expect(section.body).toMatchObject({ object: "site-section", id: a.id });
      expect(await topLevel(site.id)).toEqual([group.id, b.id, a.id]);

      const before = await sort(w.owner.api, site.id, { item: { type: "site-section", id: a.id }, position: { before: { type: "site-section-group", id: group.id } } });
      expect(before.status).toBe(200);
      expect(await topLevel(site.id)).toEqual([a.id, group.id, b.id]);

      // No before/after: to the end.
      expect((await sort(w.owner.api, site.id, { item: { type: "site-section", id: a.id }, position: {} })).status).toBe(200);
      expect(await topLevel(site.id)).toEqual([group.id, b.id, a.id]);
    });

    test("site spaces sort among the site spaces of their section", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "Versions");
      const add = async (title: string) => (await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w, title), sectionId: section.id })).body;
      const [v2, v3] = [await add("v2"), await add("v3")];
      const first = section.siteSpaces[0].id;
      const res = await sort(w.creator.api, site.id, { item: { type: "site-space", id: v3.id }, position: { before: { type: "site-space", id: first } } });
      expect(res.status).toBe(200);
      expectSchema("sortSiteStructure", 200, res.body, { latest: true });
      expect(res.body).toMatchObject({ object: "site-space", id: v3.id, section: section.id });
      const listed = await w.owner.api.get(`${w.sites}/${site.id}/structure`);
      expect(ids(listed.body.structure.find((s: any) => s.id === section.id).siteSpaces)).toEqual([v3.id, first, v2.id]);
    });

    test("a position that is not a sibling, the item itself, both sides or the wrong kind is 400 naming position", async () => {
      const site = await newSite(w);
      const [a, b] = [await newSection(w, site.id, "One"), await newSection(w, site.id, "Two")];
      const siteSpace = a.siteSpaces[0].id;
      for (const position of [
        { before: { type: "site-section", id: a.id } },
        { before: { type: "site-section", id: b.id }, after: { type: "site-section", id: b.id } },
        { before: { type: "site-space", id: siteSpace } },
        { after: { type: "site-section", id: "nosuchsection0000000" } },
      ]) {
        const res = await sort(w.owner.api, site.id, { item: { type: "site-section", id: a.id }, position });
        expect([position, res.status]).toEqual([position, 400]);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain("position");
      }
      // A site space next to a section (another level).
      const res = await sort(w.owner.api, site.id, { item: { type: "site-space", id: siteSpace }, position: { after: { type: "site-section", id: b.id } } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("position.after");
    });

    test.each([
      [{ position: {} }, "item"],
      [{ item: { type: "site-section" }, position: {} }, "item.id"],
      [{ item: { type: "page", id: "x0000000000000000000" }, position: {} }, "item.type"],
      [{ item: { type: "site-section", id: "x0000000000000000000" } }, "position"],
      [{ item: { type: "site-section", id: "x0000000000000000000" }, position: { before: { type: "site-section" } } }, "position.before.id"],
      [{ item: { type: "site-section", id: "x0000000000000000000" }, position: { above: {} } }, "position"],
    ])("%j is 400 naming %s", async (body, field) => {
      const site = await newSite(w);
      const res = await sort(w.owner.api, site.id, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("an unknown item (or an external link: this instance has none) is 404", async () => {
      const site = await newSite(w);
      await newSection(w, site.id, "Only");
      for (const item of [
        { type: "site-section", id: "nosuchsection0000000" },
        { type: "site-space", id: "nosuchsitespace00000" },
        { type: "site-section-group", id: "nosuchgroup000000000" },
        { type: "site-external-link", id: "nosuchlink0000000000" },
      ]) {
        const res = await sort(w.owner.api, site.id, { item, position: {} });
        expect([item.type, res.status]).toEqual([item.type, 404]);
        expectErrorBody(404, res.body);
      }
    });

    test("401 without or with a bad token; readers 403, guests 403; other organizations 404", async () => {
      const site = await newSite(w);
      const a = await newSection(w, site.id, "Kept");
      const body = { item: { type: "site-section", id: a.id }, position: {} };
      for (const api of [sys.admin.as(undefined), sys.admin.as("not-a-token")]) {
        const res = await sort(api, site.id, body);
        expect(res.status).toBe(401);
        expectErrorBody(401, res.body);
      }
      for (const user of [w.reader, w.guest]) {
        const res = await sort(user.api, site.id, body);
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
      for (const res of [await sort(w.outsider.api, site.id, body), await sort(w.outsider.api, site.id, body, outsiderOrg)]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      // The other organization's admin cannot reach this site through their own organization either.
      const mine = await sort(w.owner.api, site.id, body, outsiderOrg);
      expect(mine.status).toBe(404);
    });
  });
});
