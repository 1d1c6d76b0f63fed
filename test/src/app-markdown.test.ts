// The app renders pages with the published sites' renderer (@docshelf/document's renderMarkdown); this
// proves it does so on the app's own pages: every case of the XSS corpus, saved as a page, opens in the
// app with an article that holds no script, handler, style or dangerous URL.
import { parse, type HTMLElement } from "node-html-parser";
import { XSS_CORPUS } from "@docshelf/document/dist/xss-corpus";
import { createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { addPages } from "./sites-serve-fixtures";
import { MODES, start } from "./modes";
import { Browser, pathOf, signIn } from "./app-fixtures";

jest.setTimeout(120_000);

const DANGEROUS_URL = /^(javascript|vbscript|data|file):/i;
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "xlink:href", "data", "srcdoc", "background", "poster", "cite"];
const FORBIDDEN_ELEMENTS = ["script", "style", "iframe", "object", "embed", "svg", "math", "base", "meta", "form", "input", "button", "template", "link", "noscript"];

function expectHarmless(article: HTMLElement): void {
  for (const tag of FORBIDDEN_ELEMENTS) expect(article.querySelectorAll(tag)).toHaveLength(0);
  for (const el of article.querySelectorAll("*")) {
    for (const [name, value] of Object.entries(el.attributes)) {
      const lower = name.toLowerCase();
      expect(lower.startsWith("on")).toBe(false);
      expect(lower).not.toBe("style");
      if (URL_ATTRIBUTES.includes(lower)) expect(value.replace(/[\s\u0000-\u001f]+/g, "")).not.toMatch(DANGEROUS_URL);
    }
  }
}

describe("the app renders the XSS corpus inert", () => {
  let sys: RunningSystem;
  let alice: TestUser;
  let browser: Browser;
  let pageUrls: Map<string, string>;

  beforeAll(async () => {
    sys = await start(MODES[0]);
    alice = await createUser(sys.admin, { displayName: "Alice" });
    const org = await createOrg(alice.api, "XSS org");
    const space = await createSpace(alice.api, org.id, { title: "XSS" });
    await addPages(sys, space.id, XSS_CORPUS.map((c, i) => ({ title: `Case ${i}`, markdown: c.markdown })));
    const pages = await alice.api.get(`/v1/spaces/${space.id}/content`);
    expect(pages.status).toBe(200);
    pageUrls = new Map((pages.body.pages as Array<{ title: string; urls: { app: string } }>).map((p) => [p.title, p.urls.app]));
    browser = new Browser(sys.url);
    await signIn(browser, alice.token);
  });

  afterAll(async () => {
    await sys?.stop();
  });

  test.each(XSS_CORPUS.map((c, i) => [c.name, i] as const))("%s", async (_name, i) => {
    const res = await browser.get(pathOf(pageUrls.get(`Case ${i}`)!));
    expect(res.status).toBe(200);
    const article = parse(res.text).querySelector("article");
    expect(article).not.toBeNull();
    expectHarmless(article!);
  });
});
