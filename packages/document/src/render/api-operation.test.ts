import { renderMarkdown } from "../render-html";
import { operationFromSpec } from "./api-operation";

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1" },
  paths: {
    "/pets/{petId}": {
      parameters: [{ $ref: "#/components/parameters/PetId" }],
      get: {
        summary: "Get a pet",
        description: "Answers **one** pet.",
        parameters: [{ name: "fields", in: "query", schema: { type: "array", items: { type: "string" } }, description: "Fields to include" }],
        responses: {
          "200": { description: "The pet", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
      put: {
        requestBody: { required: true, content: { "application/json": { example: { name: "Rex" } } } },
        responses: { "204": { description: "Saved" } },
        deprecated: true,
      },
    },
    "/loop": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Loop" } } } } } } },
  },
  components: {
    parameters: { PetId: { name: "petId", in: "path", required: true, schema: { type: "integer", format: "int64" } } },
    schemas: {
      Pet: { type: "object", properties: { id: { type: "integer" }, name: { type: "string", example: "Fido" }, tags: { type: "array", items: { type: "string" } } } },
      Loop: { $ref: "#/components/schemas/Loop" },
    },
    responses: { NotFound: { description: "No such pet" } },
  },
};

describe("operationFromSpec", () => {
  test("the operation's parameters (the path item's too), request body and responses, with examples given or made from the schema", () => {
    const get = operationFromSpec(SPEC, "GET", "/pets/{petId}")!;
    expect(get.summary).toBe("Get a pet");
    expect(get.parameters).toEqual([
      { name: "fields", in: "query", required: false, type: "string[]", description: "Fields to include" },
      { name: "petId", in: "path", required: true, type: "integer (int64)", description: undefined },
    ]);
    expect(get.responses.map((r) => [r.status, r.description])).toEqual([["200", "The pet"], ["404", "No such pet"]]);
    expect(JSON.parse(get.responses[0].body!.example!)).toEqual({ id: 0, name: "Fido", tags: ["string"] });
    const put = operationFromSpec(SPEC, "put", "/pets/{petId}")!;
    expect(put.deprecated).toBe(true);
    expect(put.requestBody).toEqual({ contentType: "application/json", required: true, example: JSON.stringify({ name: "Rex" }, null, 2) });
  });

  test("unknown operations, remote and looping references and odd documents answer nothing or stop, never throw", () => {
    expect(operationFromSpec(SPEC, "post", "/pets/{petId}")).toBeUndefined();
    expect(operationFromSpec(SPEC, "get", "/nope")).toBeUndefined();
    expect(operationFromSpec(SPEC, "evil", "/pets/{petId}")).toBeUndefined();
    expect(operationFromSpec(null, "get", "/x")).toBeUndefined();
    expect(operationFromSpec({ paths: { "/x": { get: { $ref: "https://attacker.example/op.json" } } } }, "get", "/x")).toBeUndefined();
    expect(operationFromSpec({ paths: { __proto__: { get: {} } } }, "get", "__proto__")).toBeUndefined();
    const loop = operationFromSpec(SPEC, "get", "/loop")!;
    expect(loop.responses[0].body).toEqual({ contentType: "application/json", example: undefined });
  });

  test("a schema that fans out (each level two references to the next, 30 deep) is bounded", () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) schemas[`s${i}`] = { type: "object", properties: { a: { $ref: `#/components/schemas/s${i + 1}` }, b: { $ref: `#/components/schemas/s${i + 1}` } } };
    schemas.s30 = { type: "string" };
    const doc = { paths: { "/x": { get: { responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/s0" } } } } } } } }, components: { schemas } };
    const began = Date.now();
    const op = operationFromSpec(doc, "get", "/x")!;
    expect(Date.now() - began).toBeLessThan(500);
    expect(op.responses[0].body!.example!.length).toBeLessThanOrEqual(4_002);
  });
});

describe("an API block with its hosted spec", () => {
  test("shows the spec's parameters, request body and responses with examples, escaped", () => {
    const evil = { ...SPEC, paths: { "/pets/{petId}": { get: { summary: "<img src=x onerror=alert(1)>", description: "<script>alert(1)</script>ok", parameters: [{ name: "<b>n</b>", in: "query", description: "<iframe src=javascript:alert(1)>" }], responses: { "200": { description: "<svg onload=alert(1)>", content: { "application/json": { example: { x: "</code><script>alert(1)</script>" } } } } } } } } };
    const markdown = '{% openapi-operation spec="pets" path="/pets/{petId}" method="get" %}\n{% endopenapi-operation %}\n';
    const { html } = renderMarkdown(markdown, { apiOperation: ({ spec, method, path }) => (spec === "pets" ? operationFromSpec(SPEC, method, path) : undefined) });
    expect(html).toContain("Get a pet");
    expect(html).toContain("<strong>one</strong>");
    expect(html).toContain("<code>petId</code>");
    expect(html).toContain("<strong>Responses</strong>");
    expect(html).toContain("No such pet");
    expect(html).toMatch(/api-example[^]*Fido/);
    const put = renderMarkdown('{% openapi-operation spec="pets" path="/pets/{petId}" method="put" %}\n{% endopenapi-operation %}\n', { apiOperation: ({ method, path }) => operationFromSpec(SPEC, method, path) }).html;
    expect(put).toContain("<strong>Request body</strong> <small>required</small>");
    expect(put).toContain("deprecated");
    const hostile = renderMarkdown(markdown, { apiOperation: ({ method, path }) => operationFromSpec(evil, method, path) }).html;
    expect(hostile).not.toMatch(/<(script|img|iframe|svg)\b/i);
    expect(hostile).not.toMatch(/<[^>]*\son\w+=/i);
    expect(hostile).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
