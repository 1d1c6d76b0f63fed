// A site's social accounts (GitBook's `socialAccounts` of SiteCustomizationSettings, @gitbook/api-latest), through
// HTTP in every process mode: PUT stores them (a missing `display` takes GitBook's defaults), GET, PUT and the
// published profile answer them, valid against both the pinned GitBook schema (0.143.2, which predates the field and
// allows members it does not list) and the newest one (which requires it); bad input is a 400 naming the field;
// 401, 403 for a member below create, 404 for another organization. The published pages draw each account as an
// icon link in the header and/or the footer as its `display` asks, named for screen readers, opening off-site safely.
// The app's site page edits them too (its Look form: one account a line).
import { expectComponent, expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { parse } from "node-html-parser";
import { Browser, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";
import { newSite, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { html, publishedSite, rawGet, type PublishedSite } from "./sites-serve-fixtures";

const ACCOUNTS = [
  { platform: "github", handle: "acme-docs", display: { header: true, footer: true } },
  { platform: "twitter", handle: "acme", display: { header: false, footer: true } },
  { platform: "mastodon", handle: "acme@fosstodon.org", display: { header: true, footer: false } },
  // No display: GitBook's defaults (footer only).
  { platform: "linkedin", handle: "company/acme" },
];

describe.each(MODES)("a site's social accounts over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  const url = (siteId: string) => `${w.sites}/${siteId}/customization`;

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w);
  });

  afterAll(async () => {
    await sys?.stop();
  });

  test("a new site answers no social accounts, valid for the pinned and the newest GitBook schema", async () => {
    const site = await newSite(w);
    const res = await w.reader.api.get(url(site.id));
    expect(res.status).toBe(200);
    expect(res.body.socialAccounts).toEqual([]);
    expectSchema("getSiteCustomizationById", 200, res.body);
  });

  test("PUT stores them (display defaulted); GET, PUT and the published profile answer them; the pages draw them where asked", async () => {
    const put = await w.creator.api.put(url(docs.site.id), { title: "Acme Docs", socialAccounts: ACCOUNTS });
    expect(put.status).toBe(200);
    expectSchema("updateSiteCustomizationById", 200, put.body);
    const stored = [...ACCOUNTS.slice(0, 3), { platform: "linkedin", handle: "company/acme", display: { footer: true, header: false } }];
    expect(put.body.socialAccounts).toEqual(stored);
    const got = await w.reader.api.get(url(docs.site.id));
    expect(got.status).toBe(200);
    expectSchema("getSiteCustomizationById", 200, got.body);
    expect(got.body).toEqual(put.body);
    // As the newest document's SiteSocialAccounts (the pinned one predates the field).
    expectComponent("SiteSocialAccounts", got.body.socialAccounts);
    const profile = await w.reader.api.get(`${w.sites}/${docs.site.id}/published`);
    expect(profile.status).toBe(200);
    expectSchema("getPublishedContentSite", 200, profile.body);
    expect(profile.body.customizations.site.socialAccounts).toEqual(stored);

    const page = await rawGet(sys.url, docs.base);
    expect(page.status).toBe(200);
    const doc = html(page);
    const links = (selector: string) =>
      doc.querySelectorAll(`${selector} a.social-link`).map((a) => ({ href: a.getAttribute("href"), label: a.getAttribute("aria-label"), rel: a.getAttribute("rel") }));
    expect(links(".site-header .social-header")).toEqual([
      { href: "https://github.com/acme-docs", label: "GitHub: acme-docs", rel: "me noopener noreferrer" },
      { href: "https://fosstodon.org/@acme", label: "Mastodon: acme@fosstodon.org", rel: "me noopener noreferrer" },
    ]);
    expect(links("footer .social-footer")).toEqual([
      { href: "https://github.com/acme-docs", label: "GitHub: acme-docs", rel: "me noopener noreferrer" },
      { href: "https://x.com/acme", label: "X (Twitter): acme", rel: "me noopener noreferrer" },
      { href: "https://www.linkedin.com/company/acme", label: "LinkedIn: company/acme", rel: "me noopener noreferrer" },
    ]);
    // Each link draws its platform's icon inline (no request), hidden from screen readers; the link has the name.
    for (const a of doc.querySelectorAll("a.social-link")) {
      const svg = a.querySelector("svg");
      expect(svg?.getAttribute("aria-hidden")).toBe("true");
      expect(svg?.querySelector("path")?.getAttribute("d")).toMatch(/^M/);
      expect(a.hasAttribute("target")).toBe(false);
    }
    expect(doc.querySelector(".social-header")?.getAttribute("aria-label")).toBe("Social accounts");
    // External links set to open in a new tab: the social links too.
    expect((await w.owner.api.put(url(docs.site.id), { socialAccounts: ACCOUNTS, externalLinks: { target: "blank" } })).status).toBe(200);
    const blank = html(await rawGet(sys.url, docs.base));
    expect(blank.querySelectorAll("a.social-link").map((a) => a.getAttribute("target"))).toEqual(["_blank", "_blank", "_blank", "_blank", "_blank"]);

    // Taken away again: the pages draw none.
    const cleared = await w.owner.api.put(url(docs.site.id), { socialAccounts: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.socialAccounts).toEqual([]);
    expect(html(await rawGet(sys.url, docs.base)).querySelectorAll(".social-links")).toHaveLength(0);
  });

  test("ten accounts are the most; every platform of GitBook's enum is taken and drawn", async () => {
    const site = await publishedSite(sys, w);
    const platforms = ["twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube", "tiktok", "reddit", "bluesky", "mastodon", "threads", "medium"];
    const handleOf = (p: string) => (p === "mastodon" ? "acme@mastodon.social" : p === "bluesky" ? "acme.bsky.social" : "acme");
    for (const batch of [platforms.slice(0, 10), platforms.slice(10)]) {
      const res = await w.owner.api.put(url(site.site.id), { socialAccounts: batch.map((platform) => ({ platform, handle: handleOf(platform), display: { header: false, footer: true } })) });
      expect(res.status).toBe(200);
      expect(res.body.socialAccounts.map((a: { platform: string }) => a.platform)).toEqual(batch);
      const doc = html(await rawGet(sys.url, site.base));
      expect(doc.querySelectorAll("footer a.social-link").map((a) => a.getAttribute("class"))).toEqual(batch.map((p) => `social-link social-${p}`));
      expect(doc.querySelectorAll("footer a.social-link").every((a) => /^https:\/\/[a-z0-9.-]+\//.test(`${a.getAttribute("href")}/`))).toBe(true);
    }
  });

  const account = (over: Record<string, unknown>) => ({ platform: "github", handle: "acme", display: { header: false, footer: true }, ...over });
  test.each([
    ["an unknown platform", "socialAccounts[0].platform", { socialAccounts: [account({ platform: "myspace" })] }],
    ["a handle with @", "socialAccounts[0].handle", { socialAccounts: [account({ handle: "@acme" })] }],
    ["an empty handle", "socialAccounts[0].handle", { socialAccounts: [account({ handle: "" })] }],
    ["a handle of 129 characters", "socialAccounts[0].handle", { socialAccounts: [account({ handle: "a".repeat(129) })] }],
    ["a handle that is a path", "socialAccounts[0].handle", { socialAccounts: [account({ handle: "../evil" })] }],
    ["a handle with markup", "socialAccounts[0].handle", { socialAccounts: [account({ handle: 'a"><script>' })] }],
    ["a Mastodon handle without its instance", "socialAccounts[0].handle", { socialAccounts: [account({ platform: "mastodon", handle: "acme" })] }],
    ["eleven accounts", "socialAccounts", { socialAccounts: Array.from({ length: 11 }, () => account({})) }],
    ["not an array", "socialAccounts", { socialAccounts: { platform: "github" } }],
    ["an entry that is not an object", "socialAccounts[0]", { socialAccounts: ["github"] }],
    ["a display that is not a boolean", "socialAccounts[1].display.header", { socialAccounts: [account({}), account({ display: { header: "yes" } })] }],
    ["an unknown member", "socialAccounts[0].url", { socialAccounts: [account({ url: "https://evil.example" })] }],
  ])("PUT with %s is 400 naming %s", async (_name, field, body) => {
    const site = await newSite(w);
    const res = await w.owner.api.put(url(site.id), body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(`'${field}'`);
    // Nothing was stored.
    expect((await w.owner.api.get(url(site.id))).body.socialAccounts).toEqual([]);
  });

  test("without a token 401; a member below create 403; another organization 404", async () => {
    const site = await newSite(w);
    const body = { socialAccounts: [account({})] };
    const anonymous = await w.owner.api.as(undefined).put(url(site.id), body);
    expect(anonymous.status).toBe(401);
    expectErrorBody(401, anonymous.body);
    expect((await w.editor.api.put(url(site.id), body)).status).toBe(403);
    expect((await w.reader.api.put(url(site.id), body)).status).toBe(403);
    expect((await w.outsider.api.put(url(site.id), body)).status).toBe(404);
    expect((await w.outsider.api.get(url(site.id))).status).toBe(404);
    const otherOrg = (await w.owner.api.post("/v1/orgs", { title: "Other org" })).body.id;
    expect((await w.owner.api.put(`/v1/orgs/${otherOrg}/sites/${site.id}/customization`, body)).status).toBe(404);
    expect((await w.owner.api.get(url(site.id))).body.socialAccounts).toEqual([]);
  });
  test("the app's site page edits them: one a line, shown back in the form, drawn on the site; a bad line is a 400 naming the field; a reader may not", async () => {
    const site = await publishedSite(sys, w);
    const owner = new Browser(sys.url);
    expect((await signIn(owner, w.owner.token)).status).toBe(303);
    const sitePage = `/o/${w.orgId}/sites/${site.site.id}`;
    const look = { intent: "customization", logo: "", favicon: "", primaryColor: "#346DDB", theme: "light", toggle: "on" };
    const saved = await owner.submit(sitePage, sitePage, { ...look, social: "github acme-app header footer\nbluesky acme.bsky.social" });
    expect(saved.status).toBe(303);
    expect((await w.owner.api.get(url(site.site.id))).body.socialAccounts).toEqual([
      { platform: "github", handle: "acme-app", display: { header: true, footer: true } },
      { platform: "bluesky", handle: "acme.bsky.social", display: { header: false, footer: true } },
    ]);
    expect(parse((await owner.get(sitePage)).text).querySelector("textarea#site-social")?.text).toBe("github acme-app header footer\nbluesky acme.bsky.social footer");
    const doc = html(await rawGet(sys.url, site.base));
    expect(doc.querySelectorAll(".social-header a").map((a) => a.getAttribute("href"))).toEqual(["https://github.com/acme-app"]);
    expect(doc.querySelectorAll(".social-footer a").map((a) => a.getAttribute("href"))).toEqual(["https://github.com/acme-app", "https://bsky.app/profile/acme.bsky.social"]);

    const badLine = await owner.submit(sitePage, sitePage, { ...look, social: "github" });
    expect(badLine.status).toBe(400);
    expect(badLine.text).toContain("&#39;social&#39;");
    const badPlatform = await owner.submit(sitePage, sitePage, { ...look, social: "myspace acme" });
    expect(badPlatform.status).toBe(400);
    expect(badPlatform.text).toContain("socialAccounts[0].platform");
    const reader = new Browser(sys.url);
    expect((await signIn(reader, w.reader.token)).status).toBe(303);
    // With the CSRF token of the page the reader sees: the role, not the token, refuses it.
    const refused = await reader.submit(sitePage, sitePage, { ...look, social: "github evil" });
    expect([403, 404]).toContain(refused.status);
    expect((await w.owner.api.get(url(site.site.id))).body.socialAccounts).toHaveLength(2);
  });
});

