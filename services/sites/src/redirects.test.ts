import type { RedirectDoc } from "./models";
import { matchRedirect, redirectStatus, SOURCE_PATTERN, withSuffix } from "./redirects";

const redirect = (id: string, source: string, extra: Partial<RedirectDoc> = {}): RedirectDoc => ({
  id,
  siteId: "s",
  source,
  draft: false,
  captureWildcard: false,
  permanent: false,
  destination: { kind: "external", url: "https://example.com" },
  createdAt: "2026-01-01",
  ...extra,
});

describe("site redirects", () => {
  test("GitBook's source shape", () => {
    for (const ok of ["/a", "/a/b", "/a/*", "/a*", "/caf%C3%A9", "/a.b~c+d"]) expect(SOURCE_PATTERN.test(ok)).toBe(true);
    for (const bad of ["a", "/", "/*", "/a/*/b", "/a b", "/a//b", "/a?x=1"]) expect(SOURCE_PATTERN.test(bad)).toBe(false);
  });

  test("exact beats wildcard, the longest wildcard wins, drafts never match", () => {
    const all = [redirect("1", "/docs/*"), redirect("2", "/docs/api/*"), redirect("3", "/docs/api/v1"), redirect("4", "/old", { draft: true }), redirect("5", "/pre*")];
    expect(matchRedirect(all, "/docs/api/v1")).toMatchObject({ redirect: { id: "3" }, suffix: "" });
    expect(matchRedirect(all, "/docs/api/v2/x")).toMatchObject({ redirect: { id: "2" }, suffix: "v2/x" });
    expect(matchRedirect(all, "/docs")).toMatchObject({ redirect: { id: "1" }, suffix: "" });
    expect(matchRedirect(all, "/docsx")).toBeNull();
    expect(matchRedirect(all, "/prefix")).toMatchObject({ redirect: { id: "5" }, suffix: "fix" });
    expect(matchRedirect(all, "/old")).toBeNull();
    expect(matchRedirect([redirect("6", "/caf%C3%A9")], "/café")).toMatchObject({ redirect: { id: "6" } });
  });

  test("statuses and captured suffixes", () => {
    expect(redirectStatus(redirect("1", "/a", { permanent: true }), true)).toBe(308);
    expect(redirectStatus(redirect("1", "/a", { permanent: true }), false)).toBe(307);
    expect(redirectStatus(redirect("1", "/a"), true)).toBe(307);
    const capturing = redirect("1", "/a/*", { captureWildcard: true });
    expect(withSuffix("https://x.test/new/?q=1", capturing, "b c/d")).toBe("https://x.test/new/b%20c/d?q=1");
    expect(withSuffix("/new", redirect("2", "/a/*"), "b")).toBe("/new");
  });
});
