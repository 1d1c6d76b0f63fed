import { specObject } from "./__tests__/fixtures";
import { renderSpecPages } from "./render-pages";

const petstore = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "2.1.0", description: "All about pets." },
  servers: [{ url: "https://api.example.com/v1" }],
  tags: [{ name: "pets", description: "Everything about pets" }, { name: "unused" }, { name: "store" }],
  paths: {
    "/pets/{petId}": {
      parameters: [{ $ref: "#/components/parameters/PetId" }],
      get: {
        tags: ["pets"],
        summary: "Get a pet",
        description: "Finds one | pet.",
        parameters: [{ name: "fields", in: "query", schema: { type: "array", items: { type: "string" } } }],
        responses: { "200": { description: "The pet", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } }, "404": { description: "Not found" } },
      },
      delete: { tags: ["pets"], operationId: "deletePet", deprecated: true, responses: { "204": { description: "Gone" } } },
    },
    "/orders": {
      post: {
        tags: ["store"],
        summary: "Place an order",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } } },
        responses: { "201": { $ref: "#/components/responses/Created" } },
      },
    },
    "/health": { get: { responses: { "200": { description: "ok" } } } },
  },
  components: {
    parameters: { PetId: { name: "petId", in: "path", required: true, schema: { type: "string", format: "uuid" } } },
    responses: { Created: { description: "Created" } },
    schemas: {
      Pet: { type: "object", required: ["name"], properties: { name: { type: "string", description: "Its name" }, tags: { type: "array", items: { type: "string" } } } },
      Order: { type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" } } },
    },
  },
};

describe("renderSpecPages", () => {
  test("one page per tag in the document's order, untagged operations last, tags without operations left out", () => {
    const rendered = renderSpecPages(petstore, { models: false });
    expect(rendered.pages.map((p) => [p.slug, p.title])).toEqual([["pets", "pets"], ["store", "store"], ["other-operations", "Other operations"]]);
    expect(rendered.pages[0].description).toBe("Everything about pets");
    expect(rendered.markdown).toContain("All about pets.");
    expect(rendered.markdown).toContain("Version: 2.1.0");
    expect(rendered.markdown).toContain("* `https://api.example.com/v1`");
  });

  test("an operation shows method, path, summary, parameters (shared and $ref'd), request body and responses", () => {
    const [pets, store] = renderSpecPages(petstore, { models: false }).pages;
    expect(pets.markdown).toContain("## Get a pet\n\n`GET /pets/{petId}`\n\nFinds one | pet.");
    expect(pets.markdown).toContain("| petId | path | string (uuid) | yes |");
    expect(pets.markdown).toContain("| fields | query | array of string | no |");
    expect(pets.markdown).toContain("| 200 | The pet | application/json (Pet) |");
    expect(pets.markdown).toContain("## deletePet\n\n`DELETE /pets/{petId}`\n\n_Deprecated._");
    expect(store.markdown).toContain("**Request body** (required): `application/json`: Order");
    expect(store.markdown).toContain("| 201 | Created |");
  });

  test("models adds a page of component schemas; Swagger 2.0 documents render too", () => {
    const withModels = renderSpecPages(petstore, { models: true });
    const models = withModels.pages[withModels.pages.length - 1];
    expect(models).toMatchObject({ slug: "models", title: "Models" });
    expect(models.markdown).toContain("## Pet");
    expect(models.markdown).toContain("| name | string | yes | Its name |");
    const swagger = renderSpecPages(specObject("2.0"), { models: true });
    expect(swagger.pages.map((p) => p.slug)).toEqual(["other-operations", "models"]);
    expect(swagger.pages[0].markdown).toContain("| 200 | ok | Pet |");
  });

  test("a document without operations says so", () => {
    expect(renderSpecPages({ openapi: "3.1.0", info: { title: "Empty", version: "1" } }, { models: false })).toEqual({
      markdown: "Version: 1\n\nThe specification describes no operations.\n",
      pages: [],
    });
  });
});
