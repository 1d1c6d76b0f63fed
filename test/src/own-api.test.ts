// docshelf's own API description, GET /v1/openapi.json, through HTTP in every process mode: no token needed,
// a valid OpenAPI document (swagger-parser), every /v1 route in it, and linked from the home page.
import SwaggerParser from "@apidevtools/swagger-parser";
import type { RunningSystem } from "@docshelf/testkit";
import { V1_ROUTES } from "@docshelf/gateway/dist/routes";
import { MODES, start } from "./modes";

describe.each(MODES)("the API's own description over %s", (mode) => {
  let sys: RunningSystem;
  beforeAll(async () => {
    sys = await start(mode);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("GET /v1/openapi.json answers a valid OpenAPI document of every route, without a token", async () => {
    const res = await fetch(`${sys.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const document = (await res.json()) as { openapi: string; info: { title: string }; paths: Record<string, Record<string, { tags?: string[] }>> };
    expect(document.info.title).toBe("docshelf API");
    // swagger-parser dereferences in place: validate a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    const shape = (text: string) => text.toLowerCase().replace(/\{[^}]+\}|[:*][a-z0-9_]+/gi, "{}");
    const described = new Set(Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => shape(`${method} ${path}`))));
    const routes = Object.keys(V1_ROUTES).filter((route) => !route.includes(" /_test/"));
    expect(routes.filter((route) => !described.has(shape(route)))).toEqual([]);
    expect(document.paths["/orgs/{organizationId}/domains"].get.tags).toEqual(["docshelf"]);
    // The API's own routes still need a token.
    expect((await fetch(`${sys.url}/v1/user`)).status).toBe(401);
  });

  test("the home page links to it", async () => {
    const home = await (await fetch(`${sys.url}/`)).text();
    expect(home).toContain(`href="${sys.url}/v1/openapi.json"`);
  });
});
