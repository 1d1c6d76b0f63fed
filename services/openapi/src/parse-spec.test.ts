import { findExternalRef, parseSpec } from "./parse-spec";
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

describe("findExternalRef", () => {
  test("finds a nested external $ref and ignores local ones", () => {
    expect(findExternalRef({ a: [{ $ref: "#/x" }, { b: { $ref: "other.json" } }] })).toBe("other.json");
    expect(findExternalRef({ a: [{ $ref: "#/x" }] })).toBeUndefined();
  });
});
