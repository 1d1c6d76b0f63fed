// A published site for AI tools, through HTTP in every process mode: `{page}.md` and Accept: text/markdown,
// /llms.txt (against a reviewed file in test/fixtures) and /llms-full.txt (streamed), the Link
// header of HTML pages, and the site's MCP server at ~gitbook/mcp with the SDK's own client: its tools,
// visibility (share-link, unlisted) exactly as the HTML pages, and generated bad input.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages, header, publishedSite, rawGet, signToken, unique, type PublishedSite } from "./sites-serve-fixtures";
import { badArguments, callTool, INITIALIZE, mcpClient, rawPost } from "./ai-fixtures";

const EXPECTED_LLMS_TXT = readFileSync(join(__dirname, "../fixtures/ai/llms.txt"), "utf8");

describe.each(MODES)("published sites for AI tools over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let pub: PublishedSite;
  /** The site's absolute URL, as its answers write it. */
  let siteUrl: string;
  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    pub = await publishedSite(sys, w, { title: "AI docs" });
    siteUrl = `${new URL(sys.url).origin}${pub.base}`;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("Markdown pages", () => {
    test("{page}.md is the page as Markdown: the llms.txt pointer, the title, links to other pages at their .md", async () => {
      const res = await rawGet(sys.url, `${pub.base}/introduction.md`);
      expect(res.status).toBe(200);
      expect(header(res, "content-type")).toBe("text/markdown; charset=utf-8");
      expect(header(res, "cache-control")).toBe("public, max-age=60");
      expect(header(res, "etag")).toMatch(/^"/);
      const lines = res.text.split("\n");
      expect(lines[0]).toBe(`> For the complete documentation index, see [llms.txt](${siteUrl}/llms.txt). Every page is also available as Markdown: add \`.md\` to its URL.`);
      expect(res.text).toContain("\n# Introduction\n\nWhat this site is about\n\nWelcome to the docs.");
      expect(res.text).toContain(`Read the [guide](${siteUrl}/guide.md).`);
      expect(res.text).not.toContain("<");
      // The same page asked for with Accept: text/markdown at its HTML URL.
      const accepted = await rawGet(sys.url, pub.base, { accept: "text/markdown" });
      expect(accepted.status).toBe(200);
      expect(header(accepted, "content-type")).toBe("text/markdown; charset=utf-8");
      expect(accepted.text).toBe(res.text);
      expect(header(accepted, "vary")).toContain("Accept");
      // A browser's Accept still gets HTML.
      const browser = await rawGet(sys.url, pub.base, { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
      expect(header(browser, "content-type")).toBe("text/html; charset=utf-8");
      expect((await rawGet(sys.url, `${pub.base}/introduction.md`, { "if-none-match": header(res, "etag") })).status).toBe(304);
    });

    test("a nested page, a hidden page by its path; a .md of no page is 404", async () => {
      const advanced = await rawGet(sys.url, `${pub.base}/guide/advanced.md`);
      expect(advanced.status).toBe(200);
      expect(advanced.text).toContain("# Advanced\n\nAdvanced topics about zeppelins.");
      const hidden = await rawGet(sys.url, `${pub.base}/hidden-page.md`);
      expect(hidden.status).toBe(200);
      expect(hidden.text).toContain("Hidden but reachable.");
      const missing = await rawGet(sys.url, `${pub.base}/nothing-here.md`);
      expect(missing.status).toBe(404);
      expect(header(missing, "cache-control")).toBe("no-store");
    });

    test("HTML pages link to llms.txt and llms-full.txt and vary on Accept", async () => {
      const page = await rawGet(sys.url, `${pub.base}/guide`);
      expect(page.status).toBe(200);
      expect(header(page, "link")).toBe(`<${pub.base}/llms.txt>; rel="llms-txt", <${pub.base}/llms-full.txt>; rel="llms-full-txt"`);
      expect(header(page, "vary")).toContain("Accept");
    });
  });

  describe("llms.txt and llms-full.txt", () => {
    test("llms.txt is the reviewed file: H1, blockquote, an H2 per site space, a line per visible page", async () => {
      const res = await rawGet(sys.url, `${pub.base}/llms.txt`);
      expect(res.status).toBe(200);
      expect(header(res, "content-type")).toBe("text/plain; charset=utf-8");
      expect(res.text).toBe(EXPECTED_LLMS_TXT.replaceAll("{SITE}", siteUrl));
    });

    test("llms-full.txt holds every visible page's Markdown, each with its source URL", async () => {
      const res = await rawGet(sys.url, `${pub.base}/llms-full.txt`);
      expect(res.status).toBe(200);
      expect(header(res, "content-type")).toBe("text/plain; charset=utf-8");
      expect(res.text.startsWith("# AI docs\n\n> What this site is about\n")).toBe(true);
      for (const [title, path] of [["Introduction", "introduction"], ["Guide", "guide"], ["Advanced", "guide/advanced"], ["FAQ", "faq"]]) {
        expect(res.text).toContain(`# ${title}\n`);
        expect(res.text).toContain(`Source: ${siteUrl}/${path}.md`);
      }
      expect(res.text).toContain("Advanced topics about zeppelins.");
      expect(res.text).not.toContain("Hidden but reachable.");
    });

    test("llms-full.txt of a site larger than one transporter message (1.6 MB) comes whole, streamed page by page, without an ETag", async () => {
      // Multi-byte characters throughout, so chunks cut anywhere would show as broken text.
      const big = "Zeppelins über Käse, 飛行船 🚀. ".repeat(2600); // ~100 KB a page
      const pages = Array.from({ length: 16 }, (_, i) => ({ title: `Big ${i + 1}`, markdown: `${big}\nEnd of page ${i + 1}.` }));
      // Four pages a request: one request body is at most one transporter message too.
      const site = await publishedSite(sys, w, { title: "Big docs", pages: pages.slice(0, 4) });
      for (let at = 4; at < pages.length; at += 4) await addPages(sys, site.spaceId, pages.slice(at, at + 4));
      const res = await rawGet(sys.url, `${site.base}/llms-full.txt`);
      expect(res.status).toBe(200);
      expect(header(res, "content-type")).toBe("text/plain; charset=utf-8");
      expect(header(res, "transfer-encoding")).toBe("chunked");
      expect(header(res, "etag")).toBe("");
      expect(header(res, "cache-control")).toBe("public, max-age=60");
      expect(Buffer.byteLength(res.text, "utf8")).toBeGreaterThan(1_600_000);
      expect(res.text).not.toContain("\uFFFD");
      for (let i = 1; i <= 16; i++) {
        expect(res.text).toContain(`# Big ${i}\n`);
        expect(res.text).toContain(`${big}\nEnd of page ${i}.`);
      }
      expect(res.text.indexOf("# Big 2\n")).toBeLessThan(res.text.indexOf("# Big 16\n"));
      expect(res.text).not.toContain("This document stops here");
      const head = await new Promise<number>((resolve, reject) => {
        const url = new URL(sys.url);
        const req = request({ host: url.hostname, port: url.port, path: `${site.base}/llms-full.txt`, method: "HEAD" }, (r) => {
          r.resume();
          r.on("end", () => resolve(r.statusCode ?? 0));
        });
        req.on("error", reject);
        req.end();
      });
      expect(head).toBe(200);
    });
  });

  describe("the site's MCP server", () => {
    test("lists its two read-only tools; searchDocumentation and getPage answer Markdown with page URLs", async () => {
      const client = await mcpClient(`${sys.url}${pub.base}/~gitbook/mcp`);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(["getPage", "searchDocumentation"]);
        for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
        const found = await callTool(client, "searchDocumentation", { query: "zeppelins" });
        expect(found.isError).toBeFalsy();
        expect(found.text).toContain("## Advanced");
        expect(found.text).toContain(`URL: ${siteUrl}/guide/advanced`);
        expect(found.text).toContain(`Markdown: ${siteUrl}/guide/advanced.md`);
        const none = await callTool(client, "searchDocumentation", { query: "qwertyuiopasdf" });
        expect(none.isError).toBeFalsy();
        expect(none.text).toContain("No page");
        // getPage by the URL search gave, by the .md URL, and by a path.
        for (const where of [`${siteUrl}/guide/advanced`, `${siteUrl}/guide/advanced.md`, "guide/advanced", `${pub.base}/guide/advanced`]) {
          const page = await callTool(client, "getPage", { url: where });
          expect(page.isError).toBeFalsy();
          expect(page.text).toContain(`> URL: ${siteUrl}/guide/advanced`);
          expect(page.text).toContain("# Advanced\n\nAdvanced topics about zeppelins.");
        }
        const home = await callTool(client, "getPage", { url: siteUrl });
        expect(home.text).toContain("# Introduction");
        const missing = await callTool(client, "getPage", { url: "no/such/page" });
        expect(missing.isError).toBe(true);
        const elsewhere = await callTool(client, "getPage", { url: "https://example.com/guide" });
        expect(elsewhere.isError).toBe(true);
        const otherSite = await callTool(client, "getPage", { url: `${new URL(sys.url).origin}/sites/another/guide` });
        expect(otherSite.isError).toBe(true);
      } finally {
        await client.close();
      }
    });

    test("generated bad input to every tool is an error result, never a 5xx", async () => {
      const client = await mcpClient(`${sys.url}${pub.base}/~gitbook/mcp`);
      try {
        const { tools } = await client.listTools();
        for (const tool of tools) {
          const cases = badArguments(tool.inputSchema as never);
          expect(cases.length).toBeGreaterThan(5);
          for (const args of cases) {
            const result = await callTool(client, tool.name, args);
            expect({ tool: tool.name, args, isError: result.isError }).toEqual({ tool: tool.name, args, isError: true });
          }
        }
        const unknown = await client.callTool({ name: "deleteEverything", arguments: {} }).catch((err: Error) => ({ isError: true, thrown: err.message }));
        expect(unknown.isError).toBe(true);
      } finally {
        await client.close();
      }
      // Raw bodies: not JSON, not JSON-RPC, wrong content type, a GET: 4xx, never 5xx.
      const path = `${pub.base}/~gitbook/mcp`;
      for (const body of ["{", "[]", "null", '{"jsonrpc":"2.0"}', JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getPage", arguments: "x" } })]) {
        const res = await rawPost(sys.url, path, body);
        expect(res.status).toBeLessThan(500);
      }
      expect((await rawPost(sys.url, path, INITIALIZE, { "content-type": "text/plain" })).status).toBe(415);
      expect((await rawPost(sys.url, path, JSON.stringify({ pad: "x".repeat(300 * 1024) }))).status).toBe(413);
      const get = await rawGet(sys.url, path);
      expect(get.status).toBe(405);
      expect(header(get, "allow")).toBe("POST");
    });
  });

  describe("visibility", () => {
    test("a share-link site: .md, llms.txt and MCP without the key answer as its HTML does (404); with it, they work and links keep the key", async () => {
      const site = await publishedSite(sys, w, { visibility: "share-link", title: "Partner docs" });
      const link = await w.owner.api.post(`${w.sites}/${site.site.id}/share-links`, { name: "Agents" });
      expect(link.status).toBe(201);
      const key = new URL(link.body.urls.published).searchParams.get("share")!;
      const html = await rawGet(sys.url, `${site.base}/guide`);
      expect(html.status).toBe(404);
      for (const path of [`${site.base}/guide.md`, `${site.base}/llms.txt`, `${site.base}/llms-full.txt`]) {
        const res = await rawGet(sys.url, path);
        expect({ path, status: res.status, type: header(res, "content-type") }).toEqual({ path, status: html.status, type: header(html, "content-type") });
        expect(res.text).not.toContain("zeppelin");
      }
      const withHtmlAccept = await rawGet(sys.url, `${site.base}/guide`, { accept: "text/markdown" });
      expect(withHtmlAccept.status).toBe(404);
      const mcp = await rawPost(sys.url, `${site.base}/~gitbook/mcp`, INITIALIZE);
      expect(mcp.status).toBe(html.status);
      await expect(mcpClient(`${sys.url}${site.base}/~gitbook/mcp`)).rejects.toThrow();
      const wrongKey = await rawGet(sys.url, `${site.base}/guide.md?share=not-a-key`);
      expect(wrongKey.status).toBe(404);

      const md = await rawGet(sys.url, `${site.base}/introduction.md?share=${key}`);
      expect(md.status).toBe(200);
      expect(header(md, "cache-control")).toBe("private, no-store");
      expect(md.text).toContain(`[guide](${sys.url.replace(/\/$/, "")}${site.base}/guide.md?share=${encodeURIComponent(key)})`);
      const client = await mcpClient(`${sys.url}${site.base}/~gitbook/mcp?share=${key}`);
      try {
        const page = await callTool(client, "getPage", { url: "guide/advanced" });
        expect(page.isError).toBeFalsy();
        expect(page.text).toContain("zeppelins");
      } finally {
        await client.close();
      }
      // A deactivated link stops all of them at once.
      expect((await w.owner.api.patch(`${w.sites}/${site.site.id}/share-links/${link.body.id}`, { active: false })).status).toBe(200);
      expect((await rawGet(sys.url, `${site.base}/introduction.md?share=${key}`)).status).toBe(404);
      expect((await rawPost(sys.url, `${site.base}/~gitbook/mcp?share=${key}`, INITIALIZE)).status).toBe(404);
    });

    test("an unlisted site's Markdown and llms.txt carry noindex like its pages; an unpublished site is 404", async () => {
      const site = await publishedSite(sys, w, { visibility: "unlisted", title: "Quiet docs" });
      for (const path of [`${site.base}/guide.md`, `${site.base}/llms.txt`, `${site.base}/llms-full.txt`, `${site.base}/guide`]) {
        const res = await rawGet(sys.url, path);
        expect(res.status).toBe(200);
        expect(header(res, "x-robots-tag")).toBe("noindex");
      }
      const fresh = await newSite(w, { title: "Never published" });
      const unpublishedBase = `/sites/${fresh.id}`;
      for (const path of [`${unpublishedBase}/llms.txt`, `${unpublishedBase}/guide.md`]) expect((await rawGet(sys.url, path)).status).toBe(404);
      expect((await rawPost(sys.url, `${unpublishedBase}/~gitbook/mcp`, INITIALIZE)).status).toBe(404);
    });

    test("a visitor-auth site with adaptive content: 401 without a token as its pages; with one, only the sections its claims show", async () => {
      const created = await newSite(w, { visibility: "visitor-auth", title: "Members docs" });
      const handbook = await newSection(w, created.id, "Handbook");
      await addPages(sys, handbook.siteSpaces[0].space.id, [{ title: "Welcome", markdown: "For every member." }]);
      const beta = await newSection(w, created.id, "Beta features");
      await addPages(sys, beta.siteSpaces[0].space.id, [{ title: "Beta home", markdown: "Only for beta testers." }]);
      expect((await w.owner.api.patch(`${w.sites}/${created.id}/sections/${beta.id}`, { condition: "visitor.claims.beta === true" })).status).toBe(200);
      const basename = unique("members");
      await w.owner.api.patch(`${w.sites}/${created.id}`, { basename });
      await w.owner.api.post(`${w.sites}/${created.id}/publish`);
      const base = `/sites/${basename}`;
      const key = (await w.owner.api.get(`${w.sites}/${created.id}/publishing/auth`)).body.privateKey;
      const exp = Math.floor(Date.now() / 1000) + 600;

      const html = await rawGet(sys.url, `${base}/welcome`);
      expect(html.status).toBe(401);
      for (const path of [`${base}/welcome.md`, `${base}/llms.txt`, `${base}/llms-full.txt`]) expect((await rawGet(sys.url, path)).status).toBe(401);
      expect((await rawPost(sys.url, `${base}/~gitbook/mcp`, INITIALIZE)).status).toBe(401);
      const bad = signToken("not-the-key", { aud: created.id, exp });
      expect((await rawPost(sys.url, `${base}/~gitbook/mcp?jwt_token=${bad}`, INITIALIZE)).status).toBe(401);

      const member = signToken(key, { aud: created.id, exp });
      const tester = signToken(key, { aud: created.id, exp, beta: true });
      const memberIndex = await rawGet(sys.url, `${base}/llms.txt?jwt_token=${member}`);
      expect(memberIndex.status).toBe(200);
      expect(header(memberIndex, "cache-control")).toBe("private, no-store");
      expect(memberIndex.text).toContain("## Handbook");
      expect(memberIndex.text).not.toContain("Beta");
      expect(memberIndex.text).not.toContain(member);
      expect((await rawGet(sys.url, `${base}/beta-features/beta-home.md?jwt_token=${member}`)).status).toBe(404);
      const testerIndex = await rawGet(sys.url, `${base}/llms.txt?jwt_token=${tester}`);
      expect(testerIndex.text).toContain("## Beta features");
      const page = await rawGet(sys.url, `${base}/beta-features/beta-home.md?jwt_token=${tester}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Only for beta testers.");

      const memberMcp = await mcpClient(`${sys.url}${base}/~gitbook/mcp?jwt_token=${member}`);
      const testerMcp = await mcpClient(`${sys.url}${base}/~gitbook/mcp?jwt_token=${tester}`);
      try {
        expect((await callTool(memberMcp, "getPage", { url: "beta-features/beta-home" })).isError).toBe(true);
        expect((await callTool(memberMcp, "searchDocumentation", { query: "testers" })).text).not.toContain("Beta home");
        expect((await callTool(testerMcp, "getPage", { url: "beta-features/beta-home" })).text).toContain("Only for beta testers.");
        expect((await callTool(testerMcp, "searchDocumentation", { query: "testers" })).text).toContain("Beta home");
      } finally {
        await memberMcp.close();
        await testerMcp.close();
      }
    });
  });

  test("pages added later show in llms.txt at once (a new revision)", async () => {
    await addPages(sys, pub.spaceId, [{ title: "Changelog", markdown: "What changed." }]);
    const res = await rawGet(sys.url, `${pub.base}/llms.txt`);
    expect(res.text).toContain(`- [Changelog](${siteUrl}/changelog.md)`);
  });
});
