// What a new user meets first: the page at `/`, 405 for a wrong method, template errors and templates whose links work.
import { parse } from "node-html-parser";
import { createOrg, createSpace, createUser, expectErrorBody, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, startPrivate } from "./modes";
import { unique } from "./sites-serve-fixtures";

describe.each(MODES)("first screen over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;

  /** A site over one new space with `template` applied, published with `visibility`. */
  async function siteWith(template: string, visibility: string, title = "Site"): Promise<{ spaceId: string; base: string; siteId: string }> {
    const spaceId = (await createSpace(owner.api, orgId, { title })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: template })).status).toBe(201);
    const site = await owner.api.post(`/v1/orgs/${orgId}/sites`, { title, spaces: [spaceId], visibility });
    expect(site.status).toBe(201);
    const basename = unique("s");
    expect((await owner.api.patch(`/v1/orgs/${orgId}/sites/${site.body.id}`, { basename })).status).toBe(200);
    expect((await owner.api.post(`/v1/orgs/${orgId}/sites/${site.body.id}/publish`)).status).toBe(200);
    return { spaceId, base: `/sites/${basename}`, siteId: site.body.id };
  }

  beforeAll(async () => {
    sys = await startPrivate(mode); // its own: the front page lists every public site of the instance
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("GET /", () => {
    test("an HTML page without script: what this is, the API's base URL, the public sites only, no data behind a token", async () => {
      const publicSite = await siteWith("faq", "public", `Public handbook ${unique("p")}`);
      const unlisted = await siteWith("faq", "unlisted", `Unlisted notes ${unique("u")}`);
      const shared = await siteWith("faq", "share-link", `Partner docs ${unique("x")}`);
      // The list is kept for a few seconds: wait until it shows the new public site.
      let res = await fetch(`${sys.url}/`);
      for (let i = 0; i < 150 && !(await res.clone().text()).includes(publicSite.base); i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await fetch(`${sys.url}/`);
      }
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const text = await res.text();
      const doc = parse(text);
      expect(doc.querySelectorAll("script, style, img, form, iframe")).toHaveLength(0);
      expect(text).not.toMatch(/ on[a-z]+=/i);
      expect(doc.querySelector("h1")?.text).toBe("docshelf");
      // The API base is PUBLIC_URL/v1 (the test systems' PUBLIC_URL is their own address).
      expect(doc.querySelector("code")?.text).toBe(`${sys.url}/v1`);
      expect(text).toContain("Walk-through with curl");
      const links = doc.querySelectorAll("li a").map((a) => [a.text, new URL(a.getAttribute("href") ?? "").pathname]);
      expect(links).toContainEqual([expect.stringContaining("Public handbook"), publicSite.base]);
      expect(text).not.toContain(unlisted.base);
      expect(text).not.toContain(shared.base);
      expect(text).not.toContain("Unlisted notes");
      expect(text).not.toContain("Partner docs");
      // Every link on the page works.
      for (const a of doc.querySelectorAll("a")) {
        const href = new URL(a.getAttribute("href") ?? "", `${sys.url}/`);
        const followed = await fetch(`${sys.url}${href.pathname}`);
        expect({ href: href.pathname, status: followed.status }).toEqual({ href: href.pathname, status: 200 });
      }
    });

    test("the same page with or without a token: no organization, space or user data appears", async () => {
      const space = await createSpace(owner.api, orgId, { title: `Secret space ${unique("z")}` });
      const anonymous = await (await fetch(`${sys.url}/`)).text();
      const withToken = await (await fetch(`${sys.url}/`, { headers: { authorization: `Bearer ${sys.adminToken}` } })).text();
      for (const page of [anonymous, withToken]) {
        expect(page).not.toContain(space.body.title);
        expect(page).not.toContain(orgId);
        expect(page).not.toContain(owner.email);
      }
    });
  });

  describe("a method a path does not take", () => {
    test.each([
      ["POST", "/v1/user", "GET"],
      ["DELETE", "/v1/orgs", "GET, POST"],
      ["PUT", "/v1/spaces/abc/content/template", "POST"],
      ["POST", "/", "GET"],
      ["DELETE", "/health", "GET"],
    ])("%s %s is 405 with Allow: %s, in the error body", async (method, path, allow) => {
      const res = await fetch(`${sys.url}${path}`, { method, headers: { authorization: `Bearer ${sys.adminToken}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      const body = (await res.json()) as { error: { message: string } };
      expectErrorBody(405, body);
      expect(body.error.message).toBe(`The method ${method} is not allowed here; this path takes ${allow}.`);
    });

    test("a path no method takes is still 404, with or without a token", async () => {
      for (const headers of [{ authorization: `Bearer ${sys.adminToken}` }, {}] as Array<Record<string, string>>) {
        const res = await fetch(`${sys.url}/v1/no/such/route`, { method: "POST", headers });
        expect(res.status).toBe(404);
        expect(res.headers.get("allow")).toBeNull();
        expectErrorBody(404, await res.json());
      }
    });
  });

  describe("templates", () => {
    test("an unknown template id is 400 naming the rejected value, then the allowed ids", async () => {
      const spaceId = (await createSpace(owner.api, orgId)).id;
      const res = await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-startd" });
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toBe("Invalid parameters: The 'id' field value 'getting-startd' does not match any of the allowed values: getting-started, api-reference, faq.");
    });

    test.each(["getting-started", "api-reference", "faq"])("every link of the %s template resolves inside the space: in the link report and on its published site", async (template) => {
      const { spaceId, base } = await siteWith(template, "public", `Template ${template}`);
      const report = await owner.api.get(`/v1/spaces/${spaceId}/links`);
      expect(report.status).toBe(200);
      expect(report.body.stats.broken.total).toBe(0);
      expect(report.body.items.filter((i: { status: string }) => i.status !== "ok")).toEqual([]);

      // Walk the published site from its root: every link in a page's text reaches a page (200).
      const seen = new Set<string>();
      const queue = [base];
      let contentLinks = 0;
      while (queue.length) {
        const path = queue.shift() as string;
        if (seen.has(path)) continue;
        seen.add(path);
        const page = await fetch(`${sys.url}${path}`);
        expect({ path, status: page.status }).toEqual({ path, status: 200 });
        const doc = parse(await page.text());
        for (const a of doc.querySelectorAll("article a, nav a")) {
          const href = a.getAttribute("href") ?? "";
          if (href.startsWith("#") || /^https?:\/\//.test(href)) continue;
          if (a.closest("article")) contentLinks++;
          // A relative link a site could not resolve is left as written (e.g. "x.md"): that is a broken link.
          expect({ path, href }).toEqual({ path, href: expect.stringMatching(/^\/sites\//) });
          queue.push(href.split("#")[0]);
        }
        for (const img of doc.querySelectorAll("article img")) {
          const src = img.getAttribute("src") ?? "";
          expect({ path, src, status: (await fetch(new URL(src, `${sys.url}/`))).status }).toEqual({ path, src, status: 200 });
        }
      }
      expect(seen.size).toBeGreaterThanOrEqual(3);
      expect(contentLinks).toBeGreaterThan(0);
    });
  });
});
