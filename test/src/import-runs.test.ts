// GitBook's import runs through HTTP, in every process mode: a website on 127.0.0.1, Markdown files and
// ZIPs sent with the request, running in the background, cancelled, listed and paged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { strToU8, zipSync } from "fflate";
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, overrideEnv, pageIdByTitle, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, startPrivate } from "./modes";

const html = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;
const SLOW_PAGES = 30;
const SLOW_MS = 150;
const UPLOAD_MAX_BYTES = 200_000;

function serveSite(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? "/";
  const send = (page: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  if (path === "/") return void send(html("Home", `<h1>Acme docs</h1><p>See the <a href="/guide/install">install guide</a>.</p>`));
  if (path === "/guide/install") return void send(html("Install", `<h1>Installing Acme</h1><p>Run the quokkaflux installer.</p>`));
  // A slow site: every page takes a while, so a run over it is still working when the test cancels it.
  if (path === "/slow/") return void send(html("Slow", `<h1>Slow</h1>${Array.from({ length: SLOW_PAGES }, (_, i) => `<a href="/slow/${i}">${i}</a>`).join(" ")}`));
  const slow = /^\/slow\/(\d+)$/.exec(path);
  if (slow) return void setTimeout(() => send(html(`Slow ${slow[1]}`, `<h1>Slow ${slow[1]}</h1>`)), SLOW_MS);
  res.writeHead(404, { "content-type": "text/html" }).end(html("Missing", "<p>missing</p>"));
}

const dataUrl = (type: string, name: string, bytes: Uint8Array | string) =>
  `data:${type};name=${encodeURIComponent(name)};base64,${Buffer.from(typeof bytes === "string" ? Buffer.from(bytes) : bytes).toString("base64")}`;
const zipUrl = (files: Record<string, Uint8Array>, level: 0 | 9 = 9) => dataUrl("application/zip", "docs.zip", zipSync(files, { level }));


describe.each(MODES)("import runs over %s", (mode) => {
  let sys: RunningSystem;
  let site: Server;
  let port: number;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let restoreEnv: (() => void) | undefined;
  const importsPath = (org = orgId) => `/v1/org/${org}/imports`;

  beforeAll(async () => {
    site = createServer(serveSite);
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    port = (site.address() as AddressInfo).port;
    restoreEnv = overrideEnv({ CONTENT_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${port}`, CONTENT_IMPORT_UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES), CONTENT_IMPORT_MAX_PAGES: "100" });
    sys = await startPrivate(mode); // its own: it sets the environment, or reads the logs and store files
    [owner, editor, reader, outsider] = await Promise.all([1, 2, 3, 4].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    otherOrgId = (await createOrg(outsider.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
  });

  afterAll(async () => {
    await sys?.stop();
    restoreEnv?.();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  async function revisionOf(spaceId: string): Promise<string> {
    return (await owner.api.get(`/v1/spaces/${spaceId}`)).body.revision;
  }

  function paths(pages: any[]): string[] {
    return pages.flatMap((p: any) => [p.path, ...paths(p.pages ?? [])]);
  }

  async function pathsOf(spaceId: string): Promise<string[]> {
    return paths((await owner.api.get(`/v1/spaces/${spaceId}/content`)).body.pages);
  }

  /** Polls the run until `done` holds (or 15 s pass). */
  async function waitForRun(runId: string, done: (run: any) => boolean = (run) => !["pending", "in-progress"].includes(run.status)): Promise<any> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await owner.api.get(`${importsPath()}/${runId}`);
      expect(res.status).toBe(200);
      if (done(res.body) || Date.now() > deadline) return res.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function ok(res: { status: number; body: any }): any {
    expect([200, 201, 204]).toContain(res.status);
    return res.body;
  }

  async function startRun(user: TestUser, spaceId: string, source: unknown, extra: Record<string, unknown> = {}) {
    return user.api.post(importsPath(), { source, target: { space: spaceId }, ...extra });
  }

  test("a website import answers 201 pending at once, then completes in the background with the site's pages in one new revision", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Website" });
    const before = await revisionOf(space.id);
    const res = await startRun(editor, space.id, { type: "website", url: `http://127.0.0.1:${port}/` });
    expect(res.status).toBe(201);
    expectSchema("startImportRun", 201, res.body, { latest: true });
    expect(res.body).toMatchObject({ object: "import-run", status: "pending", source: { type: "website", url: `http://127.0.0.1:${port}/` }, target: { space: space.id }, createdBy: editor.id });
    expect(res.headers.get("location")).toBe(res.body.urls.location);
    expect(res.body.urls.location).toMatch(new RegExp(`/v1/org/${orgId}/imports/${res.body.id}$`));

    const run = await waitForRun(res.body.id);
    expect(run.status).toBe("completed");
    expectSchema("getImportRun", 200, run, { latest: true });
    expect(run.startedAt).toEqual(expect.any(String));
    expect(run.completedAt).toEqual(expect.any(String));
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(content.body.parents).toEqual([before]);
    expect(paths(content.body.pages)).toEqual(expect.arrayContaining(["index", "guide", "guide/install"]));
    const install = await owner.api.get(`/v1/spaces/${space.id}/content/path/guide/install`);
    expect(install.body.title).toBe("Installing Acme");
    expect(install.body.markdown).toContain("quokkaflux");
    expect(run.pages).toEqual(
      expect.arrayContaining([
        { id: install.body.id, type: "page", status: "complete", sourceURL: `http://127.0.0.1:${port}/guide/install` },
        expect.objectContaining({ type: "folder", status: "complete" }),
      ]),
    );
  });

  test("Markdown files sent with the request become pages titled by their headings", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Markdown" });
    const res = await startRun(editor, space.id, {
      type: "file",
      files: [dataUrl("text/markdown", "Getting Started.md", "# Getting started\n\nInstall **it**."), dataUrl("text/markdown", "faq.md", "---\ntitle: Questions\n---\nAsk away.")],
    });
    expect(res.status).toBe(201);
    expectSchema("startImportRun", 201, res.body, { latest: true });
    // The run names the files by the keys it gave them, not by their content.
    expect(res.body.source.files).toEqual([`uploads/${res.body.id}/1-Getting Started.md`, `uploads/${res.body.id}/2-faq.md`]);
    expect((await waitForRun(res.body.id)).status).toBe("completed");
    expect(await pathsOf(space.id)).toEqual(["getting-started", "faq"]);
    const page = await owner.api.get(`/v1/spaces/${space.id}/content/path/getting-started`);
    expect(page.body.title).toBe("Getting started");
    expect(page.body.markdown.trim()).toBe("Install **it**.");
    expect((await owner.api.get(`/v1/spaces/${space.id}/content/path/faq`)).body.title).toBe("Questions");
  });

  test("a ZIP's nested folders become nested pages, its HTML is converted, other files are left out", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Zip" });
    const zip = zipUrl({
      "README.md": strToU8("# Welcome\n\nStart here."),
      "guides/README.md": strToU8("# Guides"),
      "guides/install.md": strToU8("# Install\n\nSteps."),
      "guides/advanced/tips.html": strToU8(html("Tips", "<h1>Tips</h1><ul><li>one</li><li>two</li></ul>")),
      "images/logo.png": new Uint8Array([1, 2, 3]),
    });
    const res = await startRun(owner, space.id, { type: "file", files: [zip] });
    expect(res.status).toBe(201);
    const run = await waitForRun(res.body.id);
    expect(run.status).toBe("completed");
    expectSchema("getImportRun", 200, run, { latest: true });
    expect(await pathsOf(space.id)).toEqual(["index", "guides", "guides/install", "guides/advanced", "guides/advanced/tips"]);
    const tips = await owner.api.get(`/v1/spaces/${space.id}/content/path/guides/advanced/tips`);
    expect(tips.body.title).toBe("Tips");
    expect(tips.body.markdown).toContain("-   one");
    expect(run.pages.filter((p: any) => p.type === "folder")).toHaveLength(1);
    expect(run.pages.filter((p: any) => p.type === "page")).toHaveLength(4);
  });

  test("a start retried with the same Idempotency-Key answers the same run and imports once", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Retried" });
    const body = { source: { type: "file", files: [dataUrl("text/markdown", "once.md", "# Once")] }, target: { space: space.id } };
    const first = await owner.api.request("POST", importsPath(), body, { "idempotency-key": `import-${space.id}` });
    const second = await owner.api.request("POST", importsPath(), body, { "idempotency-key": `import-${space.id}` });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect((await waitForRun(first.body.id)).status).toBe("completed");
    expect((await owner.api.get(`${importsPath()}?space=${space.id}`)).body.count).toBe(1);
    expect(await pathsOf(space.id)).toEqual(["once"]);
  });

  test("target.page imports under that page", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Under a page" });
    const first = await startRun(owner, space.id, { type: "file", files: [dataUrl("text/markdown", "parent.md", "# Parent")] });
    await waitForRun(first.body.id);
    const parent = await owner.api.get(`/v1/spaces/${space.id}/content/path/parent`);
    const res = await owner.api.post(importsPath(), { source: { type: "file", files: [dataUrl("text/markdown", "child.md", "# Child")] }, target: { space: space.id, page: parent.body.id } });
    expect(res.status).toBe(201);
    expect(res.body.target).toEqual({ space: space.id, page: parent.body.id });
    expect((await waitForRun(res.body.id)).status).toBe("completed");
    expect(await pathsOf(space.id)).toEqual(["parent", "parent/child"]);
  });

  describe("ZIP limits (400 naming the file, no run made)", () => {
    async function expectRefused(spaceId: string, files: string[], message: RegExp) {
      const runsBefore = (await owner.api.get(`${importsPath()}?space=${spaceId}`)).body.count;
      const res = await startRun(owner, spaceId, { type: "file", files });
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toMatch(message);
      expect((await owner.api.get(`${importsPath()}?space=${spaceId}`)).body.count).toBe(runsBefore);
    }

    test("an entry named with ../ is refused", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Traversal" });
      const before = await revisionOf(space.id);
      await expectRefused(space.id, [zipUrl({ "ok.md": strToU8("# Ok"), "../../etc/evil.md": strToU8("# Evil") })], /source\.files\[0\].*outside the archive/);
      expect(await revisionOf(space.id)).toBe(before);
    });

    test("a ZIP over CONTENT_IMPORT_UPLOAD_MAX_BYTES is refused", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Oversize" });
      const noise = Uint8Array.from({ length: UPLOAD_MAX_BYTES + 10_000 }, (_, i) => (i * 7919) % 251);
      await expectRefused(space.id, [zipUrl({ "big.md": noise }, 0)], /source\.files.*over the 200000 bytes/);
    });

    test("a zip bomb's compression ratio is refused", async () => {
      const space = await createSpace(owner.api, orgId, { title: "Bomb" });
      await expectRefused(space.id, [zipUrl({ "zeros.md": new Uint8Array(5_000_000) })], /source\.files\[0\].*decompresses over 100 times/);
    });
  });

  test("cancelling a running import stops it and leaves the space as it was", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Cancelled" });
    const before = await revisionOf(space.id);
    const res = await startRun(editor, space.id, { type: "website", url: `http://127.0.0.1:${port}/slow/` });
    expect(res.status).toBe(201);
    await waitForRun(res.body.id, (run) => run.status === "in-progress");
    const cancelled = await editor.api.post(`${importsPath()}/${res.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expectSchema("cancelImportRun", 200, cancelled.body, { latest: true });
    expect(cancelled.body.status).toBe("cancelled");
    // Long enough for the whole slow site to have been crawled and committed had the run gone on.
    await new Promise((resolve) => setTimeout(resolve, SLOW_PAGES * SLOW_MS + 1000));
    const after = await owner.api.get(`${importsPath()}/${res.body.id}`);
    expect(after.body.status).toBe("cancelled");
    expect(after.body.pages).toEqual([]);
    expect(await revisionOf(space.id)).toBe(before);
    expect(await pathsOf(space.id)).toEqual([]);

    const again = await editor.api.post(`${importsPath()}/${res.body.id}/cancel`);
    expect(again.status).toBe(400);
    expectErrorBody(400, again.body);
    expect(again.body.error.message).toContain("cancelled");
  });

  test("a run whose start page fails ends failed with a reason and writes nothing", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Failing" });
    const before = await revisionOf(space.id);
    const res = await startRun(owner, space.id, { type: "website", url: `http://127.0.0.1:${port}/nowhere` });
    expect(res.status).toBe(201);
    const run = await waitForRun(res.body.id);
    expect(run.status).toBe("failed");
    expectSchema("getImportRun", 200, run, { latest: true });
    expect(run.reason).toContain("404");
    expect(await revisionOf(space.id)).toBe(before);
  });

  test("listing: most recent first, paged with next.page, filtered by space and status", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Listed" });
    const ids: string[] = [];
    for (const name of ["a", "b", "c"]) {
      const res = await startRun(owner, space.id, { type: "file", files: [dataUrl("text/markdown", `${name}.md`, `# ${name}`)] });
      ids.push(res.body.id);
      await waitForRun(res.body.id);
    }
    const first = await owner.api.get(`${importsPath()}?space=${space.id}&limit=2`);
    expect(first.status).toBe(200);
    expectSchema("listImportRuns", 200, first.body, { latest: true });
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((r: any) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await owner.api.get(`${importsPath()}?space=${space.id}&limit=2&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.items.map((r: any) => r.id)).toEqual([ids[0]]);
    expect(second.body.next).toBeUndefined();

    expect((await owner.api.get(`${importsPath()}?space=${space.id}&status=completed`)).body.count).toBe(3);
    expect((await owner.api.get(`${importsPath()}?space=${space.id}&status=active`)).body.count).toBe(0);
    // Every run of the organization the caller can see, other spaces' too.
    const all = await reader.api.get(importsPath());
    expect(all.status).toBe(200);
    expect(all.body.count).toBeGreaterThan(3);

    const badStatus = await owner.api.get(`${importsPath()}?status=done`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.message).toContain("status");
    const badPage = await owner.api.get(`${importsPath()}?page=nonsense`);
    expect(badPage.status).toBe(400);
    expect(badPage.body.error.message).toContain("page");
  });

  describe("access", () => {
    let spaceId: string;
    let runId: string;

    beforeAll(async () => {
      spaceId = (await createSpace(owner.api, orgId, { title: "Access" })).id;
      runId = (await startRun(owner, spaceId, { type: "file", files: [dataUrl("text/markdown", "x.md", "# X")] })).body.id;
      await waitForRun(runId);
    });

    test("no token is 401 on every operation", async () => {
      const anonymous = owner.api.as(undefined);
      for (const res of [
        await anonymous.post(importsPath(), { source: { type: "website", url: `http://127.0.0.1:${port}/` }, target: { space: spaceId } }),
        await anonymous.get(importsPath()),
        await anonymous.get(`${importsPath()}/${runId}`),
        await anonymous.post(`${importsPath()}/${runId}/cancel`),
      ]) {
        expect(res.status).toBe(401);
        expectErrorBody(401, res.body);
      }
    });

    test("a reader may read and list runs but not start or cancel one (403)", async () => {
      expect((await reader.api.get(`${importsPath()}/${runId}`)).status).toBe(200);
      const started = await startRun(reader, spaceId, { type: "website", url: `http://127.0.0.1:${port}/` });
      expect(started.status).toBe(403);
      expectErrorBody(403, started.body);
      const cancelled = await reader.api.post(`${importsPath()}/${runId}/cancel`);
      expect(cancelled.status).toBe(403);
      expectErrorBody(403, cancelled.body);
    });

    test("another organization's caller gets 404, through either organization's path", async () => {
      for (const res of [
        await startRun(outsider, spaceId, { type: "website", url: `http://127.0.0.1:${port}/` }),
        await outsider.api.get(importsPath()),
        await outsider.api.get(`${importsPath()}/${runId}`),
        await outsider.api.post(`${importsPath()}/${runId}/cancel`),
        // Their own organization does not hold this run or this space.
        await outsider.api.get(`${importsPath(otherOrgId)}/${runId}`),
        await outsider.api.post(importsPath(otherOrgId), { source: { type: "website", url: `http://127.0.0.1:${port}/` }, target: { space: spaceId } }),
      ]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
      expect((await outsider.api.get(importsPath(otherOrgId))).body.items).toEqual([]);
    });

    test("an unknown run is 404", async () => {
      const res = await owner.api.get(`${importsPath()}/nosuchrun`);
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    });
  });

  describe("into a change request (target.changeRequest)", () => {
    let spaceId: string;
    const crPath = (id: string, space = spaceId) => `/v1/spaces/${space}/change-requests/${id}`;
    const newCr = async (subject: string, space = spaceId) => (await owner.api.post(`/v1/spaces/${space}/change-requests`, { subject })).body;
    const intoCr = (changeRequest: string, extra: Record<string, unknown> = {}) => ({
      source: { type: "website", url: `http://127.0.0.1:${port}/` },
      target: { space: spaceId, changeRequest, ...extra },
    });
    beforeAll(async () => {
      spaceId = (await createSpace(owner.api, orgId, { title: "Into a change request" })).id;
    });

    test("the pages are written to the change request's revision in one revision, and main is left as it was", async () => {
      const cr = await newCr("Imported");
      const mainBefore = await revisionOf(spaceId);
      const crBefore = (await owner.api.get(crPath(cr.id))).body.revision;
      const res = await editor.api.post(importsPath(), intoCr(cr.id));
      expect(res.status).toBe(201);
      expectSchema("startImportRun", 201, res.body, { latest: true });
      expect(res.body.target).toEqual({ space: spaceId, changeRequest: cr.id });
      const run = await waitForRun(res.body.id);
      expect(run.status).toBe("completed");
      expectSchema("getImportRun", 200, run, { latest: true });

      const crContent = await owner.api.get(`${crPath(cr.id)}/content`);
      expect(crContent.body.parents).toEqual([crBefore]);
      expect(paths(crContent.body.pages)).toEqual(expect.arrayContaining(["index", "guide", "guide/install"]));
      const install = await owner.api.get(`${crPath(cr.id)}/content/path/guide/install`);
      expect(install.status).toBe(200);
      expect(install.body.markdown).toContain("quokkaflux");
      expect(run.pages).toEqual(expect.arrayContaining([{ id: install.body.id, type: "page", status: "complete", sourceURL: `http://127.0.0.1:${port}/guide/install` }]));
      // Main did not move, and the importer became a contributor of the change request.
      expect(await revisionOf(spaceId)).toBe(mainBefore);
      expect(await pathsOf(spaceId)).not.toContain("guide/install");
      const after = (await owner.api.get(crPath(cr.id))).body;
      expect(after.revision).toBe(crContent.body.id);

      const listed = await owner.api.get(`${importsPath()}?changeRequest=${cr.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((r: any) => r.id)).toEqual([res.body.id]);
      expect((await owner.api.get(`${importsPath()}?space=${spaceId}&changeRequest=nosuchcr`)).body.items).toEqual([]);
    });

    test("files go under target.page of the change request's own pages", async () => {
      const cr = await newCr("Files under a page");
      ok(await owner.api.post(`${crPath(cr.id)}/content`, { changes: [{ operation: "insert_page", title: "Only here", document: { markdown: "# Only here" } }] }));
      const pageId = await pageIdByTitle(owner.api, `${crPath(cr.id)}/content/pages`, "Only here");
      const pagePath = (await owner.api.get(`${crPath(cr.id)}/content/page/${pageId}`)).body.path;
      const res = await editor.api.post(importsPath(), {
        source: { type: "file", files: [dataUrl("text/markdown", "notes.md", "# Notes\n\nCR notes.")] },
        target: { space: spaceId, changeRequest: cr.id, page: pageId },
      });
      expect(res.status).toBe(201);
      expect((await waitForRun(res.body.id)).status).toBe("completed");
      expect(paths((await owner.api.get(`${crPath(cr.id)}/content`)).body.pages)).toContain(`${pagePath}/notes`);
      // The page exists in the change request only: in main, target.page does not name it.
      const inMain = await editor.api.post(importsPath(), { source: { type: "file", files: [dataUrl("text/markdown", "n.md", "# N")] }, target: { space: spaceId, page: pageId } });
      expect(inMain.status).toBe(400);
      expect(inMain.body.error.message).toContain("target.page");
    });

    test("a merged or archived change request is 409, and nothing is started", async () => {
      const merged = await newCr("Merged");
      ok(await owner.api.post(`${crPath(merged.id)}/merge`));
      const archived = await newCr("Archived");
      ok(await owner.api.patch(crPath(archived.id), { status: "archived" }));
      for (const cr of [merged, archived]) {
        const res = await editor.api.post(importsPath(), intoCr(cr.id));
        expect(res.status).toBe(409);
        expectErrorBody(409, res.body);
        expect(res.body.error.message).toContain("target.changeRequest");
        expect((await owner.api.get(`${importsPath()}?changeRequest=${cr.id}`)).body.items).toEqual([]);
      }
    });

    test("another space's change request is 400 naming target.changeRequest; a reader is 403", async () => {
      const otherSpace = (await createSpace(owner.api, orgId, { title: "Elsewhere" })).id;
      const elsewhere = await newCr("Elsewhere", otherSpace);
      const res = await editor.api.post(importsPath(), intoCr(elsewhere.id));
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain("target.changeRequest");
      const cr = await newCr("Not for readers");
      const denied = await reader.api.post(importsPath(), intoCr(cr.id));
      expect(denied.status).toBe(403);
      expectErrorBody(403, denied.body);
    });

    test("a change request merged while the run works fails the run, and nothing is written", async () => {
      const cr = await newCr("Merged meanwhile");
      const crBefore = (await owner.api.get(crPath(cr.id))).body.revision;
      const res = await editor.api.post(importsPath(), { source: { type: "website", url: `http://127.0.0.1:${port}/slow/` }, target: { space: spaceId, changeRequest: cr.id } });
      expect(res.status).toBe(201);
      ok(await owner.api.post(`${crPath(cr.id)}/merge`));
      const run = await waitForRun(res.body.id);
      expect(run.status).toBe("failed");
      expect(run.reason).toMatch(/change request/);
      expect((await owner.api.get(crPath(cr.id))).body.revision).toBe(crBefore);
    });
  });

  describe("bad input is 400 naming the field", () => {
    let spaceId: string;
    beforeAll(async () => {
      spaceId = (await createSpace(owner.api, orgId, { title: "Bad input" })).id;
    });

    test.each([
      ["source", () => ({ target: { space: spaceId } })],
      ["target", () => ({ source: { type: "website", url: "https://example.com/" } })],
      ["source.type", () => ({ source: { type: "notion", url: "https://example.com/" }, target: { space: spaceId } })],
      ["source.url", () => ({ source: { type: "website" }, target: { space: spaceId } })],
      ["source.url", () => ({ source: { type: "website", url: "ftp://example.com/" }, target: { space: spaceId } })],
      ["source.files", () => ({ source: { type: "file", files: [] }, target: { space: spaceId } })],
      ["source.files[0]", () => ({ source: { type: "file", files: ["uploads/some-key.zip"] }, target: { space: spaceId } })],
      ["source.files[1]", () => ({ source: { type: "file", files: [dataUrl("text/markdown", "a.md", "# A"), dataUrl("image/png", "a.png", "png")] }, target: { space: spaceId } })],
      ["target.changeRequest", () => ({ source: { type: "website", url: "https://example.com/" }, target: { space: spaceId, changeRequest: "cr1" } })],
      ["target.page", () => ({ source: { type: "website", url: "https://example.com/" }, target: { space: spaceId, page: "nosuchpage" } })],
    ])("%s", async (field, body) => {
      const res = await owner.api.post(importsPath(), body());
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("a source type GitBook has but this instance does not serve (a Git repository, Notion) is 400 naming source.type", async () => {
      const res = await owner.api.post(importsPath(), { source: { type: "github-wiki", url: "https://github.com/a/b/wiki" }, target: { space: spaceId } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/'source\.type'.*not supported/);
    });
  });
});
