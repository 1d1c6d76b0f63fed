import { editOnGitLink, emojiFaviconSvg, faviconEmoji, lastUpdated, safeImageUrl, themedImage } from "./page-meta";

const PUBLIC = "http://docs.local:8080/base";

describe("page chrome from the customization and the revision", () => {
  test("images: https anywhere, or the instance's own files; nothing else", () => {
    expect(safeImageUrl("https://cdn.example.com/logo.png", PUBLIC)).toBe("https://cdn.example.com/logo.png");
    expect(safeImageUrl("http://docs.local:8080/base/v1/files/abc?sig=1", PUBLIC)).toBe("http://docs.local:8080/base/v1/files/abc?sig=1");
    for (const bad of ["http://cdn.example.com/logo.png", "http://docs.local:8080/base/v1/spaces/x", "http://docs.local:9999/base/v1/files/abc", "javascript:alert(1)", "data:image/png;base64,AAAA", "/v1/files/abc", "https://u:p@cdn.example.com/x.png", 'https://x.example/"onerror=1', "https://x.example/a b", 42, undefined]) {
      expect(safeImageUrl(bad, PUBLIC)).toBeUndefined();
    }
    expect(themedImage({ light: "https://a.example/l.png" }, PUBLIC)).toEqual({ light: "https://a.example/l.png", dark: "https://a.example/l.png" });
    expect(themedImage({ light: "javascript:x", dark: "https://a.example/d.png" }, PUBLIC)).toEqual({ light: "https://a.example/d.png", dark: "https://a.example/d.png" });
    expect(themedImage({ light: "http://a.example/l.png" }, PUBLIC)).toBeUndefined();
  });

  test("favicon emoji: code points or the character; the SVG escapes it", () => {
    expect(faviconEmoji("1f680")).toBe("🚀");
    expect(faviconEmoji("1f468-200d-1f4bb")).toBe("👨‍💻");
    expect(faviconEmoji("📚")).toBe("📚");
    for (const bad of ["41", "d800", "110000", "<script>", "a📚", "", 5, "📚".repeat(9)]) expect(faviconEmoji(bad)).toBeNull();
    expect(emojiFaviconSvg("🚀")).toContain(">🚀</text>");
    expect(emojiFaviconSvg("<&>")).not.toContain("<&>");
  });

  test("last updated: the ISO date and the date in the locale, in UTC", () => {
    expect(lastUpdated("2026-03-04T23:30:00.000Z", "en")).toEqual({ iso: "2026-03-04T23:30:00.000Z", text: "Mar 4, 2026" });
    expect(lastUpdated("2026-03-04T23:30:00.000Z", "fr")?.text).toBe("4 mars 2026");
    expect(lastUpdated("not a date", "en")).toBeUndefined();
    expect(lastUpdated(undefined, "en")).toBeUndefined();
  });

  test("edit on GitHub or GitLab: the file on the imported branch; nothing for other hosts or http", () => {
    expect(editOnGitLink({ url: "https://github.com/acme/docs", provider: "github" }, "refs/heads/main", "guide/README.md")).toEqual({ label: "Edit on GitHub", href: "https://github.com/acme/docs/edit/main/guide/README.md" });
    expect(editOnGitLink({ url: "https://github.com/acme/docs/tree/v2/docs" }, "refs/heads/release/2", "docs/a b.md")?.href).toBe("https://github.com/acme/docs/edit/release/2/docs/a%20b.md");
    expect(editOnGitLink({ url: "https://gitlab.example.com/group/sub/docs.git", provider: "gitlab" }, undefined, "x.md")).toEqual({ label: "Edit on GitLab", href: "https://gitlab.example.com/group/sub/docs/-/edit/HEAD/x.md" });
    expect(editOnGitLink({ url: "https://git.example.com/acme/docs" }, "refs/heads/main", "x.md")).toBeUndefined();
    expect(editOnGitLink({ url: "http://github.com/acme/docs" }, "refs/heads/main", "x.md")).toBeUndefined();
    expect(editOnGitLink({ url: "https://github.com/acme" }, "refs/heads/main", "x.md")).toBeUndefined();
    expect(editOnGitLink({ url: "https://github.com/acme/docs" }, "refs/heads/main", undefined)).toBeUndefined();
    expect(editOnGitLink({ url: "https://github.com/acme/docs" }, "refs/heads/main", "../x.md")).toBeUndefined();
    expect(editOnGitLink(undefined, "refs/heads/main", "x.md")).toBeUndefined();
  });
});
