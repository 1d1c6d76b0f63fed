// Adaptive content and the published site profile through HTTP, in every process mode.
import { expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";

const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    isAdmin: { type: "boolean", description: "The visitor administers the product" },
    unsigned: {
      type: "object",
      description: "Unsigned claims of the site visitor.",
      properties: { beta: { type: "boolean", description: "Opted into the beta" } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe.each(MODES)("adaptive content and published profile over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("a new site has an empty adaptive schema", async () => {
    const site = await newSite(w);
    const res = await w.reader.api.get(`${w.sites}/${site.id}/adaptive-schema`);
    expect(res.status).toBe(200);
    expectSchema("getSiteAdaptiveSchema", 200, res.body);
    expect(res.body.jsonSchema).toMatchObject({ type: "object", additionalProperties: false, properties: { unsigned: { properties: {} } } });
    const conditions = await w.reader.api.get(`${w.sites}/${site.id}/adaptive-schema/template-conditions`);
    expect(conditions.status).toBe(200);
    expectSchema("listSiteAdaptiveTemplateConditions", 200, conditions.body);
    expect(conditions.body.items).toEqual([]);
  });

  test("PUT stores the schema and the template conditions follow from it", async () => {
    const site = await newSite(w);
    const res = await w.creator.api.put(`${w.sites}/${site.id}/adaptive-schema`, { jsonSchema: schema });
    expect(res.status).toBe(200);
    expectSchema("updateSiteAdaptiveSchema", 200, res.body);
    expect(res.body.jsonSchema).toEqual(schema);
    const read = await w.owner.api.get(`${w.sites}/${site.id}/adaptive-schema`);
    expect(read.body).toEqual(res.body);
    const conditions = await w.owner.api.get(`${w.sites}/${site.id}/adaptive-schema/template-conditions`);
    expectSchema("listSiteAdaptiveTemplateConditions", 200, conditions.body);
    expect(conditions.body.items).toEqual([
      { description: "The visitor administers the product", condition: "visitor.claims.isAdmin === true" },
      { description: "Opted into the beta", condition: "visitor.claims.unsigned.beta === true" },
    ]);
  });

  test.each([
    [{ jsonSchema: "x" }, "jsonSchema"],
    [{}, "jsonSchema"],
    [{ jsonSchema: { ...schema, type: "array" } }, "jsonSchema.type"],
    [{ jsonSchema: { ...schema, additionalProperties: true } }, "jsonSchema.additionalProperties"],
    [{ jsonSchema: { ...schema, $schema: "https://json-schema.org/draft/2020-12/schema" } }, "jsonSchema.$schema"],
    [{ jsonSchema: { ...schema, required: ["isAdmin"] } }, "jsonSchema.required"],
    [{ jsonSchema: { ...schema, properties: { age: { type: "number", description: "Age" } } } }, "jsonSchema.properties.age.type"],
    [{ jsonSchema: { ...schema, properties: { x: { type: "boolean" } } } }, "jsonSchema.properties.x.description"],
    [{ jsonSchema: { ...schema, properties: { unsigned: { type: "object", properties: {}, additionalProperties: true } } } }, "jsonSchema.properties.unsigned.additionalProperties"],
    [
      { jsonSchema: { ...schema, properties: { unsigned: { type: "object", properties: { s: { type: "string", description: "s" } }, additionalProperties: false } } } },
      "jsonSchema.properties.unsigned.properties.s.type",
    ],
  ])("PUT with %j is 400 naming %s", async (body, field) => {
    const site = await newSite(w);
    const res = await w.owner.api.put(`${w.sites}/${site.id}/adaptive-schema`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("readers read the schema but cannot replace it (403); outsiders get 404", async () => {
    const site = await newSite(w);
    const put = await w.reader.api.put(`${w.sites}/${site.id}/adaptive-schema`, { jsonSchema: schema });
    expect(put.status).toBe(403);
    expectErrorBody(403, put.body);
    expect((await w.outsider.api.get(`${w.sites}/${site.id}/adaptive-schema`)).status).toBe(404);
    expect((await w.outsider.api.put(`${w.sites}/${site.id}/adaptive-schema`, { jsonSchema: schema })).status).toBe(404);
    expect((await w.guest.api.get(`${w.sites}/${site.id}/adaptive-schema/template-conditions`)).status).toBe(403);
    expect((await w.owner.api.get(`${w.sites}/${site.id}/adaptive-schema`)).body.jsonSchema.properties.isAdmin).toBeUndefined();
  });

  test("the published profile of a site with sections has the sections structure and customizations per site space", async () => {
    const site = await newSite(w);
    const section = await newSection(w, site.id, "Docs");
    const group = (await w.owner.api.post(`${w.sites}/${site.id}/section-groups`, { title: "More" })).body;
    const grouped = await newSection(w, site.id, "Grouped");
    await w.owner.api.post(`${w.sites}/${site.id}/section-groups/${group.id}/sections`, { sectionId: grouped.id });
    await w.owner.api.post(`${w.sites}/${site.id}/publish`);
    const res = await w.reader.api.get(`${w.sites}/${site.id}/published`);
    expect(res.status).toBe(200);
    expectSchema("getPublishedContentSite", 200, res.body);
    expect(res.body.object).toBe("published-content-site");
    expect(res.body.site).toMatchObject({ id: site.id, published: true });
    expect(res.body.structure.type).toBe("sections");
    expect(res.body.structure.structure.map((n: any) => [n.object, n.id])).toEqual([
      ["site-section", section.id],
      ["site-section-group", group.id],
    ]);
    expect(res.body.structure.structure[1].sections.map((s: any) => s.id)).toEqual([grouped.id]);
    expect(Object.keys(res.body.customizations.siteSpaces).sort()).toEqual([section.siteSpaces[0].id, grouped.siteSpaces[0].id].sort());
    expect(res.body.scripts).toEqual([]);
  });

  test("the published profile of a site without sections lists its site spaces", async () => {
    const site = await newSite(w, { spaces: [await newSpace(w, "Only")] });
    const res = await w.owner.api.get(`${w.sites}/${site.id}/published`);
    expect(res.status).toBe(200);
    expectSchema("getPublishedContentSite", 200, res.body);
    expect(res.body.structure.type).toBe("siteSpaces");
    expect(res.body.structure.structure.map((s: any) => s.title)).toEqual(["Only"]);
  });

  test("the published profile is 403 for guests and 404 for outsiders", async () => {
    const site = await newSite(w);
    const guest = await w.guest.api.get(`${w.sites}/${site.id}/published`);
    expect(guest.status).toBe(403);
    expectErrorBody(403, guest.body);
    const outsider = await w.outsider.api.get(`${w.sites}/${site.id}/published`);
    expect(outsider.status).toBe(404);
    expectErrorBody(404, outsider.body);
  });
});
