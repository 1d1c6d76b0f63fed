// Who may read a site: share keys and visitor tokens, and the cookies that keep them.
import { SignJWT } from "jose";
import type { SiteDoc } from "../models";
import { decideAccess, parseCookies, SHARE_COOKIE, VISITOR_COOKIE, type AccessDeps } from "./access";

const KEY = "site-signing-key-0123456789abcdef";
const site = (visibility: SiteDoc["visibility"]) => ({ id: "site1", visibility }) as SiteDoc;
const deps: AccessDeps = {
  shareKeyResolves: async (_siteId, key) => key === "good-key",
  signingKey: async () => KEY,
};
const scope = { path: "/sites/docs", secure: true };
const token = (claims: Record<string, unknown>, exp = Math.floor(Date.now() / 1000) + 600, audience = "site1") =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setAudience(audience).setExpirationTime(exp).sign(new TextEncoder().encode(KEY));

test("parseCookies reads name=value pairs, decoded, first one wins", () => {
  expect(parseCookies("a=1; b=x%20y; a=2; bad; c=\"q\"")).toEqual({ a: "1", b: "x y", c: "q" });
  expect(parseCookies(undefined)).toEqual({});
});

test("public and unlisted sites are open to everyone", async () => {
  for (const visibility of ["public", "unlisted"] as const) {
    expect(await decideAccess(site(visibility), { query: {}, cookies: {} }, deps, scope)).toEqual({ allowed: true, claims: {}, setCookies: [], personal: false });
  }
});

test("share-link: a good key from the query sets the cookie; from the cookie it is checked again; a bad one clears it", async () => {
  const first = await decideAccess(site("share-link"), { query: { share: "good-key" }, cookies: {} }, deps, scope);
  expect(first).toMatchObject({ allowed: true, personal: true });
  expect(first.setCookies).toEqual([`${SHARE_COOKIE}=good-key; Path=/sites/docs; HttpOnly; SameSite=Lax; Secure`]);
  expect(await decideAccess(site("share-link"), { query: {}, cookies: { [SHARE_COOKIE]: "good-key" } }, deps, scope)).toMatchObject({ allowed: true, setCookies: [] });
  const stale = await decideAccess(site("share-link"), { query: {}, cookies: { [SHARE_COOKIE]: "old-key" } }, deps, scope);
  expect(stale).toMatchObject({ allowed: false, status: 404 });
  expect(stale.setCookies[0]).toContain("Max-Age=0");
  expect(await decideAccess(site("share-link"), { query: {}, cookies: {} }, deps, scope)).toMatchObject({ allowed: false, status: 404, setCookies: [] });
});

test("visitor-auth: a valid HS256 token for the site opens it with its claims; it is kept until it expires", async () => {
  const decision = await decideAccess(site("visitor-auth"), { query: { jwt_token: await token({ beta: true, sub: "u1" }) }, cookies: {} }, deps, scope);
  expect(decision).toMatchObject({ allowed: true, claims: { beta: true }, personal: true });
  expect(decision.setCookies[0]).toMatch(new RegExp(`^${VISITOR_COOKIE}=.+; Path=/sites/docs; HttpOnly; SameSite=Lax; Max-Age=(599|600); Secure$`));
});

test.each([
  ["another audience", () => token({}, undefined, "site2")],
  ["an expired token", () => token({}, Math.floor(Date.now() / 1000) - 5)],
  ["a token without exp", () => new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setAudience("site1").sign(new TextEncoder().encode(KEY))],
  ["another key", () => new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setAudience("site1").setExpirationTime("10m").sign(new TextEncoder().encode("other"))],
  ["HS512", () => new SignJWT({}).setProtectedHeader({ alg: "HS512" }).setAudience("site1").setExpirationTime("10m").sign(new TextEncoder().encode(KEY))],
  ["not a JWT", async () => "not-a-jwt"],
])("visitor-auth: %s is refused with 401", async (_name, make) => {
  const decision = await decideAccess(site("visitor-auth"), { query: { jwt_token: await make() }, cookies: {} }, deps, scope);
  expect(decision).toMatchObject({ allowed: false, status: 401 });
});
