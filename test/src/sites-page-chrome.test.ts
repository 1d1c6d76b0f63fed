// What a published page shows around its content, from the site's customization and the revision, through
// HTTP in every process mode: header items (links, buttons, menus, conditions), logos per theme (header and footer), the favicon (images per theme, or the
// emoji as the site's own SVG), "Last updated", and "Edit on GitHub" for a page of a Git-synced space when
// the customization asks for it. Images only from https URLs or the instance's own files.
import type { RunningSystem } from "@docshelf/testkit";
import { createRepo, startGitServer, type GitServer } from "./git-sync-server";
import { MODES, start } from "./modes";
import { newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages, header, html, publishedSite, rawGet, unique, type PublishedSite } from "./sites-serve-fixtures";

const REPO = {
  "README.md": "# Home\n\nWelcome.\n",
  "SUMMARY.md": "# Contents\n\n* [Home](README.md)\n* [Install](guide/install.md)\n",
  "guide/install.md": "# Install\n\nRun make.\n",
};

describe.each(MODES)("published page chrome over %s", (mode) => {
  let sys: RunningSystem;
  let server: GitServer;
  let w: SitesWorld;
  let docs: PublishedSite;
  const get = (path: string) => rawGet(sys.url, path);
  const customize = async (siteId: string, body: Record<string, unknown>) => {
    const res = await w.owner.api.put(`${w.sites}/${siteId}/customization`, body);
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    server = await startGitServer({ shared: true });
    sys = await start(mode);
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w);
  });

  afterAll(async () => {
    await sys?.stop();
    await server?.close();
  });

  test("header and footer logos per theme, and favicons per theme", async () => {
    await customize(docs.site.id, {
      header: { preset: "default", links: [], logo: { light: "https://cdn.example.com/logo.png", dark: "https://cdn.example.com/logo-dark.png" } },
      footer: { groups: [], logo: { light: "https://cdn.example.com/foot.png", dark: "https://cdn.example.com/foot.png" }, copyright: "© Acme" },
      favicon: { icon: { light: "https://cdn.example.com/icon.png", dark: "https://cdn.example.com/icon-dark.png" } },
    });
    const doc = html(await get(docs.base));
    expect(doc.querySelectorAll(".site-header img.logo").map((img) => [img.getAttribute("class"), img.getAttribute("src")])).toEqual([
      ["logo logo-light", "https://cdn.example.com/logo.png"],
      ["logo logo-dark", "https://cdn.example.com/logo-dark.png"],
    ]);
    // One URL for both themes: one image, named by the site's title for readers who cannot see it.
    expect(doc.querySelectorAll("footer .footer-logo img").map((img) => [img.getAttribute("src"), img.getAttribute("alt")])).toEqual([["https://cdn.example.com/foot.png", "Docs site"]]);
    expect(doc.querySelector("footer .copyright")?.text).toBe("© Acme");
    expect(doc.querySelectorAll('link[rel="icon"]').map((l) => [l.getAttribute("href"), l.getAttribute("media")])).toEqual([
      ["https://cdn.example.com/icon.png", "(prefers-color-scheme: light)"],
      ["https://cdn.example.com/icon-dark.png", "(prefers-color-scheme: dark)"],
    ]);
    // The stylesheet shows the logo of the theme in use.
    const css = (await get(doc.querySelector('link[rel="stylesheet"]')!.getAttribute("href")!)).text;
    expect(css).toContain(':root[data-theme="dark"] .logo-light { display: none; }');
  });

  test("an emoji favicon is the site's own SVG; images that are not https nor the instance's files are left out", async () => {
    const site = await publishedSite(sys, w);
    await customize(site.site.id, {
      header: { preset: "default", links: [], logo: { light: "http://cdn.example.com/logo.png", dark: "http://cdn.example.com/logo.png" } },
      favicon: { emoji: "1f680" },
    });
    const doc = html(await get(site.base));
    expect(doc.querySelectorAll("img.logo")).toHaveLength(0);
    const href = doc.querySelector('link[rel="icon"]')?.getAttribute("href") ?? "";
    expect(href).toMatch(new RegExp(`^${site.base}/~favicon\\.svg\\?v=[0-9a-f]{12}$`));
    const svg = await get(href);
    expect(svg.status).toBe(200);
    expect(header(svg, "content-type")).toBe("image/svg+xml");
    expect(header(svg, "content-security-policy")).toContain("default-src 'none'");
    expect(svg.text).toContain(">🚀</text>");
    // The instance's own files are images too, over http as well.
    await customize(site.site.id, { header: { preset: "default", links: [], logo: { light: `${sys.url}/v1/files/abc/download`, dark: `${sys.url}/v1/files/abc/download` } }, favicon: { emoji: "not-an-emoji" } });
    const again = html(await get(site.base));
    expect(again.querySelector("img.logo")?.getAttribute("src")).toBe(`${sys.url}/v1/files/abc/download`);
    expect(again.querySelectorAll('link[rel="icon"]')).toHaveLength(0);
    expect((await get(`${site.base}/~favicon.svg`)).status).toBe(404);
  });

  test("header items: links, button styles and menus that open without script; a condition the visitor fails or a link to no web URL is left out", async () => {
    const site = await publishedSite(sys, w);
    await customize(site.site.id, {
      header: {
        preset: "default",
        links: [
          { title: "Blog", to: { kind: "url", url: "https://blog.example.com" }, links: [] },
          { title: "Sign up", style: "button-primary", to: { kind: "url", url: "https://app.example.com/signup" }, links: [] },
          { title: "Resources", to: null, links: [{ title: "Status", to: { kind: "url", url: "https://status.example.com" } }, { title: "A page", to: { kind: "page", page: "abc" } }] },
          { title: "Beta", to: { kind: "url", url: "https://beta.example.com" }, links: [], condition: "visitor.claims.beta === true" },
          { title: "Nowhere", to: { kind: "page", page: "abc" }, links: [] },
          { title: "<b>Odd</b>", to: { kind: "url", url: "https://odd.example.com/?a=1&b=<2>" }, links: [] },
        ],
      },
    });
    const res = await get(site.base);
    const nav = html(res).querySelector('.site-header nav.header-links[aria-label="Site links"]');
    expect(nav).not.toBeNull();
    expect(nav!.querySelectorAll(":scope > ul > li > a").map((a) => [a.text, a.getAttribute("href"), a.getAttribute("class")])).toEqual([
      ["Blog", "https://blog.example.com", "header-link"],
      ["Sign up", "https://app.example.com/signup", "header-link button primary"],
      ["<b>Odd</b>", "https://odd.example.com/?a=1&b=<2>", "header-link"],
    ]);
    expect(res.text).toContain("&lt;b&gt;Odd&lt;/b&gt;");
    const menu = nav!.querySelector("details.header-menu");
    expect(menu?.querySelector("summary")?.text).toBe("Resources");
    expect(menu?.querySelectorAll("a").map((a) => [a.text, a.getAttribute("href")])).toEqual([["Status", "https://status.example.com"]]);
    expect(res.text).not.toContain("beta.example.com");
    expect(res.text).not.toContain("Nowhere");
  });

  test("header, footer and announcement links to a page, an anchor or a space of the site lead to its URL here; a target the site does not show is dropped, never a 5xx", async () => {
    const site = await publishedSite(sys, w);
    const otherSpace = await newSpace(w, "Reference");
    await addPages(sys, otherSpace, [{ id: "calls", title: "Calls", markdown: "Every call.\n" }]);
    expect((await w.owner.api.post(`${w.sites}/${site.site.id}/site-spaces`, { spaceId: otherSpace })).status).toBe(201);
    const unlinked = await newSpace(w, "Not on the site");
    const pagesOf = async (spaceId: string) => (await w.owner.api.get(`/v1/spaces/${spaceId}/content`)).body.pages as Array<{ id: string; title: string; pages?: Array<{ id: string; title: string }> }>;
    const guide = (await pagesOf(site.spaceId)).find((p) => p.title === "Guide")!;
    const advanced = guide.pages!.find((p) => p.title === "Advanced")!;
    await customize(site.site.id, {
      header: {
        preset: "default",
        links: [
          { title: "The guide", to: { kind: "page", page: guide.id, space: site.spaceId }, links: [] },
          { title: "Reference", style: "button-secondary", to: { kind: "space", space: otherSpace }, links: [] },
          { title: "More", to: null, links: [{ title: "Advanced", to: { kind: "anchor", page: advanced.id, anchor: "zeppelins" } }, { title: "Gone page", to: { kind: "page", page: "nosuchpage0000000000" } }] },
          { title: "Unlinked space", to: { kind: "space", space: unlinked }, links: [] },
          { title: "Deleted page", to: { kind: "page", page: "nosuchpage0000000000", space: site.spaceId }, links: [] },
        ],
      },
      footer: { groups: [{ title: "Docs", links: [{ title: "Guide again", to: { kind: "page", page: guide.id } }, { title: "Nothing", to: { kind: "space", space: "nosuchspace000000000" } }] }] },
    });
    for (const path of [site.base, `${site.base}/faq`, `${site.base}/~search?q=guide`, `${site.base}/no-such-page`]) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: path.endsWith("no-such-page") ? 404 : 200 });
      const nav = html(res).querySelector(".site-header nav.header-links")!;
      const links = Object.fromEntries(nav.querySelectorAll("a").map((a) => [a.text, a.getAttribute("href")]));
      expect(links["The guide"]).toBe(`${site.base}/guide`);
      expect(links.Advanced).toBe(`${site.base}/guide/advanced#zeppelins`);
      expect(links.Reference).toMatch(new RegExp(`^${site.base}/[a-z0-9-]+$`));
      expect(Object.keys(links)).not.toEqual(expect.arrayContaining(["Gone page"]));
      for (const dropped of ["Gone page", "Unlinked space", "Deleted page", "Nothing"]) expect(res.text).not.toContain(dropped);
      expect(html(res).querySelectorAll(".site-footer a").map((a) => [a.text, a.getAttribute("href")])).toContainEqual(["Guide again", `${site.base}/guide`]);
      // The space's link leads to its first page.
      const reference = await get(links.Reference!);
      expect(reference.status).toBe(200);
      expect(html(reference).querySelector("article h1")?.text).toBe("Calls");
    }
  });

  test.each([
    [{ header: { links: [{ title: "x".repeat(65), to: null, links: [] }] } }, "header.links[0].title"],
    [{ header: { links: [{ title: "Bad", to: { kind: "url", url: "javascript:alert(1)" }, links: [] }] } }, "header.links[0].to.url"],
    [{ header: { links: [{ title: "Bad", to: null, style: "loud", links: [] }] } }, "header.links[0].style"],
    [{ header: { links: [{ title: "Bad", to: null, links: [{ title: "In", to: { kind: "url", url: "data:text/html,x" } }] }] } }, "header.links[0].links[0].to.url"],
    [{ favicon: { icon: { light: "javascript:alert(1)", dark: "https://x.example/i.png" } } }, "favicon.icon.light"],
    [{ favicon: { emoji: "" } }, "favicon.emoji"],
    [{ footer: { groups: [], logo: { light: "data:image/png;base64,AA", dark: "https://x.example/l.png" } } }, "footer.logo.light"],
  ])("PUT %j is 400 naming %s", async (body, field) => {
    const site = await newSite(w);
    const res = await w.owner.api.put(`${w.sites}/${site.id}/customization`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });

  test("every page says when it was last updated, from the published revision", async () => {
    const tree = await w.owner.api.get(`/v1/spaces/${docs.spaceId}/content`);
    const guide = tree.body.pages.find((p: { path: string }) => p.path === "guide");
    const page = html(await get(`${docs.base}/guide`));
    const time = page.querySelector("article .page-meta .last-updated time");
    expect(time?.getAttribute("datetime")).toBe(new Date(guide.updatedAt).toISOString());
    expect(time?.text).toBe(new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(guide.updatedAt)));
    // Not Git-synced: no edit link, even when asked for.
    await customize(docs.site.id, { git: { showEditLink: true } });
    expect(html(await get(`${docs.base}/guide`)).querySelectorAll(".edit-link")).toHaveLength(0);
  });

  test("a page of a Git-synced space links to its file on GitHub when the site asks for it", async () => {
    const spaceId = await newSpace(w, "Synced");
    const name = `chrome-${mode}-${unique("r")}`;
    createRepo(server, name, REPO);
    const started = await w.owner.api.post(`/v1/spaces/${spaceId}/git/import`, {
      url: server.url(name),
      ref: "refs/heads/main",
      gitInfo: { provider: "github", url: "https://github.com/acme/handbook" },
    });
    expect(started.status).toBe(204);
    const location = new URL(started.headers.get("location")!).pathname;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = await w.owner.api.get(location);
      if (job.body.status === "succeeded") break;
      if (job.body.status !== "pending" && job.body.status !== "running") throw new Error(`import ${job.body.status}`);
      if (Date.now() > deadline) throw new Error("import still running");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const site = await newSite(w, { spaces: [spaceId], title: "Synced site" });
    const basename = unique("synced");
    expect((await w.owner.api.patch(`${w.sites}/${site.id}`, { basename })).status).toBe(200);
    expect((await w.owner.api.post(`${w.sites}/${site.id}/publish`)).status).toBe(200);
    const base = `/sites/${basename}`;

    // The default customization does not ask for it.
    expect(html(await get(`${base}/install`)).querySelectorAll(".edit-link")).toHaveLength(0);
    await customize(site.id, { git: { showEditLink: true } });
    const page = html(await get(`${base}/install`));
    expect(page.querySelector("article h1")?.text).toBe("Install");
    const edit = page.querySelector("article .page-meta a.edit-link");
    expect(edit?.text).toBe("Edit on GitHub");
    expect(edit?.getAttribute("href")).toBe("https://github.com/acme/handbook/edit/main/guide/install.md");
    expect(html(await get(base)).querySelector("a.edit-link")?.getAttribute("href")).toBe("https://github.com/acme/handbook/edit/main/README.md");
    // Git sync removed: the link goes with it.
    expect((await w.owner.api.delete(`/v1/spaces/${spaceId}/git/legacy-installation`)).status).toBe(204);
    expect(html(await get(`${base}/install`)).querySelectorAll(".edit-link")).toHaveLength(0);
  });
});
