import { cleanDirectory, isUnsafeComponent, symlinkStaysInside, unsafePathReason } from "./paths";

describe("unsafe tree entries", () => {
  it.each([".git", ".GIT", ".Git", ".git.", ".git ", "git~1", "GIT~1", ".g\u200cit", "..", "."])("refuses the component %p", (name) => {
    expect(isUnsafeComponent(name)).toBe(true);
  });

  it.each([".gitbook", ".gitignore", "git", "docs", "README.md", ".github"])("accepts the component %p", (name) => {
    expect(isUnsafeComponent(name)).toBe(false);
  });

  it("names the unsafe component of a path", () => {
    expect(unsafePathReason("docs/../../etc/passwd")).toMatch(/"\.\."/);
    expect(unsafePathReason("docs/.GIT/config")).toMatch(/\.GIT/);
    expect(unsafePathReason("/etc/passwd")).toBe("is absolute");
    expect(unsafePathReason("docs/guide/install.md")).toBeNull();
  });

  it("keeps symlinks that stay in the tree and refuses those that leave it", () => {
    expect(symlinkStaysInside("docs/a.md", "b.md")).toBe(true);
    expect(symlinkStaysInside("docs/a.md", "../README.md")).toBe(true);
    expect(symlinkStaysInside("docs/a.md", "../../etc/passwd")).toBe(false);
    expect(symlinkStaysInside("a.md", "/etc/passwd")).toBe(false);
    expect(symlinkStaysInside("a.md", ".git/config")).toBe(false);
  });

  it("cleans project directories and refuses ones that escape", () => {
    expect(cleanDirectory(undefined)).toBe("");
    expect(cleanDirectory("/packages/docs/")).toBe("packages/docs");
    expect(cleanDirectory("./docs")).toBe("docs");
    expect(cleanDirectory("../outside")).toBeNull();
    expect(cleanDirectory("docs/.git")).toBeNull();
  });
});
