// The app's shell through the HTTP gateway in both process modes: dark mode (the stylesheet follows the system,
// the account page's choice is a cookie the server writes into every page's <html>), the small script every
// signed-in page loads (its CSP, its file), the jump list (`/app/jump`, a page without script and JSON for the
// Ctrl/Cmd-K dialog) and the @ suggestions of comment boxes (`/s/{space}/~/mentions`): CSRF, 400s naming the
// field, signed out sent to sign in, another organization's space a 404, a guest refused the member list.
import type { RunningSystem } from "@docshelf/testkit";
import { addMember, createSpace, createUser } from "@docshelf/testkit";
import { Browser, XSS_TITLE, appWorld, csrfOf, signIn, signedIn, type AppWorld } from "./app-fixtures";
import { MODES, start } from "./modes";

const APP_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; script-src 'self'; connect-src 'self'";
const SHELL = /<script src="(\/app\/assets\/shell-[A-Z0-9]{8,}\.js)" defer><\/script>/;

describe.each(MODES)("the app's shell over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let alice: Browser;
  let readerBrowser: Browser;
  let bob: Browser;
  let readerId: string;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    const signed = await signedIn(sys, w);
    ({ alice, readerBrowser, bob } = signed);
    readerId = signed.reader.id;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  describe("dark mode", () => {
    test("the stylesheet is light by default, dark when the system asks (unless the page fixes light) or when the page fixes dark", async () => {
      const css = await alice.get("/app/style.css");
      expect(css.status).toBe(200);
      expect(css.text).toContain("@media (prefers-color-scheme: dark){:root:not([data-theme=light]):not(:has(#editor-app)){--text:#e6edf3;--bg:#0d1117");
      expect(css.text).toContain(":root[data-theme=dark]:not(:has(#editor-app)){--text:#e6edf3;--bg:#0d1117");
      expect(css.text).toMatch(/^\s*:root\{--text:#1d2330;--bg:#fff;/);
    });

    test("without a choice a page follows the system; the account page offers the three choices, the system's ticked", async () => {
      const page = await alice.get("/app/account");
      expect(page.status).toBe(200);
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain('<meta name="color-scheme" content="light dark">');
      const section = /<section id="appearance">([\s\S]*?)<\/section>/.exec(page.text)?.[1] ?? "";
      expect(section).toContain('<input type="hidden" name="intent" value="theme">');
      expect(section).toContain('<input type="radio" id="theme-system" name="theme" value="system" checked>');
      expect(section).toContain('<input type="radio" id="theme-light" name="theme" value="light">');
      expect(section).toContain('<input type="radio" id="theme-dark" name="theme" value="dark">');
    });

    test("choosing dark sets a year-long cookie; every page then comes dark from the server, and the choice goes back to the system's", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      const chosen = await browser.submit("/app/account", "/app/account", { intent: "theme", theme: "dark" });
      expect(chosen.status).toBe(303);
      expect(chosen.location).toBe("/app/account#appearance");
      const cookie = chosen.headers.getSetCookie().find((c) => c.startsWith("docshelf_theme="));
      expect(cookie).toBe("docshelf_theme=dark; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000");
      for (const path of ["/app", "/app/account", `/s/${w.spaceId}`, "/app/notifications", "/s/nothing-here"]) {
        const page = await browser.get(path);
        expect(page.text).toContain('<html lang="en" data-theme="dark">');
        expect(page.text).toContain('<meta name="color-scheme" content="dark">');
      }
      expect((await browser.get("/app/account")).text).toContain('<input type="radio" id="theme-dark" name="theme" value="dark" checked>');
      // The sign-in page follows the browser's choice too (the cookie outlives a session).
      const signInPage = await new Browser(sys.url).request("GET", "/app/sign-in");
      expect(signInPage.text).toContain('<html lang="en">');
      browser.cookies.delete("docshelf_session");
      expect((await browser.get("/app/sign-in")).text).toContain('<html lang="en" data-theme="dark">');
      await signIn(browser, w.alice.token);

      const light = await browser.submit("/app/account", "/app/account", { intent: "theme", theme: "light" });
      expect(light.headers.getSetCookie()).toContain("docshelf_theme=light; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000");
      expect((await browser.get("/app")).text).toContain('<html lang="en" data-theme="light">');

      const system = await browser.submit("/app/account", "/app/account", { intent: "theme", theme: "system" });
      expect(system.status).toBe(303);
      expect(system.headers.getSetCookie()).toContain("docshelf_theme=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
      const back = await browser.get("/app");
      expect(back.text).toContain('<html lang="en">');
      expect(back.text).toContain('<meta name="color-scheme" content="light dark">');
    });

    test("another theme, or none, is a 400 naming 'theme'; no cookie is set", async () => {
      for (const fields of [{ intent: "theme", theme: "purple" }, { intent: "theme" }, { intent: "theme", theme: "DARK" }] as Array<Record<string, string>>) {
        const res = await alice.submit("/app/account", "/app/account", fields);
        expect(res.status).toBe(400);
        expect(res.text).toContain("&#39;theme&#39;");
        expect(res.headers.getSetCookie().filter((c) => c.startsWith("docshelf_theme="))).toEqual([]);
      }
    });

    test("the form needs its CSRF token and a session: 403 without either, no cookie; signed out, the page sends to sign-in", async () => {
      const noToken = await alice.post("/app/account", { intent: "theme", theme: "dark" });
      expect(noToken.status).toBe(403);
      expect(noToken.headers.getSetCookie().filter((c) => c.startsWith("docshelf_theme="))).toEqual([]);
      const page = await alice.get("/app/account");
      const otherSession = await bob.post("/app/account", { _csrf: csrfOf(page.text), intent: "theme", theme: "dark" });
      expect(otherSession.status).toBe(403);
      const stranger = new Browser(sys.url);
      const signedOut = await stranger.post("/app/account", { _csrf: csrfOf(page.text), intent: "theme", theme: "dark" });
      expect(signedOut.status).toBe(403);
      expect(signedOut.headers.getSetCookie().filter((c) => c.startsWith("docshelf_theme="))).toEqual([]);
      const open = await stranger.get("/app/account");
      expect(open.status).toBe(303);
      expect(open.location).toBe("/app/sign-in?return=%2Fapp%2Faccount");
    });

    test("a cookie that is not a theme changes nothing (and is never written into the page)", async () => {
      const browser = new Browser(sys.url);
      await signIn(browser, w.alice.token);
      for (const value of ['"><script>alert(1)</script>', "system", "Dark", "x".repeat(300)]) {
        browser.cookies.set("docshelf_theme", encodeURIComponent(value));
        const page = await browser.get("/app");
        expect(page.status).toBe(200);
        expect(page.text).toContain('<html lang="en">');
        expect(page.text).not.toContain("alert(1)");
      }
    });
  });

  describe("the pages' script", () => {
    test("a signed-in page loads the one small script, with the app's CSP; the sign-in page loads none; the script is served immutable", async () => {
      const page = await alice.get(`/s/${w.spaceId}`);
      expect(page.headers.get("content-security-policy")).toBe(APP_CSP);
      const scripts = page.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts).toHaveLength(1);
      const src = SHELL.exec(page.text)?.[1];
      expect(src).toBeDefined();
      // No inline script or handler anywhere.
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)|<[^>]*\son[a-z]+=/i);
      const signInPage = await new Browser(sys.url).get("/app/sign-in");
      expect(signInPage.text).not.toMatch(/<script/i);
      const file = await fetch(sys.url + src!);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await file.text()).length).toBeLessThan(20_000);
    });

    test("the header links the jump page (the dialog's place without script)", async () => {
      const page = await alice.get("/app");
      expect(page.text).toContain('<a href="/app/jump" id="jump-link" aria-keyshortcuts="Control+K Meta+K">Jump to…</a>');
    });
  });

  describe("jump to a space or page", () => {
    test("JSON: the viewer's spaces, and with `space` that space's pages, linked in the app", async () => {
      const res = await alice.get(`/app/jump?format=json&space=${w.spaceId}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const body = JSON.parse(res.text) as { spaces: Array<Record<string, string>>; pages: Array<Record<string, string>> };
      expect(body.spaces).toContainEqual({ kind: "space", title: "Handbook", where: "Alice's org", url: `/s/${w.spaceId}` });
      expect(body.pages).toContainEqual({ kind: "page", title: "Welcome", where: "Handbook", url: `/s/${w.spaceId}/welcome` });
      expect(body.pages.map((p) => p.title)).toContain(XSS_TITLE);
      // Without `space`, no pages.
      expect(JSON.parse((await alice.get("/app/jump?format=json")).text).pages).toEqual([]);
    });

    test("another organization's user sees none of it: their own spaces only, and the space's pages are a 404", async () => {
      const bobSpace = await createSpace(w.bob.api, w.bobOrgId, { title: "Bob's notes" });
      const mine = JSON.parse((await bob.get("/app/jump?format=json")).text) as { spaces: Array<{ title: string; url: string }> };
      expect(mine.spaces).toContainEqual(expect.objectContaining({ title: "Bob's notes", url: `/s/${bobSpace.id}` }));
      expect(mine.spaces.map((s) => s.title)).not.toContain("Handbook");
      const theirs = await bob.get(`/app/jump?format=json&space=${w.spaceId}`);
      expect(theirs.status).toBe(404);
      expect(theirs.text).not.toContain("Welcome");
      const html = await bob.get(`/app/jump?q=welcome&space=${w.spaceId}`);
      expect(html.status).toBe(404);
      expect(html.text).not.toContain("Welcome");
    });

    test("without script: a search form listing the matches, titles escaped; a malformed space is a 400 naming it", async () => {
      const page = await alice.get(`/app/jump?q=welc&space=${w.spaceId}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<input type="search" id="jump-q" name="q" value="welc"');
      expect(page.text).toContain(`<li><a href="/s/${w.spaceId}/welcome">Welcome</a> <span class="meta">page · Handbook</span></li>`);
      expect(page.text).toContain("1 match");
      const tricky = await alice.get(`/app/jump?q=tricky&space=${w.spaceId}`);
      expect(tricky.text).toContain("&lt;img src=x onerror=&quot;alert(&#39;title&#39;)&quot;&gt;Tricky");
      expect(tricky.text).not.toMatch(/<img[^>]*onerror/i);
      const spaces = await alice.get("/app/jump");
      expect(spaces.text).toContain(`<a href="/s/${w.spaceId}">Handbook</a>`);
      for (const bad of ["../x", "a b", "x".repeat(65)]) {
        const res = await alice.get(`/app/jump?space=${encodeURIComponent(bad)}`);
        expect(res.status).toBe(400);
        expect(res.text).toContain("&#39;space&#39;");
        const asJson = await alice.get(`/app/jump?format=json&space=${encodeURIComponent(bad)}`);
        expect(asJson.status).toBe(400);
        expect(JSON.parse(asJson.text).error).toContain("'space'");
      }
    });

    test("signed out: sent to sign in, nothing listed", async () => {
      const res = await new Browser(sys.url).get("/app/jump?format=json");
      expect(res.status).toBe(303);
      expect(res.location).toBe("/app/sign-in?return=%2Fapp%2Fjump%3Fformat%3Djson");
      expect(res.text).toBe("");
    });
  });

  describe("@ suggestions", () => {
    const mentions = (q = "") => `/s/${w.spaceId}/~/mentions${q ? `?q=${encodeURIComponent(q)}` : ""}`;
    const namesOf = (text: string) => (JSON.parse(text) as { items: Array<{ id: string; name: string }> }).items.map((i) => i.name);

    test("the comment boxes ask for suggestions of their space", async () => {
      const page = await alice.get(`/s/${w.spaceId}/welcome`);
      expect(page.text).toContain(`<textarea id="comment" name="markdown" required maxlength="65536" class="short" data-mentions="/s/${w.spaceId}/~/mentions"></textarea>`);
    });

    test("members of the space's organization who can read it, matching what is typed, never the asker or another organization's users", async () => {
      const all = await alice.get(mentions());
      expect(all.status).toBe(200);
      expect(all.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(JSON.parse(all.text).items).toContainEqual({ id: readerId, name: "Reader" });
      expect(namesOf(all.text)).not.toContain("Alice");
      expect(namesOf(all.text)).not.toContain("Bob");
      expect(namesOf((await alice.get(mentions("rea"))).text)).toEqual(["Reader"]);
      expect(namesOf((await alice.get(mentions("bob"))).text)).toEqual([]);
      // A reader asks too (and is not suggested to themselves).
      const asReader = await readerBrowser.get(mentions());
      expect(asReader.status).toBe(200);
      expect(namesOf(asReader.text)).toContain("Alice");
      expect(namesOf(asReader.text)).not.toContain("Reader");
    });

    test("a guest of the organization without access to the space is not suggested; a guest may not list members", async () => {
      const guest = await createUser(sys.admin, { displayName: "Guestly" });
      await addMember(w.alice.api, w.orgId, guest.email, null);
      expect(namesOf((await alice.get(mentions("guest"))).text)).toEqual([]);
      const guestBrowser = new Browser(sys.url);
      await signIn(guestBrowser, guest.token);
      const refused = await guestBrowser.get(mentions());
      expect(refused.status).toBe(404);
      expect(refused.text).not.toContain("Reader");
    });

    test("another organization's user: 404 (JSON), nothing listed; signed out: sent to sign in; a long query: 400 naming 'q'", async () => {
      const theirs = await bob.get(mentions());
      expect(theirs.status).toBe(404);
      expect(JSON.parse(theirs.text)).toEqual({ error: "There is nothing here, or you cannot see it." });
      const signedOut = await new Browser(sys.url).get(mentions("rea"));
      expect(signedOut.status).toBe(303);
      expect(signedOut.location).toMatch(/^\/app\/sign-in\?return=/);
      expect(signedOut.text).toBe("");
      const long = await alice.get(mentions("x".repeat(65)));
      expect(long.status).toBe(400);
      expect(JSON.parse(long.text).error).toContain("'q'");
      const missing = await alice.get("/s/no-such-space/~/mentions");
      expect(missing.status).toBe(404);
      // Odd queries are just text: never a 5xx.
      for (const q of ["$where", "{\"$gt\":\"\"}", ".*", "🙂", "<script>"]) expect((await alice.get(mentions(q))).status).toBe(200);
    });
  });
});
