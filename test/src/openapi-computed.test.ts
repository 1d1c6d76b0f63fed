// Computed `builtin:openapi` pages through HTTP, in every process mode: a page naming a spec shows
// the spec's operations when its space's content is read (computed=true, the default).
import { addMember, createOrg, createSpace, createUser, expectSchema, withBodies, type ApiClient, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

const petstore = (extraTag?: string) => ({
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.0.0", description: "The pet store." },
  tags: [{ name: "pets", description: "Everything about pets" }, { name: "store" }, ...(extraTag ? [{ name: extraTag }] : [])],
  paths: {
    "/pets/{petId}": {
      get: {
        tags: ["pets"],
        summary: "Get a pet",
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "The pet", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } },
      },
    },
    "/orders": { post: { tags: ["store"], summary: "Place an order", responses: { "201": { description: "Placed" } } } },
    ...(extraTag ? { "/extra": { get: { tags: [extraTag], summary: "Something new", responses: { "200": { description: "ok" } } } } } : {}),
  },
  components: { schemas: { Pet: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } },
});

const computedOn = (spec: string, models = false) => ({ type: "builtin:openapi", dependencies: { spec: { ref: { kind: "openapi", spec } } }, props: { models } });

describe.each(MODES)("computed OpenAPI pages over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let reader: TestUser;
  let orgId: string;
  let counter = 0;
  const slug = () => `pets-${Date.now().toString(36)}-${counter++}`;

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
    reader = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, reader.email, "read");
  });

  afterAll(async () => {
    await sys?.stop();
  });

  /** Waits until the spec's processing ended after `after` (its previous lastProcessedAt). */
  async function settled(specSlug: string, after?: string): Promise<any> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await owner.api.get(`/v1/orgs/${orgId}/openapi/${specSlug}`);
      expect(res.status).toBe(200);
      if (res.body.processingState === "complete" && res.body.lastProcessedAt !== after) return res.body;
      if (Date.now() > deadline) throw new Error(`spec ${specSlug} still ${res.body.processingState}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function spaceWith(pages: unknown[]): Promise<string> {
    const space = await createSpace(owner.api, orgId, { title: "API docs" });
    const res = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: pages });
    expect(res.status).toBe(201);
    return space.id;
  }

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const get = (api: ApiClient, path: string) => api.get(path);

  test("a builtin:openapi page shows one page per tag with each operation; computed=false shows the page as stored", async () => {
    const s = slug();
    expect((await owner.api.post(`/v1/orgs/${orgId}/openapi`, { slug: s, source: { text: JSON.stringify(petstore()) } })).status).toBe(201);
    await settled(s);
    const spaceId = await spaceWith([
      { type: "insert_page", id: "p-intro", title: "Introduction", markdown: "Read on.\n" },
      { type: "insert_page", id: "p-api", title: "API reference", computed: computedOn(s, true) },
    ]);

    const content = await get(reader.api, `/v1/spaces/${spaceId}/content`);
    expect(content.status).toBe(200);
    expectSchema("getCurrentRevision", 200, withBodies(content.body));
    const api = content.body.pages[1];
    expect(api).toMatchObject({ id: "p-api", type: "document", path: "api-reference" });
    expect(api.computed).toBeUndefined();
    expect(api.pages.map((p: any) => [p.title, p.path])).toEqual([
      ["pets", "api-reference/pets"],
      ["store", "api-reference/store"],
      ["Models", "api-reference/models"],
    ]);

    const overview = await get(reader.api, `/v1/spaces/${spaceId}/content/page/p-api`);
    expectSchema("getPageById", 200, withBodies(overview.body));
    expect(overview.body.markdown).toContain("The pet store.");
    const pets = await get(reader.api, `/v1/spaces/${spaceId}/content/page/${api.pages[0].id}`);
    expect(pets.status).toBe(200);
    expectSchema("getPageById", 200, pets.body);
    expect(pets.body).toMatchObject({ title: "pets", description: "Everything about pets" });
    expect(pets.body.markdown).toContain("## Get a pet\n\n`GET /pets/{petId}`");
    expect(pets.body.markdown).toContain("| petId | path | string | yes |");
    expect(pets.body.markdown).toContain("| 200 | The pet | application/json (Pet) |");
    const byPath = await get(reader.api, `/v1/spaces/${spaceId}/content/path/api-reference/store`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.markdown).toContain("`POST /orders`");
    const document = await get(reader.api, `/v1/spaces/${spaceId}/content/page/${api.pages[0].id}?format=document`);
    expect(document.body.document.nodes.length).toBeGreaterThan(0);

    const pages = await get(reader.api, `/v1/spaces/${spaceId}/content/pages`);
    expectSchema("listPages", 200, withBodies(pages.body));
    expect(pages.body.pages[1].pages).toHaveLength(3);

    // Not evaluated: the page as stored, GitBook's RevisionPageComputed.
    const raw = await get(reader.api, `/v1/spaces/${spaceId}/content?computed=false`);
    expectSchema("getCurrentRevision", 200, withBodies(raw.body));
    expect(raw.body.pages[1]).toMatchObject({ id: "p-api", type: "computed", computed: computedOn(s, true), pages: [] });
    expect((await get(reader.api, `/v1/spaces/${spaceId}/content/page/${api.pages[0].id}?computed=false`)).status).toBe(404);

    // A change request's content evaluates them the same way.
    const cr = await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Look" });
    expect(cr.status).toBe(201);
    const crContent = await get(reader.api, `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`);
    expectSchema("getRevisionOfChangeRequestById", 200, withBodies(crContent.body));
    expect(crContent.body.pages[1].pages.map((p: any) => p.title)).toEqual(["pets", "store", "Models"]);
    const crPage = await get(reader.api, `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/page/${api.pages[0].id}`);
    expect(crPage.status).toBe(200);
    expect(crPage.body.markdown).toContain("`GET /pets/{petId}`");
    expect((await get(reader.api, `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?computed=false`)).body.pages[1].type).toBe("computed");
  });

  test("a new version of the spec shows at once; a missing or deleted spec gives a placeholder page, never an error", async () => {
    const s = slug();
    expect((await owner.api.post(`/v1/orgs/${orgId}/openapi`, { slug: s, source: { text: JSON.stringify(petstore()) } })).status).toBe(201);
    const first = await settled(s);
    const spaceId = await spaceWith([
      { type: "insert_page", id: "p-api", title: "API", computed: computedOn(s) },
      { type: "insert_page", id: "p-gone", title: "Nowhere", computed: computedOn("no-such-spec") },
    ]);
    const titles = async () => (await get(reader.api, `/v1/spaces/${spaceId}/content`)).body.pages[0].pages.map((p: any) => p.title);
    expect(await titles()).toEqual(["pets", "store"]);

    expect((await owner.api.put(`/v1/orgs/${orgId}/openapi/${s}`, { source: { text: JSON.stringify(petstore("billing")) } })).status).toBe(200);
    await settled(s, first.lastProcessedAt);
    await until(async () => (await titles()).includes("billing"), "the new version's pages");
    expect(await titles()).toEqual(["pets", "store", "billing"]);

    const missing = await get(reader.api, `/v1/spaces/${spaceId}/content/page/p-gone`);
    expect(missing.status).toBe(200);
    expectSchema("getPageById", 200, missing.body);
    expect(missing.body.markdown).toContain("`no-such-spec` does not exist");
    expect(missing.body.pages).toEqual([]);

    expect((await owner.api.delete(`/v1/orgs/${orgId}/openapi/${s}`)).status).toBe(204);
    await until(async () => (await titles()).length === 0, "the deleted spec's pages to go");
    const gone = await get(reader.api, `/v1/spaces/${spaceId}/content/page/p-api`);
    expect(gone.status).toBe(200);
    expect(gone.body.markdown).toContain(`\`${s}\` does not exist`);
  });

  test("a computed source other than builtin:openapi, or a bad spec slug, is refused naming the field", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Bad" });
    for (const computed of [
      { ...computedOn("pets"), type: "integration:acme" },
      computedOn("Not A Slug"),
      { ...computedOn("pets"), dependencies: { spec: { ref: { kind: "space", spec: "pets" } } } },
    ]) {
      const res = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: [{ type: "insert_page", title: "X", computed }] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("changes[0].computed");
    }
  });
});
