// `.gitbook.yaml` redirects imported by Git sync, as site redirects of every site publishing the space,
// through HTTP in every process mode: listed (GitBook's SiteRedirect, read-only), found by source,
// served as 301 to the page, following later imports, never on another organization's site.
import { createOrg, createSpace, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { commitFiles, createRepo, startGitServer, type GitServer } from "./git-sync-server";
import { MODES, start } from "./modes";
import { newSite, newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { header, rawGet, unique } from "./sites-serve-fixtures";


const REPO = {
  ".gitbook.yaml": "root: ./\nredirects:\n  old/setup: guide/install.md\n  /previous/: README.md\n  gone: missing.md\n",
  "README.md": "# Home\n\nWelcome.\n",
  "SUMMARY.md": "# Contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n",
  "guide/README.md": "# Guide\n\nThe guide.\n",
  "guide/install.md": "# Install\n\nRun make.\n",
};

describe.each(MODES)("Git-imported site redirects over %s", (mode) => {
  let sys: RunningSystem;
  let server: GitServer;
  let w: SitesWorld;
  let repoCount = 0;
  const repoName = (label: string) => `${label}-${mode}-${++repoCount}`;

  beforeAll(async () => {
    server = await startGitServer({ shared: true });
    sys = await start(mode);
    w = await sitesWorld(sys);
    // An organization with a verified domain: its site redirects straight to external URLs (without one,
    // a page says where the link goes; tenancy-hosts.test.ts).
    const approved = await sys.admin.post(`/v1/orgs/${w.orgId}/domains/${w.orgId.toLowerCase()}.example.com/approve`, {});
    if (approved.status !== 200) throw new Error(`approve domain: ${approved.status}`);
  });

  afterAll(async () => {
    await sys?.stop();
    await server?.close();
  });

  async function importRepo(api: SitesWorld["owner"]["api"], spaceId: string, name: string): Promise<void> {
    const res = await api.post(`/v1/spaces/${spaceId}/git/import`, { url: server.url(name), ref: "refs/heads/main" });
    expect(res.status).toBe(204);
    const location = res.headers.get("location")!;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = await api.get(new URL(location).pathname);
      expect(job.status).toBe(200);
      if (job.body.status === "succeeded") return;
      if (job.body.status !== "pending" && job.body.status !== "running") throw new Error(`import ${job.body.status}: ${job.body.error}`);
      if (Date.now() > deadline) throw new Error("import still running");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function publish(siteId: string): Promise<string> {
    const basename = unique("git");
    expect((await w.owner.api.patch(`${w.sites}/${siteId}`, { basename })).status).toBe(200);
    expect((await w.owner.api.post(`${w.sites}/${siteId}/publish`)).status).toBe(200);
    return `/sites/${basename}`;
  }

  async function pageIdOf(spaceId: string, path: string): Promise<string> {
    const res = await w.owner.api.get(`/v1/spaces/${spaceId}/content/path/${path}`);
    expect(res.status).toBe(200);
    return res.body.id;
  }

  const gitOnes = (items: any[]) => items.filter((r) => r.origin?.kind === "git-sync");

  describe("a space imported with redirects, on two sites", () => {
    let name: string;
    let spaceId: string;
    let site: any;
    let base: string;
    let second: any;
    let secondBase: string;
    let siteSpacePath: string;
    let installId: string;

    beforeAll(async () => {
      name = repoName("redirects");
      createRepo(server, name, REPO);
      spaceId = (await createSpace(w.owner.api, w.orgId, { title: "Git docs" })).id;
      await importRepo(w.editor.api, spaceId, name);
      installId = await pageIdOf(spaceId, "guide/install");
      site = await newSite(w, { spaces: [spaceId], visibility: "public" });
      base = await publish(site.id);
      // On a second site, the space is a second site space at the root: its redirects live under its path.
      second = await newSite(w, { spaces: [await newSpace(w, "Front")], visibility: "public" });
      const added = await w.owner.api.post(`${w.sites}/${second.id}/site-spaces`, { spaceId });
      expect(added.status).toBe(201);
      siteSpacePath = added.body.path;
      secondBase = await publish(second.id);
    });

    test("listed as read-only GitBook SiteRedirects under the site space's path, destinations resolved to pages", async () => {
      const list = await w.reader.api.get(`${w.sites}/${site.id}/redirects`);
      expect(list.status).toBe(200);
      expectSchema("listSiteRedirects", 200, list.body, { latest: true });
      const git = gitOnes(list.body.items);
      expect(git.map((r: any) => r.source).sort()).toEqual(["/old/setup", "/previous"]);
      const setup = git.find((r: any) => r.source === "/old/setup");
      expect(setup).toMatchObject({
        object: "site-redirect",
        id: expect.stringMatching(/^git-/),
        draft: false,
        captureWildcard: false,
        permanent: true,
        destination: { kind: "site-page", siteSpaceId: expect.any(String), pageId: installId },
        origin: { kind: "git-sync", spaceId, file: "guide/install.md" },
      });
      expect(list.body.count).toBe(2);
      // Drafts: Git redirects are always live.
      expect(gitOnes((await w.reader.api.get(`${w.sites}/${site.id}/redirects?draft=true`)).body.items)).toEqual([]);
      // Search and paging walk them too.
      expect((await w.reader.api.get(`${w.sites}/${site.id}/redirects?search=SETUP`)).body.items.map((r: any) => r.source)).toEqual(["/old/setup"]);
      const first = await w.reader.api.get(`${w.sites}/${site.id}/redirects?limit=1&orderBy=source`);
      expect(first.body.items.map((r: any) => r.source)).toEqual(["/old/setup"]);
      const next = await w.reader.api.get(`${w.sites}/${site.id}/redirects?limit=1&orderBy=source&page=${encodeURIComponent(first.body.next.page)}`);
      expect(next.body.items.map((r: any) => r.source)).toEqual(["/previous"]);
      expect(next.body.next).toBeUndefined();

      const other = await w.reader.api.get(`${w.sites}/${second.id}/redirects?orderBy=source`);
      expect(gitOnes(other.body.items).map((r: any) => r.source)).toEqual([`/${siteSpacePath}/old/setup`, `/${siteSpacePath}/previous`]);
    });

    test("found by source and served: 301 to the page's published URL, on each site", async () => {
      const found = await w.reader.api.get(`${w.sites}/${site.id}/redirect?source=/old/setup`);
      expect(found.status).toBe(200);
      expectSchema("getSiteRedirectBySource", 200, found.body, { latest: true });
      expect(found.body.target).toMatch(new RegExp(`${base}/guide/install$`));
      const served = await rawGet(sys.url, `${base}/old/setup`);
      expect(served.status).toBe(301);
      expect(header(served, "location")).toBe(`${base}/guide/install`);
      expect((await rawGet(sys.url, header(served, "location"))).status).toBe(200);
      // The first page is the site space's root.
      expect(header(await rawGet(sys.url, `${base}/previous/`), "location")).toBe(base);

      const elsewhere = await rawGet(sys.url, `${secondBase}/${siteSpacePath}/old/setup`);
      expect(elsewhere.status).toBe(301);
      expect(header(elsewhere, "location")).toBe(`${secondBase}/${siteSpacePath}/guide/install`);
      // Not at the second site's root, where another space is published.
      expect((await rawGet(sys.url, `${secondBase}/old/setup`)).status).toBe(404);
      // A file that is no page gives no redirect.
      expect((await rawGet(sys.url, `${base}/gone`)).status).toBe(404);
    });

    test("read-only: updating or deleting one is 409; a site redirect of the same source wins", async () => {
      const list = await w.owner.api.get(`${w.sites}/${site.id}/redirects`);
      const id = gitOnes(list.body.items)[0].id;
      const patched = await w.owner.api.patch(`${w.sites}/${site.id}/redirects/${id}`, { permanent: false });
      expect(patched.status).toBe(409);
      expect(patched.body.error.message).toContain(".gitbook.yaml");
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/redirects/${id}`)).status).toBe(409);
      // Lower roles and other organizations still get their usual answers.
      expect((await w.reader.api.delete(`${w.sites}/${site.id}/redirects/${id}`)).status).toBe(403);
      expect((await w.outsider.api.get(`${w.sites}/${site.id}/redirects`)).status).toBe(404);

      const own = await w.owner.api.post(`${w.sites}/${site.id}/redirects`, { source: "/previous", destination: { kind: "external", url: "https://example.com/prev" } });
      expect(own.status).toBe(201);
      const found = await w.reader.api.get(`${w.sites}/${site.id}/redirect?source=/previous`);
      expect(found.body).toMatchObject({ redirect: { id: own.body.id }, target: "https://example.com/prev" });
      const served = await rawGet(sys.url, `${base}/previous`);
      expect(served.status).toBe(307);
      expect(header(served, "location")).toBe("https://example.com/prev");
      expect((await w.owner.api.delete(`${w.sites}/${site.id}/redirects/${own.body.id}`)).status).toBe(205);
      expect((await rawGet(sys.url, `${base}/previous`)).status).toBe(301);
    });

    test("they follow the space's latest import: a dropped redirect is gone, a new one appears", async () => {
      commitFiles(server, name, { ...REPO, ".gitbook.yaml": "root: ./\nredirects:\n  previous: README.md\n  new/place: guide/install.md\n" });
      await importRepo(w.editor.api, spaceId, name);
      const list = await w.reader.api.get(`${w.sites}/${site.id}/redirects?orderBy=source`);
      expect(gitOnes(list.body.items).map((r: any) => r.source)).toEqual(["/new/place", "/previous"]);
      expect((await rawGet(sys.url, `${base}/old/setup`)).status).toBe(404);
      expect((await w.reader.api.get(`${w.sites}/${site.id}/redirect?source=/old/setup`)).status).toBe(404);
      expect(header(await rawGet(sys.url, `${base}/new/place`), "location")).toBe(`${base}/guide/install`);
      expect(gitOnes((await w.reader.api.get(`${w.sites}/${second.id}/redirects?orderBy=source`)).body.items).map((r: any) => r.source)).toEqual([
        `/${siteSpacePath}/new/place`,
        `/${siteSpacePath}/previous`,
      ]);
    });

    test("they follow the space's current revision: a page deleted since the import takes its redirects", async () => {
      const installPage = await pageIdOf(spaceId, "guide/install");
      const changed = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "delete_page", page: installPage }] });
      expect(changed.status).toBe(201);
      const list = await w.reader.api.get(`${w.sites}/${site.id}/redirects?orderBy=source`);
      expect(gitOnes(list.body.items).map((r: any) => r.source)).toEqual(["/previous"]);
      expect((await rawGet(sys.url, `${base}/new/place`)).status).toBe(404);
      // The next import brings the page and its redirect back.
      await importRepo(w.editor.api, spaceId, name);
      expect(header(await rawGet(sys.url, `${base}/new/place`), "location")).toBe(`${base}/guide/install`);
    });

    test("another organization's site never shows them, even for the same repository", async () => {
      const otherOrg = (await createOrg(w.outsider.api)).id;
      const otherSpace = (await createSpace(w.outsider.api, otherOrg, { title: "Theirs" })).id;
      const theirs = repoName("theirs");
      createRepo(server, theirs, { ...REPO, ".gitbook.yaml": "root: ./\nredirects:\n  b-only: guide/install.md\n" });
      await importRepo(w.outsider.api, otherSpace, theirs);
      const created = await w.outsider.api.post(`/v1/orgs/${otherOrg}/sites`, { title: "Theirs", spaces: [otherSpace], visibility: "public" });
      expect(created.status).toBe(201);
      const basename = unique("theirs");
      expect((await w.outsider.api.patch(`/v1/orgs/${otherOrg}/sites/${created.body.id}`, { basename })).status).toBe(200);
      expect((await w.outsider.api.post(`/v1/orgs/${otherOrg}/sites/${created.body.id}/publish`)).status).toBe(200);
      // Org A's space cannot be linked into org B's site, and B's site shows only B's redirects.
      expect((await w.outsider.api.post(`/v1/orgs/${otherOrg}/sites/${created.body.id}/site-spaces`, { spaceId })).status).toBe(400);
      const list = await w.outsider.api.get(`/v1/orgs/${otherOrg}/sites/${created.body.id}/redirects`);
      expect(gitOnes(list.body.items).map((r: any) => r.source)).toEqual(["/b-only"]);
      expect((await rawGet(sys.url, `/sites/${basename}/previous`)).status).toBe(404);
      expect((await rawGet(sys.url, `/sites/${basename}/new/place`)).status).toBe(404);
      expect((await rawGet(sys.url, `/sites/${basename}/b-only`)).status).toBe(301);
      // And org A's site does not show B's.
      expect(gitOnes((await w.reader.api.get(`${w.sites}/${site.id}/redirects`)).body.items).map((r: any) => r.source)).not.toContain("/b-only");
      expect((await rawGet(sys.url, `${base}/b-only`)).status).toBe(404);
    });

    test("removing the space's Git link removes its redirects", async () => {
      expect((await w.owner.api.delete(`/v1/spaces/${spaceId}/git/legacy-installation`)).status).toBe(204);
      expect(gitOnes((await w.reader.api.get(`${w.sites}/${site.id}/redirects`)).body.items)).toEqual([]);
      expect((await rawGet(sys.url, `${base}/previous`)).status).toBe(404);
    });
  });
});
