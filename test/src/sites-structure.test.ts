// Site sections, site spaces and section groups through HTTP, in every process mode, with the deprecated moves.
import { expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";

describe.each(MODES)("site structure over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("sections", () => {
    test("adding a section is 201 with its space as a site space; the first is the default", async () => {
      const site = await newSite(w);
      const spaceId = await newSpace(w, "Guides");
      const res = await w.creator.api.post(`${w.sites}/${site.id}/sections`, { spaceId, title: "User guides", icon: "book" });
      expect(res.status).toBe(201);
      expectSchema("addSectionToSite", 201, res.body);
      expect(res.body).toMatchObject({ object: "site-section", title: "User guides", path: "user-guides", icon: "book", default: true });
      expect(res.body.siteSpaces).toHaveLength(1);
      expect(res.body.siteSpaces[0]).toMatchObject({ section: res.body.id, default: true, space: { id: spaceId } });
      const second = await newSection(w, site.id, "API");
      expect(second.default).toBe(false);
      const list = await w.reader.api.get(`${w.sites}/${site.id}/sections`);
      expect(list.status).toBe(200);
      expectSchema("listSiteSections", 200, list.body);
      expect(list.body.items.map((s: any) => s.id)).toEqual([res.body.id, second.id]);
    });

    test("a section without a title takes its space's title, and paths stay unique in the site", async () => {
      const site = await newSite(w);
      const a = await newSection(w, site.id, "Same");
      const b = await newSection(w, site.id, "Same");
      expect([a.path, b.path]).toEqual(["same", "same-2"]);
      const spaceId = await newSpace(w, "From the space");
      const untitled = await w.owner.api.post(`${w.sites}/${site.id}/sections`, { spaceId, title: null });
      expect(untitled.body.title).toBe("From the space");
      const taken = await w.owner.api.patch(`${w.sites}/${site.id}/sections/${b.id}`, { path: "same" });
      expect(taken.status).toBe(409);
      expectErrorBody(409, taken.body);
    });

    test("the first section takes the site spaces that were at the root", async () => {
      const rootSpace = await newSpace(w, "Root");
      const site = await newSite(w, { spaces: [rootSpace] });
      const section = await newSection(w, site.id, "First");
      expect(section.siteSpaces.map((s: any) => s.space.id)).toEqual([rootSpace, expect.any(String)]);
    });

    test("PATCH changes title, path, description, icon and condition; omitted leaves, null removes", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "Before");
      const url = `${w.sites}/${site.id}/sections/${section.id}`;
      const res = await w.owner.api.patch(url, { title: "After", path: "after", description: "All about it", icon: "gear", condition: "visitor.claims.beta === true" });
      expect(res.status).toBe(200);
      expectSchema("updateSiteSectionById", 200, res.body);
      expect(res.body).toMatchObject({ title: "After", path: "after", description: "All about it", icon: "gear", condition: "visitor.claims.beta === true" });
      const kept = await w.owner.api.patch(url, { title: "Again" });
      expect(kept.body).toMatchObject({ title: "Again", condition: "visitor.claims.beta === true", description: "All about it" });
      const removed = await w.owner.api.patch(url, { condition: null, icon: null, description: null });
      expect(removed.status).toBe(200);
      expect(removed.body.condition).toBeUndefined();
      expect(removed.body.icon).toBeUndefined();
      expect(removed.body.description).toBeUndefined();
    });

    test("PATCH defaultSiteSpace sets the section's default site space", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "Versions");
      const added = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w, "v2"), sectionId: section.id });
      expect(added.body.default).toBe(false);
      const res = await w.owner.api.patch(`${w.sites}/${site.id}/sections/${section.id}`, { defaultSiteSpace: added.body.id });
      expect(res.status).toBe(200);
      expect(res.body.siteSpaces.find((s: any) => s.default).id).toBe(added.body.id);
      const bad = await w.owner.api.patch(`${w.sites}/${site.id}/sections/${section.id}`, { defaultSiteSpace: "nope0000000000000000" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("defaultSiteSpace");
    });

    test("in a site with sections, the site's defaultSiteSpace and the default filter use the default section", async () => {
      const site = await newSite(w);
      const first = await newSection(w, site.id, "First");
      await newSection(w, site.id, "Second");
      const extra = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w, "Extra"), sectionId: first.id });
      const res = await w.owner.api.patch(`${w.sites}/${site.id}`, { defaultSiteSpace: extra.body.id });
      expect(res.status).toBe(200);
      const defaults = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces?default=true`);
      expect(defaults.status).toBe(200);
      expectSchema("listSiteSpaces", 200, defaults.body);
      expect(defaults.body.items.map((s: any) => s.id)).toEqual([extra.body.id]);
      const others = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces?default=false`);
      expect(others.body.items.map((s: any) => s.id)).not.toContain(extra.body.id);
      expect(others.body.count).toBe(2);
      const elsewhere = (await w.owner.api.get(`${w.sites}/${site.id}/sections`)).body.items[1].siteSpaces[0].id;
      const wrong = await w.owner.api.patch(`${w.sites}/${site.id}`, { defaultSiteSpace: elsewhere });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.message).toContain("defaultSiteSpace");
      expect((await w.owner.api.get(`${w.sites}/${site.id}/site-spaces?default=maybe`)).status).toBe(400);
    });

    test("the site's defaultSiteSection moves the default", async () => {
      const site = await newSite(w);
      await newSection(w, site.id, "One");
      const two = await newSection(w, site.id, "Two");
      const res = await w.owner.api.patch(`${w.sites}/${site.id}`, { defaultSiteSection: two.id });
      expect(res.status).toBe(200);
      const list = await w.owner.api.get(`${w.sites}/${site.id}/sections`);
      expect(list.body.items.filter((s: any) => s.default).map((s: any) => s.id)).toEqual([two.id]);
    });

    test.each([
      ["POST", { title: "x" }, "spaceId"],
      ["POST", { spaceId: "nope0000000000000000" }, "spaceId"],
      ["POST", { spaceIdOk: true, title: "x" }, "title"],
      ["POST", { spaceIdOk: true, title: "t".repeat(129) }, "title"],
      ["POST", { spaceIdOk: true, icon: "i".repeat(51) }, "icon"],
      ["PATCH", { title: "x" }, "title"],
      ["PATCH", { title: "t".repeat(129) }, "title"],
      ["PATCH", { path: "" }, "path"],
      ["PATCH", { path: "p".repeat(101) }, "path"],
      ["PATCH", { description: "d".repeat(257) }, "description"],
      ["PATCH", { condition: "" }, "condition"],
      ["PATCH", { condition: "c".repeat(1025) }, "condition"],
      ["PATCH", { icon: "i".repeat(51) }, "icon"],
    ])("%s a section with %j is 400 naming %s", async (method, body, field) => {
      const site = await newSite(w);
      const { spaceIdOk, ...rest } = body as Record<string, unknown>;
      let res;
      if (method === "POST") {
        res = await w.owner.api.post(`${w.sites}/${site.id}/sections`, spaceIdOk ? { ...rest, spaceId: await newSpace(w) } : rest);
      } else {
        const section = await newSection(w, site.id, "Limits");
        res = await w.owner.api.patch(`${w.sites}/${site.id}/sections/${section.id}`, rest);
      }
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("limits at their edges are accepted", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "ok");
      const res = await w.owner.api.patch(`${w.sites}/${site.id}/sections/${section.id}`, {
        title: "t".repeat(128),
        path: "p".repeat(100),
        description: "d".repeat(256),
        condition: "c".repeat(1024),
        icon: "i".repeat(50),
      });
      expect(res.status).toBe(200);
      expectSchema("updateSiteSectionById", 200, res.body);
    });

    test("deleting a section removes its site spaces; deleting it again is 204", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "Doomed");
      const del = await w.owner.api.delete(`${w.sites}/${site.id}/sections/${section.id}`);
      expect(del.status).toBe(204);
      expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body.siteSpaces).toBe(0);
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/sections/${section.id}`)).status).toBe(204);
      expect((await w.owner.api.patch(`${w.sites}/${site.id}/sections/${section.id}`, { title: "Gone" })).status).toBe(404);
    });

    test("moving a section before another persists the order", async () => {
      const site = await newSite(w);
      const [a, b, c] = [await newSection(w, site.id, "Aa"), await newSection(w, site.id, "Bb"), await newSection(w, site.id, "Cc")];
      const res = await w.owner.api.post(`${w.sites}/${site.id}/sections/${c.id}/move`, { position: { before: { type: "site-section", siteSection: a.id } } });
      expect(res.status).toBe(200);
      expectSchema("moveSiteSection", 200, res.body);
      const order = async () => (await w.owner.api.get(`${w.sites}/${site.id}/sections`)).body.items.map((s: any) => s.id);
      expect(await order()).toEqual([c.id, a.id, b.id]);
      await w.owner.api.post(`${w.sites}/${site.id}/sections/${c.id}/move`, { position: { after: { type: "site-section", siteSection: b.id } } });
      expect(await order()).toEqual([a.id, b.id, c.id]);
      await w.owner.api.post(`${w.sites}/${site.id}/sections/${a.id}/move`, {});
      expect(await order()).toEqual([b.id, c.id, a.id]);
      const self = await w.owner.api.post(`${w.sites}/${site.id}/sections/${a.id}/move`, { position: { before: { type: "site-section", siteSection: a.id } } });
      expect(self.status).toBe(400);
      expect(self.body.error.message).toContain("position");
      const badType = await w.owner.api.post(`${w.sites}/${site.id}/sections/${a.id}/move`, { position: { before: { type: "site-space", siteSection: b.id } } });
      expect(badType.status).toBe(400);
      expect(badType.body.error.message).toContain("position.before.type");
    });
  });

  describe("site spaces", () => {
    test("adding a site space without sectionId goes to the default section", async () => {
      const site = await newSite(w);
      const first = await newSection(w, site.id, "Main");
      const res = await w.creator.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w, "Extra") });
      expect(res.status).toBe(201);
      expectSchema("addSpaceToSite", 201, res.body);
      expect(res.body).toMatchObject({ object: "site-space", section: first.id, path: "extra", title: "Extra", default: false });
    });

    test("adding a site space to a site without sections puts it at the root", async () => {
      const site = await newSite(w);
      const res = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w, "Root one") });
      expect(res.status).toBe(201);
      expect(res.body.section).toBeUndefined();
      expect(res.body.default).toBe(true);
      expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body.siteSpaces).toBe(1);
    });

    test("adding a site space to a named section puts it there; an unknown section is 400", async () => {
      const site = await newSite(w);
      await newSection(w, site.id, "One");
      const two = await newSection(w, site.id, "Two");
      const res = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w), sectionId: two.id });
      expect(res.body.section).toBe(two.id);
      const bad = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: await newSpace(w), sectionId: "nope0000000000000000" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("sectionId");
    });

    test("PATCH changes path, condition and space; omitted condition stays, null removes it", async () => {
      const site = await newSite(w, { spaces: [await newSpace(w, "Old")] });
      const [siteSpace] = (await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).body.items;
      const url = `${w.sites}/${site.id}/site-spaces/${siteSpace.id}`;
      const other = await newSpace(w, "New");
      const res = await w.owner.api.patch(url, { path: "v2", condition: "visitor.claims.unsigned.beta === true", spaceId: other });
      expect(res.status).toBe(200);
      expectSchema("updateSiteSpaceById", 200, res.body);
      expect(res.body).toMatchObject({ path: "v2", condition: "visitor.claims.unsigned.beta === true", space: { id: other }, title: "New" });
      expect((await w.owner.api.patch(url, { path: "v3" })).body.condition).toBe("visitor.claims.unsigned.beta === true");
      expect((await w.owner.api.patch(url, { condition: null })).body.condition).toBeUndefined();
      const edges = await w.owner.api.patch(url, { path: "p".repeat(100), condition: "c".repeat(1024) });
      expect(edges.status).toBe(200);
      expectSchema("updateSiteSpaceById", 200, edges.body);
    });

    test.each([
      ["POST", {}, "spaceId"],
      ["POST", { spaceId: "nope0000000000000000" }, "spaceId"],
      ["PATCH", { path: "" }, "path"],
      ["PATCH", { path: "p".repeat(101) }, "path"],
      ["PATCH", { condition: "" }, "condition"],
      ["PATCH", { condition: "c".repeat(1025) }, "condition"],
      ["PATCH", { spaceId: "nope0000000000000000" }, "spaceId"],
    ])("%s a site space with %j is 400 naming %s", async (method, body, field) => {
      const site = await newSite(w, { spaces: [await newSpace(w)] });
      const [siteSpace] = (await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).body.items;
      const res =
        method === "POST"
          ? await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, body)
          : await w.owner.api.patch(`${w.sites}/${site.id}/site-spaces/${siteSpace.id}`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("deleting a site space is 204 and lowers the count; again is 204", async () => {
      const site = await newSite(w, { spaces: [await newSpace(w), await newSpace(w)] });
      const [first] = (await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).body.items;
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/site-spaces/${first.id}`)).status).toBe(204);
      expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body.siteSpaces).toBe(1);
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/site-spaces/${first.id}`)).status).toBe(204);
      expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body.siteSpaces).toBe(1);
    });

    test("a deleted space drops out of its site's answers and comes back when restored", async () => {
      const [kept, deleted] = [await newSpace(w, "Kept"), await newSpace(w, "Deleted")];
      const site = await newSite(w, { spaces: [kept, deleted] });
      expect((await w.owner.api.delete(`/v1/spaces/${deleted}`)).status).toBe(204);
      const list = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`);
      expect(list.status).toBe(200);
      expectSchema("listSiteSpaces", 200, list.body);
      expect(list.body.items.map((s: any) => s.space.id)).toEqual([kept]);
      expect((await w.owner.api.post(`/v1/spaces/${deleted}/restore`)).status).toBe(200);
      const restored = await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`);
      expect(restored.body.items.map((s: any) => s.space.id)).toEqual([kept, deleted]);
    });

    test("moving a site space persists the order", async () => {
      const spaces = [await newSpace(w, "S1"), await newSpace(w, "S2"), await newSpace(w, "S3")];
      const site = await newSite(w, { spaces });
      const items = (await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).body.items;
      const res = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces/${items[2].id}/move`, {
        position: { before: { type: "site-space", siteSpace: items[0].id } },
      });
      expect(res.status).toBe(200);
      expectSchema("moveSiteSpace", 200, res.body);
      const after = (await w.owner.api.get(`${w.sites}/${site.id}/site-spaces`)).body.items;
      expect(after.map((s: any) => s.space.id)).toEqual([spaces[2], spaces[0], spaces[1]]);
      const missing = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces/${items[2].id}/move`, {
        position: { after: { type: "site-space", siteSpace: "nope0000000000000000" } },
      });
      expect(missing.status).toBe(400);
    });
  });

  describe("section groups", () => {
    test("a group is 201 with its sections, listed in order", async () => {
      const site = await newSite(w);
      const [a, b] = [await newSection(w, site.id, "Ga"), await newSection(w, site.id, "Gb")];
      const res = await w.creator.api.post(`${w.sites}/${site.id}/section-groups`, { title: "Products", icon: "box", sections: [b.id, a.id] });
      expect(res.status).toBe(201);
      expectSchema("addSectionGroupToSite", 201, res.body);
      expect(res.body).toMatchObject({ object: "site-section-group", title: "Products", icon: "box" });
      expect(res.body.sections.map((s: any) => s.id)).toEqual([b.id, a.id]);
      expect(res.body.sections[0].sectionGroup).toBe(res.body.id);
      const list = await w.reader.api.get(`${w.sites}/${site.id}/section-groups`);
      expect(list.status).toBe(200);
      expectSchema("listSiteSectionGroups", 200, list.body);
      expect(list.body.items.map((g: any) => g.id)).toEqual([res.body.id]);
    });

    test.each([
      [{}, "title"],
      [{ title: "" }, "title"],
      [{ title: "t".repeat(101) }, "title"],
      [{ title: "ok", icon: "i".repeat(51) }, "icon"],
      [{ title: "ok", sections: ["nope0000000000000000"] }, "sections[0]"],
    ])("creating a group with %j is 400 naming %s", async (body, field) => {
      const site = await newSite(w);
      const res = await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("PATCH changes title and icon; null removes the icon", async () => {
      const site = await newSite(w);
      const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "G", icon: "star" })).body;
      const res = await w.owner.api.patch(`${w.sites}/${site.id}/section-groups/${group.id}`, { title: "Renamed" });
      expect(res.status).toBe(200);
      expectSchema("updateSiteSectionGroupById", 200, res.body);
      expect(res.body).toMatchObject({ title: "Renamed", icon: "star" });
      expect((await w.owner.api.patch(`${w.sites}/${site.id}/section-groups/${group.id}`, { icon: null })).body.icon).toBeUndefined();
      expect((await w.owner.api.patch(`${w.sites}/${site.id}/section-groups/${group.id}`, { title: "t".repeat(101) })).status).toBe(400);
    });

    test("sections are added to and removed from a group; removing an absent one is 204", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "Member");
      const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "G" })).body;
      const add = await w.owner.api.post(`${w.sites}/${site.id}/section-groups/${group.id}/sections`, { sectionId: section.id });
      expect(add.status).toBe(201);
      expectSchema("addSectionToGroup", 201, add.body);
      expect(add.body.sections.map((s: any) => s.id)).toEqual([section.id]);
      const bad = await w.owner.api.post(`${w.sites}/${site.id}/section-groups/${group.id}/sections`, { sectionId: "nope0000000000000000" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("sectionId");
      const remove = await w.owner.api.delete(`${w.sites}/${site.id}/section-groups/${group.id}/sections/${section.id}`);
      expect(remove.status).toBe(204);
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/section-groups/${group.id}/sections/${section.id}`)).status).toBe(204);
      const list = await w.owner.api.get(`${w.sites}/${site.id}/section-groups`);
      expect(list.body.items[0].sections).toEqual([]);
    });

    test("deleting a group keeps its sections in the site; deleting it again is 204", async () => {
      const site = await newSite(w);
      const section = await newSection(w, site.id, "Survivor");
      const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "G", sections: [section.id] })).body;
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/section-groups/${group.id}`)).status).toBe(204);
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/section-groups/${group.id}`)).status).toBe(204);
      const sections = (await w.owner.api.get(`${w.sites}/${site.id}/sections`)).body.items;
      expect(sections.map((s: any) => [s.id, s.sectionGroup])).toEqual([[section.id, undefined]]);
    });

    test("moving a group among the top level persists the order in the published structure", async () => {
      const site = await newSite(w);
      const loose = await newSection(w, site.id, "Loose");
      const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "G" })).body;
      const res = await w.owner.api.post(`${w.sites}/${site.id}/section-groups/${group.id}/move`, { position: { before: { type: "site-section", id: loose.id } } });
      expect(res.status).toBe(200);
      expectSchema("moveSiteSectionGroup", 200, res.body);
      const published = await w.owner.api.get(`${w.sites}/${site.id}/published`);
      expect(published.body.structure.structure.map((n: any) => n.id)).toEqual([group.id, loose.id]);
    });
  });

  test("readers list the structure but cannot change it (403); outsiders get 404", async () => {
    const site = await newSite(w);
    const section = await newSection(w, site.id, "Locked");
    const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "G" })).body;
    const siteSpaceId = section.siteSpaces[0].id;
    const spaceId = await newSpace(w);
    const writes = (api: typeof w.reader.api) => [
      api.post(`${w.sites}/${site.id}/sections`, { spaceId }),
      api.patch(`${w.sites}/${site.id}/sections/${section.id}`, { title: "Nope" }),
      api.delete(`${w.sites}/${site.id}/sections/${section.id}`),
      api.post(`${w.sites}/${site.id}/sections/${section.id}/move`, {}),
      api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId }),
      api.patch(`${w.sites}/${site.id}/site-spaces/${siteSpaceId}`, { path: "nope" }),
      api.delete(`${w.sites}/${site.id}/site-spaces/${siteSpaceId}`),
      api.post(`${w.sites}/${site.id}/site-spaces/${siteSpaceId}/move`, {}),
      api.post(`${w.sites}/${site.id}/section-groups`, { title: "Nope" }),
      api.patch(`${w.sites}/${site.id}/section-groups/${group.id}`, { title: "Nope" }),
      api.delete(`${w.sites}/${site.id}/section-groups/${group.id}`),
      api.post(`${w.sites}/${site.id}/section-groups/${group.id}/sections`, { sectionId: section.id }),
      api.delete(`${w.sites}/${site.id}/section-groups/${group.id}/sections/${section.id}`),
      api.post(`${w.sites}/${site.id}/section-groups/${group.id}/move`, {}),
    ];
    const reads = (api: typeof w.reader.api) => [
      api.get(`${w.sites}/${site.id}/sections`),
      api.get(`${w.sites}/${site.id}/site-spaces`),
      api.get(`${w.sites}/${site.id}/section-groups`),
    ];
    for (const res of await Promise.all(reads(w.reader.api))) expect(res.status).toBe(200);
    for (const res of await Promise.all(writes(w.reader.api))) {
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    }
    for (const res of await Promise.all([...reads(w.outsider.api), ...writes(w.outsider.api)])) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    for (const res of await Promise.all(reads(w.guest.api))) expect(res.status).toBe(403);
  });
});
