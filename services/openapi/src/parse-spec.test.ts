import { EXPANDED_VALUES_MAX, expandedSize, findExternalRef, parseSpec } from "./parse-spec";
import { ProcessingFailure } from "./processing-failure";
import { specFixture } from "./__tests__/fixtures";

async function failureOf(text: string): Promise<ProcessingFailure> {
  const err = await parseSpec(text).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProcessingFailure);
  return err as ProcessingFailure;
}

describe("parseSpec", () => {
  test.each([
    ["OpenAPI 3.0 JSON", specFixture("3.0", "json"), "3.0.3"],
    ["OpenAPI 3.1 JSON", specFixture("3.1", "json"), "3.1.0"],
    ["Swagger 2.0 JSON", specFixture("2.0", "json"), "2.0"],
    ["OpenAPI 3.0 YAML", specFixture("3.0", "yaml"), "3.0.3"],
    ["OpenAPI 3.1 YAML", specFixture("3.1", "yaml"), "3.1.0"],
    ["Swagger 2.0 YAML", specFixture("2.0", "yaml"), "2.0"],
  ])("reads %s with its internal $refs left as they are", async (_name, text, version) => {
    const parsed = await parseSpec(text);
    expect(parsed.specVersion).toBe(version);
    expect(JSON.stringify(parsed.document)).toContain('"$ref":"#/');
    expect(parsed.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("the same document in JSON and in YAML has the same hash", async () => {
    expect((await parseSpec(specFixture("3.1", "json"))).hash).toBe((await parseSpec(specFixture("3.1", "yaml"))).hash);
  });

  test.each([
    ["text that is neither JSON nor YAML", "{ not: [valid"],
    ["a YAML list", "- a\n- b\n"],
    ["a document of no OpenAPI version", JSON.stringify({ openapi: "4.0.0", info: { title: "x", version: "1" }, paths: {} })],
    ["a document missing its info", JSON.stringify({ openapi: "3.0.3", paths: {} })],
    ["a $ref to a missing component", JSON.stringify({ openapi: "3.0.3", info: { title: "x", version: "1" }, paths: { "/a": { $ref: "#/components/pathItems/nope" } } })],
  ])("%s is a PARSE_ERROR", async (_name, text) => {
    expect((await failureOf(text)).code).toBe("PARSE_ERROR");
  });

  test.each(["https://example.com/schemas.json#/Pet", "./pets.yaml#/Pet", "/etc/passwd"])(
    "a $ref to %s is refused before any resolver runs",
    async (ref) => {
      const doc = { openapi: "3.0.3", info: { title: "x", version: "1" }, paths: {}, components: { schemas: { Pet: { $ref: ref } } } };
      const failure = await failureOf(JSON.stringify(doc));
      expect(failure.code).toBe("PARSE_ERROR");
      expect(failure.message).toContain(ref);
    },
  );

  test("YAML alias bombs are refused rather than expanded", async () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 12; i++) lines.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`);
    expect((await failureOf(lines.join("\n"))).code).toBe("PARSE_ERROR");
  });
});

/** The issue's spec: components.schemas.s_i has two properties, both `$ref: s_{i+1}`, `depth` deep. */
function fanOut(depth: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) schemas[`s${i}`] = { type: "object", properties: { a: { $ref: `#/components/schemas/s${i + 1}` }, b: { $ref: `#/components/schemas/s${i + 1}` } } };
  schemas[`s${depth}`] = { type: "string" };
  const ok = { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/s0" } } } } };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Fan-out", version: "1" }, paths: { "/x": { get: { responses: ok } } }, components: { schemas } });
}

describe("$ref fan-out", () => {
  test("the expanded size counts each $ref as what it points at, a cycle once", () => {
    expect(expandedSize({ a: 1, b: [1, 2] }, 100)).toBe(5);
    const doc = { defs: { x: { type: "string" } }, p: { $ref: "#/defs/x" }, q: { $ref: "#/defs/x" } };
    // root, defs, x (2 values) and two copies of x (2 each) in place of the refs.
    expect(expandedSize(doc, 100)).toBe(1 + 1 + 2 + 2 + 2);
    // Pointers spelled differently reach the same object: the same count.
    expect(expandedSize({ defs: { x: { type: "string" } }, p: { $ref: "#/defs/%78" }, q: { $ref: "#/d%65fs/x" } }, 100)).toBe(8);
    const cycle = { defs: { node: { type: "object", properties: { next: { $ref: "#/defs/node" } } } } };
    expect(expandedSize(cycle, 100)).toBeLessThan(20);
    // 2^n growth stops at the limit instead of being counted out.
    expect(expandedSize(JSON.parse(fanOut(60)), 1000)).toBeGreaterThan(1000);
  });

  test("the issue's depth-21 spec (2.7 KB, 41 s of validation) is a PARSE_ERROR at once; a shallow one still parses", async () => {
    const text = fanOut(21);
    expect(text.length).toBeLessThan(3000);
    const started = Date.now();
    const failure = await failureOf(text);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failure.code).toBe("PARSE_ERROR");
    expect(failure.message).toBe(`The specification holds more than ${EXPANDED_VALUES_MAX} values once its $refs are followed; share fewer schemas through nested $refs or split it.`);
    expect((await parseSpec(fanOut(8))).specVersion).toBe("3.0.3");
  });

  test("deep nesting is refused before anything recurses through it", async () => {
    const deep = `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},"x-deep":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const failure = await failureOf(deep);
    expect(failure.code).toBe("PARSE_ERROR");
    expect(failure.message).toMatch(/nests deeper than 1000 levels/);
  });
});

describe("findExternalRef", () => {
  test("finds a nested external $ref and ignores local ones", () => {
    expect(findExternalRef({ a: [{ $ref: "#/x" }, { b: { $ref: "other.json" } }] })).toBe("other.json");
    expect(findExternalRef({ a: [{ $ref: "#/x" }] })).toBeUndefined();
  });
});
