import { fetchTarget, isCandidatePage, pageKey, publicUrl, resolveHref } from "./urls";

const base = new URL("http://site.test/docs/page");

describe("pageKey", () => {
  it("treats fragment, query and index.html variants as one page", () => {
    const keys = ["http://site.test/a", "http://site.test/a#x", "http://site.test/a?ref=nav", "http://u:p@site.test/a"].map((u) => pageKey(new URL(u)));
    expect(new Set(keys).size).toBe(1);
    expect(pageKey(new URL("http://site.test/docs/index.html"))).toBe(pageKey(new URL("http://site.test/docs/")));
  });
});

describe("resolveHref", () => {
  it("resolves relative links and refuses non-http schemes", () => {
    expect(resolveHref("../other", base)?.href).toBe("http://site.test/other");
    expect(resolveHref("mailto:a@b.test", base)).toBeUndefined();
    expect(resolveHref("javascript:void(0)", base)).toBeUndefined();
    expect(resolveHref("http://[bad", base)).toBeUndefined();
  });
});

describe("isCandidatePage", () => {
  it("accepts same-origin pages and refuses other origins and asset files", () => {
    expect(isCandidatePage(new URL("http://site.test/guide"), base.origin)).toBe(true);
    expect(isCandidatePage(new URL("https://site.test/guide"), base.origin)).toBe(false);
    expect(isCandidatePage(new URL("http://site.test:8080/guide"), base.origin)).toBe(false);
    expect(isCandidatePage(new URL("http://other.test/guide"), base.origin)).toBe(false);
    expect(isCandidatePage(new URL("http://site.test/logo.PNG"), base.origin)).toBe(false);
    expect(isCandidatePage(new URL("http://site.test/manual.pdf"), base.origin)).toBe(false);
  });
});

describe("fetchTarget and publicUrl", () => {
  it("carries the start URL's credentials on its origin only, and never shows them", () => {
    const start = new URL("http://ada:pw@site.test/");
    expect(fetchTarget(new URL("http://site.test/a#frag"), start)).toBe("http://ada:pw@site.test/a");
    expect(fetchTarget(new URL("http://other.test/a"), start)).toBe("http://other.test/a");
    expect(publicUrl(new URL("http://ada:pw@site.test/a?x=1#f"))).toBe("http://site.test/a?x=1");
  });
});
