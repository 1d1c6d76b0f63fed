// The indexed alias lookup finds exactly what moleculer-web's linear resolveAlias finds.
import { buildAliasIndex, resolveIndexed, type AliasLike } from "./alias-index";
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

  test("a URL with a known prefix is only tried against the aliases that can match it", () => {
    const tried: string[] = [];
    const spy = aliases.map((alias) => Object.assign(Object.create(alias), { match: (url: string) => (tried.push(alias.fullPath), alias.match(url)) }));
    resolveIndexed(buildAliasIndex(spy), "/v1/spaces/abc", "GET");
    expect(tried).toEqual(["/v1/spaces/:spaceId/content/page/:pageId", "/v1/:anything/special", "/v1/spaces/:spaceId"]);
  });
});
