// Published sites served as web pages, through HTTP, in every process mode: paths, navigation,
// visibility, visitor tokens, variables, customization, search, sitemap and robots, headers.
import { expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages, cookiesOf, GUIDE_PAGES, header, html, publishedSite, rawGet, setVariables, signToken, unique, type PageSpec, type PublishedSite } from "./sites-serve-fixtures";

describe.each(MODES)("published sites over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  const get = (path: string, headers: Record<string, string> = {}) => rawGet(sys.url, path, headers);

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("pages", () => {
    test("the site's root is its first page, with title and description meta tags, navigation, next link and table of contents", async () => {
      const res = await get(docs.base);
      expect(res.status).toBe(200);
      expect(header(res, "content-type")).toBe("text/html; charset=utf-8");
      const doc = html(res);
      expect(doc.querySelector("title")?.text).toBe("Introduction | Docs site");
      expect(doc.querySelector('meta[name="description"]')?.getAttribute("content")).toBe("What this site is about");
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("index, follow");
      expect(doc.querySelector("article h1")?.text).toBe("Introduction");
      const nav = doc.querySelectorAll("nav.sidebar a").map((a) => [a.text, a.getAttribute("href")]);
      expect(nav).toEqual([
        ["Introduction", docs.base],
        ["Guide", `${docs.base}/guide`],
        ["FAQ", `${docs.base}/faq`],
      ]);
      expect(doc.querySelector('nav.sidebar a[aria-current="page"]')?.text).toBe("Introduction");
      expect(doc.querySelector('a[rel="prev"]')).toBeNull();
      expect(doc.querySelector('a[rel="next"]')?.getAttribute("href")).toBe(`${docs.base}/guide`);
      expect(doc.querySelectorAll("aside.toc a").map((a) => [a.text, a.getAttribute("href")])).toEqual([
        ["Getting started", "#getting-started"],
        ["Install the tool", "#install-the-tool"],
      ]);
      expect(doc.querySelector("h2#getting-started")?.text).toBe("Getting started");
      // A relative link between pages points at the page's URL on the site.
      expect(doc.querySelector("article p a")?.getAttribute("href")).toBe(`${docs.base}/guide`);
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${sys.url}${docs.base}`);
    });

    test("a nested page opens its branch of the navigation and links to its previous and next pages", async () => {
      const guide = html(await get(`${docs.base}/guide`));
      expect(guide.querySelectorAll("nav.sidebar a").map((a) => a.text)).toEqual(["Introduction", "Guide", "Advanced", "FAQ"]);
      expect(guide.querySelector('a[rel="prev"]')?.getAttribute("href")).toBe(docs.base);
      expect(guide.querySelector('a[rel="next"]')?.getAttribute("href")).toBe(`${docs.base}/guide/advanced`);
      const advanced = await get(`${docs.base}/guide/advanced`);
      expect(advanced.status).toBe(200);
      const doc = html(advanced);
      expect(doc.querySelector("article h1")?.text).toBe("Advanced");
      expect(doc.querySelector('a[rel="prev"]')?.getAttribute("href")).toBe(`${docs.base}/guide`);
      // The hidden page is skipped by previous/next and the navigation.
      expect(doc.querySelector('a[rel="next"]')?.getAttribute("href")).toBe(`${docs.base}/faq`);
    });

    test("a hidden page is reachable by its path but left out of the navigation", async () => {
      const res = await get(`${docs.base}/hidden-page`);
      expect(res.status).toBe(200);
      expect(html(res).querySelector("article h1")?.text).toBe("Hidden page");
      expect(html(res).querySelectorAll("nav.sidebar a").map((a) => a.text)).not.toContain("Hidden page");
    });

    test("a page that does not exist is a 404 page", async () => {
      const res = await get(`${docs.base}/nope/not-here`);
      expect(res.status).toBe(404);
      expect(header(res, "content-type")).toBe("text/html; charset=utf-8");
      const doc = html(res);
      expect(doc.querySelector("h1")?.text).toBe("Page not found");
      // The site's own 404: its header and a search form that opens the search page, a link home, not indexed.
      expect(doc.querySelector(".site-title span")?.text).toBe("Docs site");
      expect(doc.querySelector("main form.search-page-form")?.getAttribute("action")).toBe(`${docs.base}/~search`);
      expect(doc.querySelector("main a")?.getAttribute("href")).toBe(docs.base);
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, nofollow");
      expect(header(res, "cache-control")).toBe("no-store");
      // A path in no site space of the site too.
      expect(html(await get(`${docs.base}/nope`)).querySelector("main form.search-page-form")).not.toBeNull();
    });

    test("a site of 3,200 pages (its tree read from content as a stream) keeps its sidebar and sitemap files small", async () => {
      // 30 top-level pages with 98 children each, then 230 more top-level pages: 260 at the top level.
      const pages: PageSpec[] = [];
      const title = (i: number) => `Page ${i} with a reasonably long title to make the tree heavy`;
      for (let i = 0; i < 2970; i++) {
        const page = { title: title(i), description: "d".repeat(100), markdown: `Body ${i}` };
        pages.push(i < 30 ? { id: `top${i}`, ...page } : { parent: `top${i % 30}`, ...page });
      }
      for (let i = 2970; i < 3200; i++) pages.push({ title: title(i), markdown: `Body ${i}` });
      const large = await publishedSite(sys, w, { pages: [] });
      for (let at = 0; at < pages.length; at += 1000) await addPages(sys, large.spaceId, pages.slice(at, at + 1000));
      const tree = (await w.owner.api.get(`/v1/spaces/${large.spaceId}/content`)).body;
      expect(JSON.stringify(tree).length).toBeGreaterThan(600 * 1024);
      const child = tree.pages[7].pages[5];
      const res = await get(`${large.base}/${child.path}`);
      expect(res.status).toBe(200);
      const doc = html(res);
      expect(doc.querySelector("article h1")?.text).toBe(child.title);
      expect(doc.querySelector('a[rel="prev"]')?.getAttribute("href")).toBe(`${large.base}/${tree.pages[7].pages[4].path}`);
      // The sidebar: a window of 200 top-level pages, a link standing for the 60 others, the open branch.
      const top = doc.querySelectorAll("nav.sidebar > ul > li");
      expect(top).toHaveLength(201);
      expect(top[200].classList.contains("more")).toBe(true);
      expect(top[200].querySelector("a")?.text).toBe("… 60 more pages");
      expect(top[200].querySelector("a")?.getAttribute("href")).toBe(`${large.base}/${tree.pages[200].path}`);
      expect(top[7].querySelectorAll("li").length).toBe(tree.pages[7].pages.length);
      // The sitemap is an index of files of 2,000 URLs.
      const index = await get(`${large.base}/sitemap.xml`);
      expect([...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([`${sys.url}${large.base}/sitemap-1.xml`, `${sys.url}${large.base}/sitemap-2.xml`]);
      expect([...(await get(`${large.base}/sitemap-1.xml`)).text.matchAll(/<loc>/g)]).toHaveLength(2000);
      expect([...(await get(`${large.base}/sitemap-2.xml`)).text.matchAll(/<loc>/g)]).toHaveLength(1200);
      expect((await get(`${large.base}/sitemap-3.xml`)).status).toBe(404);
      expect((await get(`${docs.base}/sitemap-1.xml`)).status).toBe(404);
    }, 120_000);

    test("sections and their site spaces answer at their paths", async () => {
      const site = await newSite(w, { title: "Sectioned" });
      const first = await newSection(w, site.id, "Product docs");
      const second = await newSection(w, site.id, "API reference");
      const [firstSpace, secondSpace] = [first.siteSpaces[0].space.id, second.siteSpaces[0].space.id];
      await addPages(sys, firstSpace, [{ title: "Product home", markdown: "Product." }]);
      await addPages(sys, secondSpace, [{ title: "API home", markdown: "API." }, { title: "Endpoints", markdown: "Endpoints." }]);
      const variantSpace = await newSpace(w, "Version two");
      await addPages(sys, variantSpace, [{ title: "V2 home", markdown: "Two." }, { title: "Changes", markdown: "New." }]);
      const variant = await w.owner.api.post(`${w.sites}/${site.id}/site-spaces`, { spaceId: variantSpace, sectionId: second.id });
      expect(variant.status).toBe(201);
      await w.owner.api.post(`${w.sites}/${site.id}/publish`);
      const base = `/sites/${site.id}`;

      const root = html(await get(base));
      expect(root.querySelector("article h1")?.text).toBe("Product home");
      expect(root.querySelectorAll("nav.sections a").map((a) => [a.text, a.getAttribute("href")])).toEqual([
        ["Product docs", base],
        ["API reference", `${base}/${second.path}`],
      ]);
      const api = html(await get(`${base}/${second.path}`));
      expect(api.querySelector("article h1")?.text).toBe("API home");
      expect(api.querySelector('nav.sections a[aria-current="page"]')?.text).toBe("API reference");
      expect(api.querySelectorAll("nav.variants a").map((a) => a.getAttribute("href"))).toEqual([`${base}/${second.path}`, `${base}/${second.path}/${variant.body.path}`]);
      expect(html(await get(`${base}/${second.path}/endpoints`)).querySelector("article h1")?.text).toBe("Endpoints");
      const v2 = html(await get(`${base}/${second.path}/${variant.body.path}/changes`));
      expect(v2.querySelector("article h1")?.text).toBe("Changes");
      expect(v2.querySelector('nav.variants a[aria-current="page"]')?.text).toBe("Version two");
    });
  });

  describe("addresses", () => {
    test("an unpublished, unpublished-again, deleted or unknown site is a 404 page", async () => {
      const site = await newSite(w, { spaces: [await newSpace(w)] });
      expect((await get(`/sites/${site.id}`)).status).toBe(404);
      await w.owner.api.post(`${w.sites}/${site.id}/publish`);
      expect((await get(`/sites/${site.id}`)).status).toBe(200);
      await w.owner.api.post(`${w.sites}/${site.id}/unpublish`);
      expect((await get(`/sites/${site.id}`)).status).toBe(404);
      await w.owner.api.post(`${w.sites}/${site.id}/publish`);
      await w.owner.api.delete(`${w.sites}/${site.id}`);
      const gone = await get(`/sites/${site.id}`);
      expect(gone.status).toBe(404);
      expect(html(gone).querySelector("h1")?.text).toBe("Page not found");
      expect((await get("/sites/no-such-site")).status).toBe(404);
      expect((await get("/sites")).status).toBe(404);
    });

    test("a site is named by its id until it has a basename; then the id redirects to the basename's URL", async () => {
      const site = await newSite(w, { spaces: [await newSpace(w)] });
      await w.owner.api.post(`${w.sites}/${site.id}/publish`);
      expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body.urls.published).toBe(`${sys.url}/sites/${site.id}`);
      const basename = unique("named");
      await w.owner.api.patch(`${w.sites}/${site.id}`, { basename });
      expect((await w.owner.api.get(`${w.sites}/${site.id}`)).body.urls.published).toBe(`${sys.url}/sites/${basename}`);
      expect((await get(`/sites/${basename}`)).status).toBe(200);
      const moved = await get(`/sites/${site.id}/some/page?x=1`);
      expect(moved.status).toBe(301);
      expect(header(moved, "location")).toBe(`/sites/${basename}/some/page?x=1`);
      // Two sites cannot share a basename.
      const other = await newSite(w);
      const taken = await w.owner.api.patch(`${w.sites}/${other.id}`, { basename });
      expect(taken.status).toBe(409);
      expect(taken.body.error.message).toContain("basename");
    });

    test("a site with a hostname answers on that Host at every path but the API's; other hosts still reach the API", async () => {
      const hostname = `${unique("docs")}.example.test`;
      expect((await w.owner.api.patch(`${w.sites}/${docs.site.id}`, { hostname })).status).toBe(200);
      const root = await get("/", { Host: hostname });
      expect(root.status).toBe(200);
      const doc = html(root);
      expect(doc.querySelector("article h1")?.text).toBe("Introduction");
      expect(doc.querySelector('a[rel="next"]')?.getAttribute("href")).toBe("/guide");
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`https://${hostname}/`);
      expect(html(await get("/guide/advanced", { Host: `${hostname}:443` })).querySelector("article h1")?.text).toBe("Advanced");
      // Except the instance's own paths: /v1 (and /health, /ready, /metrics) stay the API's on any Host.
      const own = await get("/v1/user", { Host: hostname });
      expect(own.status).toBe(401);
      expectErrorBody(401, JSON.parse(own.text));
      // A hostname no site has is the API as usual.
      const api = await get("/v1/user", { Host: `${unique("other")}.example.test` });
      expect(api.status).toBe(401);
      expectErrorBody(401, JSON.parse(api.text));
      expect((await w.owner.api.patch(`${w.sites}/${docs.site.id}`, { hostname: null })).status).toBe(200);
      // The site left that host: its `/` is the server's own front page now, not the site.
      const after = html(await get("/", { Host: hostname }));
      expect(after.querySelector("article h1")).toBeNull();
      expect(after.querySelector("h1")?.text).toBe("docshelf");
    });

    test.each([
      "/sites/{b}/../../v1/user",
      "/sites/{b}/%2e%2e/%2e%2e/v1/user",
      "/sites/{b}/guide%2f..%2f..%2fsecret",
      "/sites/{b}/%00",
      "/sites/{b}/%E0%A4%A",
      "/sites/{b}/..%5c..%5cetc%5cpasswd",
      "/sites/{b}/~unknown",
      "/sites/{b}/guide/advanced/deeper/and/deeper",
      `/sites/{b}/${"a".repeat(3000)}`,
      "/sites/%ff%fe",
    ])("%s is a 404 page, never an error", async (path) => {
      const res = await get(path.replace("{b}", docs.basename));
      expect(res.status).toBe(404);
      expect(header(res, "content-type")).toBe("text/html; charset=utf-8");
    });

    test("a path or host the site cannot take (over 8 KB, a 600-character host) is a 400 page, not a server error", async () => {
      const long = await get(`${docs.base}/${"a/".repeat(4500)}`);
      expect(long.status).toBe(400);
      expect(header(long, "content-type")).toBe("text/html; charset=utf-8");
      const host = `${"a".repeat(60)}.`.repeat(10) + "example.test";
      const res = await get("/", { Host: host });
      expect(res.status).toBe(400);
    });
  });

  describe("visibility", () => {
    test("a public site is indexable: robots allow, sitemap lists every visible page", async () => {
      const page = await get(docs.base);
      expect(header(page, "x-robots-tag")).toBe("");
      const robots = await get(`${docs.base}/robots.txt`);
      expect(robots.status).toBe(200);
      expect(robots.text).toContain("Allow: /");
      expect(robots.text).toContain(`Sitemap: ${sys.url}${docs.base}/sitemap.xml`);
      const sitemap = await get(`${docs.base}/sitemap.xml`);
      expect(sitemap.status).toBe(200);
      expect(header(sitemap, "content-type")).toBe("application/xml; charset=utf-8");
      const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
      expect(locs).toEqual([`${sys.url}${docs.base}`, `${sys.url}${docs.base}/guide`, `${sys.url}${docs.base}/guide/advanced`, `${sys.url}${docs.base}/faq`]);
    });

    test("an unlisted site is served but never indexed: noindex, robots disallow, no sitemap", async () => {
      const unlisted = await publishedSite(sys, w, { visibility: "unlisted" });
      const page = await get(unlisted.base);
      expect(page.status).toBe(200);
      expect(header(page, "x-robots-tag")).toBe("noindex");
      expect(html(page).querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, nofollow");
      expect(header(page, "cache-control")).toBe("public, max-age=60");
      expect((await get(`${unlisted.base}/robots.txt`)).text).toBe("User-agent: *\nDisallow: /\n");
      expect((await get(`${unlisted.base}/sitemap.xml`)).status).toBe(404);
    });

    test("a share-link site is refused without a key, opened with one, kept open by its cookie, and closed when the link is deactivated", async () => {
      const shared = await publishedSite(sys, w, { visibility: "share-link" });
      const link = (await w.owner.api.post(`${w.sites}/${shared.site.id}/share-links`, { name: "Partners" })).body;
      const key = new URL(link.urls.published).searchParams.get("share")!;
      expect(link.urls.published).toBe(`${sys.url}${shared.base}?share=${encodeURIComponent(key)}`);

      const refused = await get(shared.base);
      expect(refused.status).toBe(404);
      expect(refused.text).not.toContain("Introduction");
      expect((await get(`${shared.base}/guide?share=wrong-key`)).status).toBe(404);
      expect((await get(`${shared.base}/robots.txt`)).text).toContain("Disallow: /");

      const opened = await get(`${shared.base}?share=${encodeURIComponent(key)}`);
      expect(opened.status).toBe(200);
      expect(html(opened).querySelector("article h1")?.text).toBe("Introduction");
      expect(header(opened, "cache-control")).toBe("private, no-store");
      const setCookie = header(opened, "set-cookie");
      expect(setCookie).toContain("HttpOnly");
      expect(setCookie).toContain("SameSite=Lax");
      expect(setCookie).toContain(`Path=${shared.base}`);
      const cookie = cookiesOf(opened);

      const next = await get(`${shared.base}/guide`, { Cookie: cookie });
      expect(next.status).toBe(200);
      expect(html(next).querySelector("article h1")?.text).toBe("Guide");

      expect((await w.owner.api.patch(`${w.sites}/${shared.site.id}/share-links/${link.id}`, { active: false })).status).toBe(200);
      const closed = await get(`${shared.base}/guide`, { Cookie: cookie });
      expect(closed.status).toBe(404);
      expect(header(closed, "set-cookie")).toContain("Max-Age=0");
      expect((await get(`${shared.base}?share=${encodeURIComponent(key)}`)).status).toBe(404);
    });

    describe("visitor-auth", () => {
      let site: PublishedSite;
      let key: string;
      let betaSection: { id: string; path: string };
      const now = () => Math.floor(Date.now() / 1000);

      beforeAll(async () => {
        // Two sections: the handbook, and one only beta visitors see.
        const created = await newSite(w, { visibility: "visitor-auth", title: "Docs site" });
        const handbook = await newSection(w, created.id, "Handbook");
        await addPages(sys, handbook.siteSpaces[0].space.id, GUIDE_PAGES);
        const section = await newSection(w, created.id, "Beta features");
        await addPages(sys, section.siteSpaces[0].space.id, [{ title: "Beta home", markdown: "Only for beta." }]);
        const patched = await w.owner.api.patch(`${w.sites}/${created.id}/sections/${section.id}`, { condition: "visitor.claims.beta === true" });
        expect(patched.status).toBe(200);
        betaSection = section;
        const basename = unique("private");
        await w.owner.api.patch(`${w.sites}/${created.id}`, { basename });
        await w.owner.api.post(`${w.sites}/${created.id}/publish`);
        site = { site: created, spaceId: handbook.siteSpaces[0].space.id, basename, base: `/sites/${basename}` };
        const auth = await w.owner.api.get(`${w.sites}/${site.site.id}/publishing/auth`);
        expect(auth.status).toBe(200);
        expect(auth.body).toMatchObject({ object: "publishing-auth", backend: "custom" });
        expectSchema("getSitePublishingAuthById", 200, auth.body);
        key = auth.body.privateKey;
      });

      test("the signing key is readable by create and admin only", async () => {
        expect((await w.creator.api.get(`${w.sites}/${site.site.id}/publishing/auth`)).status).toBe(200);
        expect((await w.reader.api.get(`${w.sites}/${site.site.id}/publishing/auth`)).status).toBe(403);
        expect((await w.outsider.api.get(`${w.sites}/${site.site.id}/publishing/auth`)).status).toBe(404);
        const anonymous = await w.owner.api.as(undefined).get(`${w.sites}/${site.site.id}/publishing/auth`);
        expect(anonymous.status).toBe(401);
        expectErrorBody(401, anonymous.body);
      });

      test.each([
        ["no token", () => ""],
        ["a bad signature", () => signToken("not-the-key", { aud: site.site.id, exp: now() + 600 })],
        ["alg none", () => signToken(key, { aud: site.site.id, exp: now() + 600 }, "none")],
        ["another algorithm", () => signToken(key, { aud: site.site.id, exp: now() + 600 }, "HS512")],
        ["the wrong audience", () => signToken(key, { aud: "another-site", exp: now() + 600 })],
        ["no audience", () => signToken(key, { exp: now() + 600 })],
        ["an expired token", () => signToken(key, { aud: site.site.id, exp: now() - 60 })],
        ["no exp", () => signToken(key, { aud: site.site.id })],
        ["garbage", () => "a.b.c"],
      ])("%s gets the 401 page", async (_name, token) => {
        const t = token();
        const res = await get(`${site.base}${t ? `?jwt_token=${encodeURIComponent(t)}` : ""}`);
        expect(res.status).toBe(401);
        expect(html(res).querySelector("h1")?.text).toBe("Sign in to read this site");
        expect(res.text).not.toContain("Introduction");
        expect(header(res, "cache-control")).toBe("no-store");
      });

      test("a valid token opens the site, is kept in a cookie, and its claims decide which sections show", async () => {
        const plain = signToken(key, { aud: site.site.id, exp: now() + 600, sub: "visitor-1" });
        const opened = await get(`${site.base}?jwt_token=${plain}`);
        expect(opened.status).toBe(200);
        expect(header(opened, "cache-control")).toBe("private, no-store");
        expect(header(opened, "set-cookie")).toContain("HttpOnly");
        expect(html(opened).querySelectorAll("nav.sections a").length).toBe(0);
        expect((await get(`${site.base}/${betaSection.path}`, { Cookie: cookiesOf(opened) })).status).toBe(404);
        const guide = await get(`${site.base}/guide`, { Cookie: cookiesOf(opened) });
        expect(guide.status).toBe(200);

        const beta = signToken(key, { aud: site.site.id, exp: now() + 600, beta: true });
        const betaPage = await get(`${site.base}?jwt_token=${beta}`);
        expect(html(betaPage).querySelectorAll("nav.sections a").map((a) => a.text)).toEqual(["Handbook", "Beta features"]);
        const inBeta = await get(`${site.base}/${betaSection.path}`, { Cookie: cookiesOf(betaPage) });
        expect(inBeta.status).toBe(200);
        expect(html(inBeta).querySelector("article h1")?.text).toBe("Beta home");
      });

      test("an expired token in the cookie is refused and the cookie cleared", async () => {
        const expired = signToken(key, { aud: site.site.id, exp: now() - 1 });
        const res = await get(`${site.base}/guide`, { Cookie: `docshelf_visitor=${expired}` });
        expect(res.status).toBe(401);
        expect(header(res, "set-cookie")).toContain("Max-Age=0");
      });
    });
  });

  describe("content", () => {
    test("space and page variables are substituted, HTML-escaped; unknown ones stay as written", async () => {
      const site = await publishedSite(sys, w, {
        pages: [{ title: "Vars", markdown: "Version {{ space.vars.version }}, tag {{ vars.tag }}, missing {{ space.vars.nope }}." }],
      });
      await setVariables(sys, site.spaceId, { version: "2.1", tag: "<b>beta</b>" });
      const res = await get(site.base);
      const text = html(res).querySelector("article p")?.innerHTML;
      expect(text).toBe("Version 2.1, tag &lt;b&gt;beta&lt;/b&gt;, missing {{ space.vars.nope }}.");
    });

    test("an image of a file of the revision points at the file's download URL, which serves it without a token", async () => {
      const site = await publishedSite(sys, w, { pages: [{ title: "Pictures", markdown: "![Logo](.gitbook/assets/logo%20mark.png) ![remote](https://cdn.example.com/x.png)" }] });
      const bytes = Buffer.from("\x89PNG fake image bytes");
      const res = await sys.admin.post(`/v1/_test/spaces/${site.spaceId}/changes`, {
        changes: [{ type: "insert_file", name: "logo mark.png", contentType: "image/png", data: bytes.toString("base64") }],
      });
      expect(res.status).toBe(201);
      const images = html(await get(site.base)).querySelectorAll("article img").map((img) => img.getAttribute("src") ?? "");
      expect(images[0]).toMatch(new RegExp(`^${sys.url}/v1/files/`));
      expect(images[1]).toBe("https://cdn.example.com/x.png");
      const file = await rawGet(sys.url, new URL(images[0]).pathname);
      expect(file.status).toBe(200);
      expect(header(file, "content-type")).toContain("image/png");
    });

    test("script, event handlers and javascript: links in markdown never reach the page", async () => {
      const site = await publishedSite(sys, w, {
        pages: [
          {
            title: "Hostile",
            markdown: '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) ![i](javascript:alert(1))\n',
          },
        ],
      });
      const doc = html(await get(site.base));
      // The site's own hashed script (theme, tabs, copy) is the only one; nothing from the markdown.
      expect(doc.querySelectorAll("script").map((el) => el.getAttribute("src"))).toEqual([expect.stringMatching(new RegExp(`^${site.base}/~site\\.[0-9a-f]{16}\\.js$`))]);
      // GitBook's HTML is rendered through the allow-list: the <img> stays, its handler does not; no script URL.
      for (const img of doc.querySelectorAll("article img")) expect(img.getAttribute("src") ?? "").not.toMatch(/^(javascript|data):/i);
      expect(doc.querySelectorAll("article img").map((img) => img.getAttribute("onerror"))).toEqual([undefined]);
      for (const a of doc.querySelectorAll("article a")) expect(a.getAttribute("href") ?? "").not.toMatch(/^(javascript|data):/i);
      for (const el of doc.querySelectorAll("*")) for (const name of Object.keys(el.attributes)) expect(name.toLowerCase().startsWith("on")).toBe(false);
    });

    test("the search page finds the site's pages and links to them, and echoes the query escaped", async () => {
      const found = await get(`${docs.base}/~search?q=zeppelins`);
      expect(found.status).toBe(200);
      const doc = html(found);
      expect(doc.querySelector('input[name="q"]')?.getAttribute("value")).toBe("zeppelins");
      expect(doc.querySelectorAll("ol.search-results > li > a").map((a) => [a.text, a.getAttribute("href")])).toEqual([["Advanced", `${docs.base}/guide/advanced`]]);
      expect(doc.querySelector("form.search")?.getAttribute("action")).toBe(`${docs.base}/~search`);
      const none = await get(`${docs.base}/~search?q=${encodeURIComponent('<script>"x')}`);
      expect(none.status).toBe(200);
      expect(none.text).not.toContain("<script>");
      expect(html(none).querySelector(".no-results")).not.toBeNull();
      // Another site's pages never show up.
      const other = await publishedSite(sys, w, { pages: [{ title: "Elsewhere", markdown: "More zeppelins here." }] });
      const mine = html(await get(`${docs.base}/~search?q=zeppelins`)).querySelectorAll("ol.search-results > li > a").map((a) => a.text);
      expect(mine).toEqual(["Advanced"]);
      expect(html(await get(`${other.base}/~search?q=zeppelins`)).querySelectorAll("ol.search-results > li > a").map((a) => a.text)).toEqual(["Elsewhere"]);
    });
  });

  describe("headers", () => {
    test("pages carry a strict CSP, nosniff, a referrer policy, an ETag and public caching; If-None-Match gets 304", async () => {
      const res = await get(`${docs.base}/guide`);
      expect(header(res, "content-security-policy")).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https:; connect-src 'self'; frame-src https://www.youtube-nocookie.com https://player.vimeo.com https://www.loom.com; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect(header(res, "x-content-type-options")).toBe("nosniff");
      expect(header(res, "referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(header(res, "cache-control")).toBe("public, max-age=60");
      const etag = header(res, "etag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      const again = await get(`${docs.base}/guide`, { "If-None-Match": etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(header(again, "etag")).toBe(etag);
      expect((await get(`${docs.base}/guide`, { "If-None-Match": '"other"' })).status).toBe(200);
      const style = await get(`${docs.base}/~style.css`);
      expect(style.status).toBe(200);
      expect(header(style, "content-type")).toBe("text/css; charset=utf-8");
      // No page carries inline script or handlers: its one script element is the site's hashed file.
      const scripts = res.text.match(/<script[^>]*>/gi) ?? [];
      expect(scripts).toEqual([expect.stringMatching(/^<script src="[^"]+\/~site\.[0-9a-f]{16}\.js">$/)]);
      expect(res.text).not.toMatch(/<script>|\son\w+=/i);
      // That script is served by the site, immutable under its hashed name, and runs as a plain script.
      const script = await get(/src="([^"]+)"/.exec(scripts[0] ?? "")?.[1] ?? "/missing");
      expect(script.status).toBe(200);
      expect(header(script, "content-type")).toBe("text/javascript; charset=utf-8");
      expect(header(script, "cache-control")).toBe("public, max-age=31536000, immutable");
      expect(script.text).toContain("theme-toggle");
      expect(script.text).not.toMatch(/\bexports\b|\brequire\(|sourceMappingURL/);
    });
  });

  describe("customization", () => {
    const settings = () => ({
      title: "Acme Handbook",
      styling: { primaryColor: { light: "#ff5500", dark: "#ff7700" } },
      header: { preset: "default", links: [], logo: { light: "https://cdn.example.com/logo.png", dark: "https://cdn.example.com/logo-dark.png" } },
      announcement: { enabled: true, message: "Version 2 is out", style: "info", link: { title: "Read more", to: { kind: "url", url: "https://example.com/v2" } } },
      footer: { groups: [{ title: "Company", links: [{ title: "About us", to: { kind: "url", url: "https://example.com/about" } }] }], copyright: "© Acme" },
    });

    test("a site starts with the default customization, shaped as GitBook's", async () => {
      const site = await newSite(w);
      const res = await w.reader.api.get(`${w.sites}/${site.id}/customization`);
      expect(res.status).toBe(200);
      expectSchema("getSiteCustomizationById", 200, res.body);
      expect(res.body.styling.primaryColor).toEqual({ light: "#346DDB", dark: "#346DDB" });
    });

    test("PUT stores the customization; it shows in GET, the published profile and the served pages", async () => {
      const site = await publishedSite(sys, w);
      const put = await w.creator.api.put(`${w.sites}/${site.site.id}/customization`, settings());
      expect(put.status).toBe(200);
      expectSchema("updateSiteCustomizationById", 200, put.body);
      expect(put.body).toMatchObject({ title: "Acme Handbook", styling: { primaryColor: { light: "#ff5500" }, theme: "clean" } });
      const got = await w.reader.api.get(`${w.sites}/${site.site.id}/customization`);
      expect(got.body).toEqual(put.body);
      expect((await w.reader.api.get(`${w.sites}/${site.site.id}/published`)).body.customizations.site.title).toBe("Acme Handbook");

      const page = await get(site.base);
      const doc = html(page);
      expect(doc.querySelector("title")?.text).toBe("Introduction | Acme Handbook");
      expect(doc.querySelector(".site-title span")?.text).toBe("Acme Handbook");
      expect(doc.querySelector("img.logo")?.getAttribute("src")).toBe("https://cdn.example.com/logo.png");
      expect(doc.querySelector(".announcement")?.text).toContain("Version 2 is out");
      expect(doc.querySelector(".announcement a")?.getAttribute("href")).toBe("https://example.com/v2");
      expect(doc.querySelectorAll("footer a").map((a) => [a.text, a.getAttribute("href")])).toEqual([["About us", "https://example.com/about"]]);
      expect(doc.querySelector("footer .copyright")?.text).toBe("© Acme");
      const stylesheet = doc.querySelector('link[rel="stylesheet"]')?.getAttribute("href") ?? "";
      expect((await get(stylesheet)).text).toContain("--primary: #ff5500;");
    });

    test("without a token 401; a member below create 403; an outsider 404", async () => {
      const site = await newSite(w);
      const url = `${w.sites}/${site.id}/customization`;
      const anonymous = await w.owner.api.as(undefined).put(url, settings());
      expect(anonymous.status).toBe(401);
      expectErrorBody(401, anonymous.body);
      expect((await w.owner.api.as(undefined).get(url)).status).toBe(401);
      expect((await w.editor.api.put(url, settings())).status).toBe(403);
      expect((await w.reader.api.put(url, settings())).status).toBe(403);
      expect((await w.guest.api.get(url)).status).toBe(403);
      expect((await w.outsider.api.get(url)).status).toBe(404);
      expect((await w.outsider.api.put(url, settings())).status).toBe(404);
      expect((await w.owner.api.get(`${w.sites}/nope00000000000000000/customization`)).status).toBe(404);
      // The site through another organization's path, even one the caller runs, is not there.
      const otherOrg = (await w.owner.api.post("/v1/orgs", { title: "Other org" })).body.id;
      expect((await w.owner.api.get(`/v1/orgs/${otherOrg}/sites/${site.id}/customization`)).status).toBe(404);
      expect((await w.owner.api.put(`/v1/orgs/${otherOrg}/sites/${site.id}/customization`, settings())).status).toBe(404);
    });

    test.each([
      [{ unknown: {} }, "unknown"],
      [{ title: "x" }, "title"],
      [{ title: "t".repeat(129) }, "title"],
      [{ styling: "red" }, "styling"],
      [{ styling: { primaryColor: { light: "red", dark: "#000" } } }, "styling.primaryColor.light"],
      [{ header: { logo: { light: "javascript:alert(1)", dark: "https://x.example/l.png" } } }, "header.logo.light"],
      [{ announcement: { enabled: true, message: "x", style: "info" } }, "announcement.message"],
      [{ announcement: { enabled: true, message: "Hello", style: "loud" } }, "announcement.style"],
      [{ footer: { groups: [{ title: "G", links: [{ title: "L", to: { kind: "url", url: "javascript:alert(1)" } }] }] } }, "footer.groups[0].links[0].to.url"],
      [{ footer: { copyright: "c".repeat(301) } }, "footer.copyright"],
      [{ pdf: { enabled: true, deep: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } } } }, "pdf"],
    ])("PUT %j is 400 naming %s", async (body, field) => {
      const site = await newSite(w);
      const res = await w.owner.api.put(`${w.sites}/${site.id}/customization`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });
  });
});
