// Space content through HTTP, in every process mode: revisions, pages, files, links and templates.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, withBodies, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("space content over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let spaceId: string;

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
    reader = await createUser(sys.admin);
    outsider = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, reader.email, "read");
    spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    const applied = await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" });
    expect(applied.status).toBe(201);
    // The Location names the revision the template made, which is now the space's.
    const space = await owner.api.get(`/v1/spaces/${spaceId}`);
    expect(new URL(applied.headers.get("location") ?? "").pathname).toBe(`/v1/spaces/${spaceId}/revisions/${space.body.revision}`);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** URLs carry PUBLIC_URL, which the embedded system leaves at its default: reach them on the test's port. */
  function onThisSystem(url: string): string {
    const u = new URL(url);
    return `${sys.url}${u.pathname}${u.search}`;
  }

  async function pages(id = spaceId): Promise<any[]> {
    const res = await owner.api.get(`/v1/spaces/${id}/content/pages`);
    expect(res.status).toBe(200);
    return res.body.pages;
  }

  describe("templates", () => {
    test("applying a template is 201 with no body and adds linked pages to the current revision", async () => {
      const space = await createSpace(owner.api, orgId);
      const before = space.body.revision;
      const res = await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "faq" });
      expect(res.status).toBe(201);
      expectSchema("applyTemplateToSpace", 201, res.body);
      const revision = await owner.api.get(`/v1/spaces/${space.id}/content`);
      expect(revision.body.parents).toEqual([before]);
      expect(revision.body.pages.map((p: any) => p.title)).toEqual(["FAQ"]);
      expect(revision.body.pages[0].pages.map((p: any) => p.path)).toEqual(["faq/accounts", "faq/billing"]);
      expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.revision).toBe(revision.body.id);
    });

    test.each([[{ id: "nope" }], [{}], [{ id: 5 }]])("template body %j is 400 naming id", async (body) => {
      const res = await owner.api.post(`/v1/spaces/${spaceId}/content/template`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("id");
    });

    test("a reader may not apply a template (403); an outsider gets 404; no token 401", async () => {
      const denied = await reader.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "faq" });
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
      expect((await outsider.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "faq" })).status).toBe(404);
      expect((await sys.admin.as(undefined).post(`/v1/spaces/${spaceId}/content/template`, { id: "faq" })).status).toBe(401);
    });

    test("a locked space refuses templates with 403", async () => {
      const space = await createSpace(owner.api, orgId, { editMode: "locked" });
      const res = await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "faq" });
      expect(res.status).toBe(403);
    });
  });

  describe("revisions and pages", () => {
    test("the current revision lists the page tree with unique paths, files and parents", async () => {
      const res = await reader.api.get(`/v1/spaces/${spaceId}/content`);
      expect(res.status).toBe(200);
      expectSchema("getCurrentRevision", 200, withBodies(res.body));
      expect(res.body.pages.map((p: any) => p.path)).toEqual(["welcome", "quickstart", "configuration"]);
      expect(res.body.pages[1].pages[0]).toMatchObject({ title: "Installation", slug: "installation", path: "quickstart/installation", hidden: false });
      expect(res.body.files).toHaveLength(1);
      expect(res.body.parents).toHaveLength(1);
    });

    test("getRevisionById answers an older revision of the space and 404 for another space's", async () => {
      const current = (await owner.api.get(`/v1/spaces/${spaceId}/content`)).body;
      const parent = await owner.api.get(`/v1/spaces/${spaceId}/revisions/${current.parents[0]}`);
      expect(parent.status).toBe(200);
      expectSchema("getRevisionById", 200, withBodies(parent.body));
      expect(parent.body.pages).toEqual([]);
      const other = await createSpace(owner.api, orgId);
      expect((await owner.api.get(`/v1/spaces/${other.id}/revisions/${current.id}`)).status).toBe(404);
      expect((await outsider.api.get(`/v1/spaces/${spaceId}/revisions/${current.id}`)).status).toBe(404);
    });

    test("listPages answers {pages} and refuses a non-boolean metadata flag", async () => {
      const res = await owner.api.get(`/v1/spaces/${spaceId}/content/pages?metadata=false&computed=false`);
      expect(res.status).toBe(200);
      expectSchema("listPages", 200, withBodies(res.body));
      expect(res.body.pages).toHaveLength(3);
      const bad = await owner.api.get(`/v1/spaces/${spaceId}/content/pages?metadata=maybe`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("metadata");
    });

    test("a page answers its markdown without the heading that gave its title", async () => {
      const welcome = (await pages())[0];
      const res = await reader.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}?format=markdown`);
      expect(res.status).toBe(200);
      expectSchema("getPageById", 200, res.body);
      expect(res.body.title).toBe("Welcome");
      expect(res.body.markdown).toContain("[quickstart](quickstart.md)");
      expect(res.body.markdown).not.toContain("# Welcome");
    });

    test("format=document answers a JSON document", async () => {
      const welcome = (await pages())[0];
      const res = await owner.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}?format=document`);
      expect(res.status).toBe(200);
      expectSchema("getPageById", 200, res.body);
      expect(res.body.document.object).toBe("document");
      expect(res.body.document.nodes.length).toBeGreaterThan(0);
    });

    test("evaluated=true substitutes space and page variables", async () => {
      const space = await createSpace(owner.api, orgId);
      const applied = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [
          { type: "set_variables", variables: { product: "Docshelf" } },
          { type: "insert_page", id: "pvars00000000000000a", markdown: "# Vars\n\n{{ space.vars.product }} v{{ page.vars.version }} {{ space.vars.missing }}", variables: { version: "2" } },
        ],
      });
      expect(applied.status).toBe(201);
      const raw = await owner.api.get(`/v1/spaces/${space.id}/content/page/pvars00000000000000a`);
      expect(raw.body.markdown).toContain("{{ space.vars.product }}");
      const evaluated = await owner.api.get(`/v1/spaces/${space.id}/content/page/pvars00000000000000a?evaluated=true`);
      expect(evaluated.status).toBe(200);
      expect(evaluated.body.markdown).toBe("Docshelf v2 {{ space.vars.missing }}");
      expect(evaluated.body.variables).toEqual({ version: "2" });
    });

    test("bad page queries are 400 naming the parameter; a missing page is 404", async () => {
      const welcome = (await pages())[0];
      const format = await owner.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}?format=html`);
      expect(format.status).toBe(400);
      expect(format.body.error.message).toContain("format");
      const evaluated = await owner.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}?evaluated=perhaps`);
      expect(evaluated.status).toBe(400);
      expect(evaluated.body.error.message).toContain("evaluated");
      const missing = await owner.api.get(`/v1/spaces/${spaceId}/content/page/nope`);
      expect(missing.status).toBe(404);
      expectErrorBody(404, missing.body);
      // The page was answered (and kept) for readers above: someone outside the organization still gets 404.
      expect((await owner.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}`)).status).toBe(200);
      expect((await outsider.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}`)).status).toBe(404);
      expect((await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/content/page/${welcome.id}`)).status).toBe(401);
    });

    test("getPageByPath finds nested pages and 404s unknown paths", async () => {
      const res = await owner.api.get(`/v1/spaces/${spaceId}/content/path/quickstart/installation`);
      expect(res.status).toBe(200);
      expectSchema("getPageByPath", 200, res.body);
      expect(res.body.title).toBe("Installation");
      expect((await owner.api.get(`/v1/spaces/${spaceId}/content/path/quickstart/nope`)).status).toBe(404);
      expect((await outsider.api.get(`/v1/spaces/${spaceId}/content/path/quickstart`)).status).toBe(404);
    });

    test("sibling pages with the same title get unique slugs and paths", async () => {
      const space = await createSpace(owner.api, orgId);
      const res = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [
          { type: "insert_page", markdown: "# Setup\n\none" },
          { type: "insert_page", markdown: "---\ntitle: Setup\ndescription: The second\n---\ntwo" },
        ],
      });
      expect(res.status).toBe(201);
      const tree = await owner.api.get(`/v1/spaces/${space.id}/content/pages`);
      expect(tree.body.pages.map((p: any) => p.path)).toEqual(["setup", "setup-2"]);
      expect(tree.body.pages[1].description).toBe("The second");
    });

    test("a bad change batch is 400 naming the field and writes nothing", async () => {
      const space = await createSpace(owner.api, orgId);
      const res = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [{ type: "insert_page", markdown: "# ok" }, { type: "insert_page", emoji: "e".repeat(51) }],
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("changes[1].emoji");
      expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.revision).toBe(space.body.revision);
    });
  });

  describe("files", () => {
    test("files list with metadata and a download URL that serves the bytes", async () => {
      const res = await reader.api.get(`/v1/spaces/${spaceId}/content/files`);
      expect(res.status).toBe(200);
      expectSchema("listFiles", 200, res.body);
      expect(res.body.count).toBe(1);
      const file = res.body.items[0];
      expect(file).toMatchObject({ name: "logo.svg", contentType: "image/svg+xml" });
      const one = await reader.api.get(`/v1/spaces/${spaceId}/content/files/${file.id}`);
      expect(one.status).toBe(200);
      expectSchema("getFileById", 200, one.body);
      // The signed URL is the capability: no bearer token is needed, as for a browser following it.
      const download = await fetch(onThisSystem(file.downloadURL));
      expect(download.status).toBe(200);
      expect(download.headers.get("content-security-policy")).toContain("sandbox");
      expect(download.headers.get("content-type")).toContain("image/svg+xml");
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.length).toBe(file.size);
      expect(bytes.toString()).toContain("<svg");
    });

    test("a tampered download token is 404", async () => {
      const file = (await owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items[0];
      const res = await fetch(`${onThisSystem(file.downloadURL)}x`);
      expect(res.status).toBe(404);
    });

    test("file limits: a missing file is 404 and limit over 1000 is 400", async () => {
      expect((await owner.api.get(`/v1/spaces/${spaceId}/content/files/nope`)).status).toBe(404);
      const bad = await owner.api.get(`/v1/spaces/${spaceId}/content/files?limit=1001`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("limit");
      expect((await outsider.api.get(`/v1/spaces/${spaceId}/content/files`)).status).toBe(404);
      expect((await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/content/files`)).status).toBe(401);
    });

    test("file backlinks list the pages that link to the file", async () => {
      const file = (await owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items[0];
      const res = await owner.api.get(`/v1/spaces/${spaceId}/content/files/${file.id}/backlinks`);
      expect(res.status).toBe(200);
      expectSchema("listSpaceFileBacklinks", 200, withBodies(res.body));
      expect(res.body.items.map((i: any) => i.page.title)).toEqual(["Welcome"]);
      const bad = await owner.api.get(`/v1/spaces/${spaceId}/content/files/${file.id}/backlinks?limit=0`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("limit");
    });

    test("insert_file over the size cap is 400", async () => {
      const space = await createSpace(owner.api, orgId);
      const ok = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [{ type: "insert_file", name: "a.txt", contentType: "text/plain", data: Buffer.from("hello").toString("base64") }],
      });
      expect(ok.status).toBe(201);
      const bad = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [{ type: "insert_file", name: "a/b.txt", contentType: "text/plain", data: "aGk=" }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("changes[0].name");
    });
  });

  describe("links", () => {
    test("the space's link report classifies ok, broken and in-app links, with stats", async () => {
      // The getting-started template's own links all resolve (templates.test walks them); one broken link is added.
      const space = await createSpace(owner.api, orgId);
      expect((await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "getting-started" })).status).toBe(201);
      await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [{ type: "insert_page", markdown: "# Help\n\nStuck? See [troubleshooting](../troubleshooting.md) or the [welcome page](welcome.md)." }],
      });
      const res = await owner.api.get(`/v1/spaces/${space.id}/links`);
      expect(res.status).toBe(200);
      expectSchema("listSpaceLinks", 200, withBodies(res.body));
      const broken = res.body.items.filter((i: any) => i.status === "broken");
      expect(broken).toHaveLength(1);
      expect(broken[0].targetReference).toEqual({ kind: "url", url: "../troubleshooting.md" });
      expect(broken[0].locationReferences.map((l: any) => l.page.title)).toEqual(["Help"]);
      expect(res.body.stats.broken.total).toBe(1);
      expect(res.body.stats.total).toBeGreaterThanOrEqual(8);
      const onlyBroken = await owner.api.get(`/v1/spaces/${space.id}/links?status=broken`);
      expect(onlyBroken.body.items).toHaveLength(1);
      const templateOnly = await reader.api.get(`/v1/spaces/${spaceId}/links?status=broken`);
      expect(templateOnly.status).toBe(200);
      expect(templateOnly.body.items).toEqual([]);
    });

    test("links pointing into the app are in-app", async () => {
      const space = await createSpace(owner.api, orgId);
      await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
        changes: [{ type: "insert_page", markdown: `# A\n\n[elsewhere](${space.body.urls.app.replace(space.id, spaceId)}/welcome) [out](https://example.com)` }],
      });
      const res = await owner.api.get(`/v1/spaces/${space.id}/links?status=in-app`);
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0].targetReference.url).toContain(`/s/${spaceId}/welcome`);
    });

    test("a page's link report lists only that page's links", async () => {
      const install = (await pages())[1].pages[0];
      const res = await owner.api.get(`/v1/spaces/${spaceId}/content/page/${install.id}/links`);
      expect(res.status).toBe(200);
      expectSchema("listPageLinksInSpace", 200, withBodies(res.body));
      expect(res.body.stats).toEqual({ total: 2, broken: { total: 0 } });
      expect((await owner.api.get(`/v1/spaces/${spaceId}/content/page/nope/links`)).status).toBe(404);
    });

    test("link report limits and access: bad status or limit 400, outsider 404, no token 401", async () => {
      const status = await owner.api.get(`/v1/spaces/${spaceId}/links?status=weird`);
      expect(status.status).toBe(400);
      expect(status.body.error.message).toContain("status");
      const limit = await owner.api.get(`/v1/spaces/${spaceId}/links?limit=5000`);
      expect(limit.status).toBe(400);
      expect(limit.body.error.message).toContain("limit");
      expect((await outsider.api.get(`/v1/spaces/${spaceId}/links`)).status).toBe(404);
      expect((await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/links`)).status).toBe(401);
    });

    test("paging walks every link usage once", async () => {
      const all = (await owner.api.get(`/v1/spaces/${spaceId}/links`)).body.items;
      const seen: any[] = [];
      let page: string | undefined;
      do {
        const res = await owner.api.get(`/v1/spaces/${spaceId}/links?limit=2${page ? `&page=${encodeURIComponent(page)}` : ""}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.items);
        page = res.body.next?.page;
      } while (page);
      expect(seen).toHaveLength(all.length);
    });
  });

  test("every content read is 401 without a token and 404 for a caller who cannot see the space", async () => {
    const tree = await pages();
    const file = (await owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items[0];
    const revision = (await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision;
    const paths = [
      `/v1/spaces/${spaceId}/content`,
      `/v1/spaces/${spaceId}/revisions/${revision}`,
      `/v1/spaces/${spaceId}/content/pages`,
      `/v1/spaces/${spaceId}/content/page/${tree[0].id}`,
      `/v1/spaces/${spaceId}/content/path/welcome`,
      `/v1/spaces/${spaceId}/content/files`,
      `/v1/spaces/${spaceId}/content/files/${file.id}`,
      `/v1/spaces/${spaceId}/content/files/${file.id}/backlinks`,
      `/v1/spaces/${spaceId}/links`,
      `/v1/spaces/${spaceId}/content/page/${tree[0].id}/links`,
    ];
    for (const path of paths) {
      const anonymous = await sys.admin.as(undefined).get(path);
      expect([path, anonymous.status]).toEqual([path, 401]);
      expectErrorBody(401, anonymous.body);
      const hidden = await outsider.api.get(path);
      expect([path, hidden.status]).toEqual([path, 404]);
      expectErrorBody(404, hidden.body);
      expect([path, (await reader.api.get(path)).status]).toEqual([path, 200]);
    }
  });

  test("a revision of a few thousand pages is served whole, also across nodes", async () => {
    const space = await createSpace(owner.api, orgId);
    const total = 3000;
    for (let batch = 0; batch < total / 1000; batch++) {
      const changes = Array.from({ length: 1000 }, (_, i) => ({
        type: "insert_page",
        title: `Page ${batch * 1000 + i} with a reasonably long title to make the tree heavy`,
        description: "d".repeat(100),
        markdown: `Body ${batch * 1000 + i}`,
      }));
      const res = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes });
      expect(res.status).toBe(201);
    }
    const res = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.pages).toHaveLength(total);
    expect(JSON.stringify(res.body).length).toBeGreaterThan(1024 * 1024);
    const listed = await owner.api.get(`/v1/spaces/${space.id}/content/pages`);
    expect(listed.status).toBe(200);
    expect(listed.body.pages).toHaveLength(total);
    const last = res.body.pages[total - 1];
    const page = await owner.api.get(`/v1/spaces/${space.id}/content/page/${last.id}`);
    expect(page.body.markdown).toBe(`Body ${total - 1}`);
  });
});
