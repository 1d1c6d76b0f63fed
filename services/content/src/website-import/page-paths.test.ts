import { PathAllocator, relativePagePath, slugPath } from "./page-paths";

describe("slugPath", () => {
  it.each([
    ["https://x.test/", "index"],
    ["https://x.test/index.html", "index"],
    ["https://x.test/docs/", "docs"],
    ["https://x.test/docs/index.htm", "docs"],
    ["https://x.test/Docs/Getting_Started.html", "docs/getting-started"],
    ["https://x.test/api/v2.1/auth.php", "api/v2-1/auth"],
    ["https://x.test/caf%C3%A9/r%C3%A9sum%C3%A9", "cafe/resume"],
    ["https://x.test/a//b/", "a/b"],
    ["https://x.test/%E0%A4%A/x", "e0-a4-a/x"],
  ])("derives %s → %s", (url, path) => {
    expect(slugPath(new URL(url))).toBe(path);
  });
});

describe("PathAllocator", () => {
  it("numbers repeated paths so every page path is unique", () => {
    const paths = new PathAllocator();
    expect(["guide", "guide", "guide", "other"].map((p) => paths.allocate(p))).toEqual(["guide", "guide-2", "guide-3", "other"]);
  });
});

describe("relativePagePath", () => {
  it.each([
    ["index", "guide", "guide"],
    ["guide", "api/reference", "api/reference"],
    ["api/reference", "index", "../index"],
    ["guides/a", "api/b", "../api/b"],
    ["guides/a", "guides/b", "b"],
    ["guides/a/deep", "guides/b", "../b"],
    ["docs", "docs/intro", "docs/intro"],
    ["docs/intro", "docs", "../docs"],
  ])("links %s → %s as %s", (from, to, link) => {
    expect(relativePagePath(from, to)).toBe(link);
  });
});
