// The indexed alias lookup finds exactly what moleculer-web's linear resolveAlias finds.
import { allowedMethods, buildAliasIndex, resolveIndexed, type AliasLike } from "./alias-index";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Alias = require("moleculer-web/src/alias") as new (service: unknown, route: unknown, opts: string, action: string) => AliasLike;

function linear(aliases: AliasLike[], url: string, method: string) {
  for (const alias of aliases) {
    if (alias.isMethod(method)) {
      const params = alias.match(url);
      if (params) return { alias, params };
    }
  }
  return false;
}

describe("resolveIndexed", () => {
  const v1 = { path: "/v1", opts: {} };
  const root = { path: "/", opts: {} };
  const aliases: AliasLike[] = [
    new Alias({}, v1, "GET /spaces/:spaceId/content/page/:pageId", "content.page"),
    new Alias({}, v1, "GET /orgs/:organizationId/spaces", "content.list"),
    new Alias({}, v1, "POST /orgs/:organizationId/spaces", "content.create"),
    new Alias({}, v1, "GET /:anything/special", "x.generic"),
    new Alias({}, v1, "GET /spaces/:spaceId", "content.getSpace"),
    new Alias({}, v1, "DELETE /spaces/:spaceId", "content.remove"),
    new Alias({}, v1, "GET /user", "identity.me"),
    new Alias({}, v1, "* /orgs/:organizationId", "orgs.any"),
    new Alias({}, root, "GET health", "gateway.health"),
    new Alias({}, root, "GET files/:id/:name", "content.download"),
    new Alias({}, v1, "GET /spaces/:spaceId/content/path/*rest", "content.byPath"),
    new Alias({}, v1, "GET /spaces/:spaceId/export{.:format}", "content.export"),
    new Alias({}, root, "GET /", "gateway.root"),
  ];
  const index = buildAliasIndex(aliases);
  const urls = [
    "/v1/spaces/abc",
    "/v1/spaces/abc/",
    "/V1/Spaces/abc",
    "/v1/spaces/abc/content/page/p1",
    "/v1/spaces/special",
    "/v1/orgs/special",
    "/v1/orgs/o1/spaces",
    "/v1/orgs/o1",
    "/v1/user",
    "/v1/user/",
    "/v1//spaces/abc",
    "/health",
    "/files/f1/a.png",
    "/v1",
    "/",
    "",
    "/nope/nope/nope",
    "/v1/spaces/a%2Fb",
    "/v1/spaces/abc//",
    "/v1/spaces//",
    "/v1/spaces/abc/content/path/a/b/c",
    "/v1/spaces/abc/export",
    "/v1/spaces/abc/export.json",
    "/v1/USER",
  ];

  test.each(["GET", "POST", "DELETE", "PATCH"])("for %s every URL resolves to the same alias and params as the linear scan", (method) => {
    for (const url of urls) {
      const expected = linear(aliases, url, method);
      const found = resolveIndexed(index, url, method);
      expect({ url, action: found && (found.alias as unknown as { action: string }).action, params: found && found.params }).toEqual({
        url,
        action: expected && (expected.alias as unknown as { action: string }).action,
        params: expected && expected.params,
      });
    }
  });

  test("a URL is only tried against the aliases of its first two segments and length, and those without a bucket", () => {
    const tried: string[] = [];
    const spy = aliases.map((alias) => Object.assign(Object.create(alias), { match: (url: string) => (tried.push(alias.fullPath), alias.match(url)) }));
    resolveIndexed(buildAliasIndex(spy), "/v1/spaces/abc", "GET");
    expect(tried).toEqual(["/v1/:anything/special", "/v1/spaces/:spaceId"]);
  });
});

describe("resolveIndexed over the gateway's own routes", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { V1_ROUTES } = require("./routes") as { V1_ROUTES: Record<string, string> };
  const v1 = { path: "/v1", opts: {} };
  const aliases: AliasLike[] = Object.entries(V1_ROUTES).map(([path, action]) => new Alias({}, v1, path, action));
  const index = buildAliasIndex(aliases);
  const urls = aliases.flatMap((alias) => {
    const url = alias.fullPath.replace(/:[A-Za-z_$][A-Za-z0-9_$]*/g, "x1");
    return [url, `${url}/`, url.toUpperCase(), `${url}/extra`];
  });

  test("every route's URL resolves as moleculer-web's linear scan does, for every method", () => {
    expect(aliases.length).toBeGreaterThan(20);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      for (const url of urls) {
        const expected = linear(aliases, url, method);
        const found = resolveIndexed(index, url, method);
        expect([url, method, found && found.alias, found && found.params]).toEqual([url, method, expected && expected.alias, expected && expected.params]);
      }
    }
  });
});

describe("allowedMethods", () => {
  const alias = (method: string, fullPath: string): AliasLike => {
    const pattern = new RegExp(`^${fullPath.replace(/:[A-Za-z]+/g, "[^/]+")}$`);
    return { method, fullPath, isMethod: (m) => method === "*" || m === method, match: (url) => (pattern.test(url) ? {} : false) };
  };
  const aliases = [alias("GET", "/v1/orgs"), alias("POST", "/v1/orgs"), alias("GET", "/v1/orgs/:id"), alias("DELETE", "/v1/orgs/:id"), alias("*", "/v1/any")];

  test("lists the methods of every alias matching the path, sorted; none for an unknown path or a catch-all", () => {
    expect(allowedMethods(aliases, "/v1/orgs")).toEqual(["GET", "POST"]);
    expect(allowedMethods(aliases, "/v1/orgs/abc")).toEqual(["DELETE", "GET"]);
    expect(allowedMethods(aliases, "/v1/nothing")).toEqual([]);
    expect(allowedMethods(aliases, "/v1/any")).toEqual([]);
  });
});
