import type { ActionCaller } from "@docshelf/contracts/action";
import type { SpaceGitRedirects } from "@docshelf/contracts/git-sync";
import { gitRedirectsOf, gitSourcePath, isGitRedirectId } from "./git-redirects";
import { matchRedirect, redirectStatus } from "./redirects";

function callerAnswering(answers: SpaceGitRedirects[] | Error): ActionCaller & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    async call<TResult, TParams>(name: string, params: TParams): Promise<TResult> {
      asked.push({ name, params });
      if (answers instanceof Error) throw answers;
      return answers as unknown as TResult;
    },
  };
}

const quiet = { warn: () => undefined };
const everyPage = async () => new Set(["p1", "p9"]);

describe("Git redirects as site redirects", () => {
  it("puts a .gitbook.yaml key under the site space's path, escaped, with no wildcard", () => {
    expect(gitSourcePath("", "old/setup")).toBe("/old/setup");
    expect(gitSourcePath("/api/v2", "/old/")).toBe("/api/v2/old");
    expect(gitSourcePath("", "a b/c%20d")).toBe("/a%20b/c%20d");
    expect(gitSourcePath("", "all/*")).toBe("/all/%2A");
    expect(gitSourcePath("", "/")).toBeNull();
    expect(gitSourcePath("", "x".repeat(600))).toBeNull();
  });

  it("answers the site's own organization's spaces only, the first site space keeping a source; 301 when served", async () => {
    const caller = callerAnswering([
      { spaceId: "s1", organizationId: "org-a", updatedAt: "2026-01-01T00:00:00.000Z", redirects: [{ source: "old", file: "new.md", pageId: "p1" }] },
      { spaceId: "s2", organizationId: "org-b", updatedAt: "2026-01-01T00:00:00.000Z", redirects: [{ source: "theirs", file: "x.md", pageId: "p9" }] },
    ]);
    const views = [
      { doc: { id: "ss1" }, spaceId: "s1", revisionId: "r1", base: "/sites/docs" },
      { doc: { id: "ss2" }, spaceId: "s1", revisionId: "r1", base: "/sites/docs/v2" },
      { doc: { id: "ss3" }, spaceId: "s2", revisionId: "r2", base: "/sites/docs/other" },
    ];
    const found = await gitRedirectsOf(caller, { id: "site", organizationId: "org-a" }, views, "/sites/docs", everyPage, quiet);
    expect(caller.asked).toEqual([{ name: "git-sync.spaceRedirects", params: { spaceIds: ["s1", "s2"] } }]);
    expect(found.map((r) => [r.source, r.destination])).toEqual([
      ["/old", { kind: "site-page", siteSpaceId: "ss1", pageId: "p1" }],
      ["/v2/old", { kind: "site-page", siteSpaceId: "ss2", pageId: "p1" }],
    ]);
    expect(found.every((r) => isGitRedirectId(r.id) && r.permanent && !r.draft && r.origin?.file === "new.md")).toBe(true);
    expect(matchRedirect(found, "/v2/old")?.redirect.destination).toMatchObject({ siteSpaceId: "ss2" });
    expect(redirectStatus(found[0], true)).toBe(301);
  });

  it("leaves out redirects to pages the site space's revision no longer has", async () => {
    const caller = callerAnswering([{ spaceId: "s1", organizationId: "org-a", updatedAt: "2026-01-01T00:00:00.000Z", redirects: [{ source: "a", file: "a.md", pageId: "p1" }, { source: "b", file: "b.md", pageId: "gone" }] }]);
    const found = await gitRedirectsOf(caller, { id: "site", organizationId: "org-a" }, [{ doc: { id: "ss1" }, spaceId: "s1", revisionId: "r1", base: "" }], "", everyPage, quiet);
    expect(found.map((r) => r.source)).toEqual(["/a"]);
  });

  it("has none when git-sync does not answer", async () => {
    const warn = jest.fn();
    expect(await gitRedirectsOf(callerAnswering(new Error("down")), { id: "site", organizationId: "org-a" }, [{ doc: { id: "ss1" }, spaceId: "s1", revisionId: "r1", base: "" }], "", everyPage, { warn })).toEqual([]);
    expect(warn).toHaveBeenCalled();
  });
});
