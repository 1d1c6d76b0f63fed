// The adaptive schema's accepted form and the template conditions derived from it.
import { DEFAULT_SCHEMA, DRAFT_07, parseAdaptiveSchema, templateConditions } from "./adaptive-schema";

const valid = {
  $schema: DRAFT_07,
  type: "object",
  properties: {
    isAdmin: { type: "boolean", description: "Administers the product" },
    unsigned: { type: "object", description: "Unsigned claims of the site visitor.", properties: { beta: { type: "boolean", description: "Beta" } }, additionalProperties: false },
  },
  additionalProperties: false,
};

function messageOf(input: unknown): string {
  try {
    parseAdaptiveSchema(input);
  } catch (err) {
    expect((err as { code?: number }).code).toBe(400);
    return (err as Error).message;
  }
  throw new Error("expected a 400");
}

describe("parseAdaptiveSchema", () => {
  test("accepts the interface's form and returns it unchanged", () => {
    expect(parseAdaptiveSchema(valid)).toEqual(valid);
    expect(parseAdaptiveSchema({ ...valid, $id: "https://example.com/visitor" }).$id).toBe("https://example.com/visitor");
  });

  test("accepts the default schema", () => {
    expect(parseAdaptiveSchema(DEFAULT_SCHEMA)).toEqual(DEFAULT_SCHEMA);
  });

  test.each([
    [null, "'jsonSchema' must be an object"],
    [{ ...valid, type: "string" }, "'jsonSchema.type'"],
    [{ ...valid, additionalProperties: undefined }, "'jsonSchema.additionalProperties'"],
    [{ ...valid, oneOf: [] }, "'jsonSchema.oneOf' is not allowed"],
    [{ ...valid, properties: [] }, "'jsonSchema.properties'"],
    [{ ...valid, properties: { "bad name": { type: "boolean", description: "" } } }, "'jsonSchema.properties.bad name'"],
    [{ ...valid, properties: { flag: { type: "boolean", description: "d", default: true } } }, "'jsonSchema.properties.flag.default' is not allowed"],
    [{ ...valid, properties: { unsigned: { type: "object", description: "other", properties: {}, additionalProperties: false } } }, "'jsonSchema.properties.unsigned.description'"],
    [{ ...valid, properties: { unsigned: { type: "object", properties: [], additionalProperties: false } } }, "'jsonSchema.properties.unsigned.properties'"],
  ])("refuses %j naming the part that is wrong", (input, expected) => {
    expect(messageOf(input)).toContain(expected);
  });

  test("refuses more claims than the limit", () => {
    const properties = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c${i}`, { type: "boolean", description: "" }]));
    expect(messageOf({ ...valid, properties })).toContain("at most 100 claims");
  });
});

describe("templateConditions", () => {
  test("one condition per claim, signed first, with the claim's description", () => {
    expect(templateConditions(parseAdaptiveSchema(valid))).toEqual([
      { description: "Administers the product", condition: "visitor.claims.isAdmin === true" },
      { description: "Beta", condition: "visitor.claims.unsigned.beta === true" },
    ]);
  });

  test("a claim without a description gets one naming it", () => {
    const schema = parseAdaptiveSchema({ ...valid, properties: { paid: { type: "boolean", description: "" } } });
    expect(templateConditions(schema)).toEqual([{ description: "Visitor's paid claim is true", condition: "visitor.claims.paid === true" }]);
  });

  test("the default schema has none", () => {
    expect(templateConditions(DEFAULT_SCHEMA)).toEqual([]);
  });
});
