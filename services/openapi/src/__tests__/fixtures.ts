// Small valid specs of each supported version and format, for the unit tests.
import { stringify } from "yaml";

export type FixtureVersion = "2.0" | "3.0" | "3.1";

export function specObject(version: FixtureVersion, title = "Pets"): Record<string, unknown> {
  if (version === "2.0") {
    return {
      swagger: "2.0",
      info: { title, version: "1.0.0" },
      paths: { "/pets": { get: { responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Pet" } } } } } },
      definitions: { Pet: { type: "object", properties: { name: { type: "string" } } } },
    };
  }
  return {
    openapi: version === "3.0" ? "3.0.3" : "3.1.0",
    info: { title, version: "1.0.0" },
    paths: {
      "/pets": {
        get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } } },
      },
    },
    components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
  };
}

export function specFixture(version: FixtureVersion, format: "json" | "yaml", title?: string): string {
  const doc = specObject(version, title);
  return format === "json" ? JSON.stringify(doc) : stringify(doc);
}
