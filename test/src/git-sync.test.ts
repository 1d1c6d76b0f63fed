// Git sync through HTTP against a real smart-HTTP Git server (git http-backend, basic auth), in every process mode.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, withBodies, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { cloneRepo, commitFiles, commitRawEntry, createRepo, git, GIT_PASSWORD, startGitServer, type GitServer } from "./git-sync-server";
import { MODES, startPrivate } from "./modes";

const ENV_KEYS = ["GIT_SYNC_ALLOW_PRIVATE", "GIT_SYNC_MAX_PAGES", "GIT_SYNC_MAX_FILE_BYTES", "GIT_SYNC_SWEEP_INTERVAL_MS"] as const;
const MAX_PAGES = 40;
const MAX_FILE_BYTES = 200_000;

const GITBOOK_REPO = {
  "README.md": "---\ndescription: Start here\n---\n\n# Welcome\n\nHello from **Git**.\n",
  "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n",
  "guide/README.md": "---\nicon: book\n---\n# Guide\n\nThe guide.\n",
  "guide/install.md": "---\nhidden: true\ncover: ../.gitbook/assets/cover.png\ncoverY: 5\n---\n# Install\n\nRun `make`.\n",
  "reference/api.md": "# API\n\nCalls.\n",
  ".gitbook/assets/cover.png": Buffer.from("89504e470d0a1a0a", "hex"),
  "src/index.js": "console.log('not docs')\n",
};

function walkTree(pages: any[]): Array<{ title: string; path: string; depth: number }> {
  const out: Array<{ title: string; path: string; depth: number }> = [];
  const visit = (list: any[], depth: number) => list.forEach((p) => (out.push({ title: p.title, path: p.path, depth }), visit(p.pages ?? [], depth + 1)));
  visit(pages, 0);
  return out;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.each(MODES)("Git sync over %s", (mode) => {
  let sys: RunningSystem;
  let server: GitServer;
  let unlisted: GitServer;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};
  let repoCount = 0;
  const repoName = (label: string) => `${label}-${mode}-${++repoCount}`;

  beforeAll(async () => {
    server = await startGitServer();
    // On 127.0.0.1 too, but not in the allowance: never to be reached.
    unlisted = await startGitServer();
    for (const key of ENV_KEYS) saved[key] = process.env[key];
    process.env.GIT_SYNC_ALLOW_PRIVATE = `127.0.0.1:${server.port}`;
    process.env.GIT_SYNC_MAX_PAGES = String(MAX_PAGES);
    process.env.GIT_SYNC_MAX_FILE_BYTES = String(MAX_FILE_BYTES);
    process.env.GIT_SYNC_SWEEP_INTERVAL_MS = "500";
    sys = await startPrivate(mode); // its own: it sets the environment, or reads the logs and store files
    [owner, editor, reader, outsider] = await Promise.all([1, 2, 3, 4].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
  });

  afterAll(async () => {
    await sys?.stop();
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await server?.close();
    await unlisted?.close();
  });

  async function start_(api: TestUser["api"], spaceId: string, kind: "import" | "export", body: Record<string, unknown>): Promise<string> {
    const res = await api.post(`/v1/spaces/${spaceId}/git/${kind}`, kind === "export" ? { commitMessage: "Export", ...body } : body);
    expect(res.status).toBe(204);
    const location = res.headers.get("location")!;
    expect(location).toMatch(new RegExp(`/v1/spaces/${spaceId}/git/jobs/[^/]+$`));
    return location.split("/").pop()!;
  }

  async function finished(spaceId: string, jobId: string, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await owner.api.get(`/v1/spaces/${spaceId}/git/jobs/${jobId}`);
      expect(res.status).toBe(200);
      if (res.body.status !== "pending" && res.body.status !== "running") return res.body;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${res.body.status} (${res.body.stage}) after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function runJob(spaceId: string, kind: "import" | "export", body: Record<string, unknown>, api = editor.api): Promise<any> {
    const done = await finished(spaceId, await start_(api, spaceId, kind, body));
    return done;
  }

  async function pagesWithMarkdown(spaceId: string, revisionId?: string) {
    const revision = await owner.api.get(revisionId ? `/v1/spaces/${spaceId}/revisions/${revisionId}` : `/v1/spaces/${spaceId}/content`);
    expect(revision.status).toBe(200);
    const out: Array<{ title: string; path: string; depth: number; markdown: string; description?: string }> = [];
    const visit = async (list: any[], depth: number) => {
      for (const p of list) {
        const page = await owner.api.get(`/v1/spaces/${spaceId}/content/page/${p.id}`);
        out.push({ title: p.title, path: p.path, depth, markdown: page.body.markdown, ...(p.description ? { description: p.description } : {}) });
        await visit(p.pages ?? [], depth + 1);
      }
    };
    await visit(revision.body.pages, 0);
    return { revision: revision.body, pages: out };
  }

  test("imports GitBook's layout: SUMMARY.md tree, README first, groups, front matter, assets, revision.git and page.git", async () => {
    const name = repoName("gitbook");
    createRepo(server, name, GITBOOK_REPO);
    const head = git(join(server.root, `${name}.git`), "rev-parse", "refs/heads/main");
    const space = await createSpace(owner.api, orgId, { title: "Imported" });
    const job = await runJob(space.id, "import", {
      url: server.url(name),
      ref: "refs/heads/main",
      repoCommitURL: "https://git.example.com/acme/docs/commit",
      repoTreeURL: "https://git.example.com/acme/docs/tree/main",
      gitInfo: { provider: "github", url: "https://github.com/acme/docs" },
    });
    expect(job).toMatchObject({ status: "succeeded", state: "success", direction: "import", commit: head, pages: 5 });

    const { revision, pages } = await pagesWithMarkdown(space.id);
    expect(revision.id).toBe(job.revision);
    expectSchema("getCurrentRevision", 200, withBodies(revision));
    expect(walkTree(revision.pages)).toEqual([
      { title: "Welcome", path: "welcome", depth: 0 },
      { title: "Guide", path: "guide", depth: 0 },
      { title: "Install", path: "guide/install", depth: 1 },
      { title: "Reference", path: "reference", depth: 0 },
      { title: "API", path: "reference/api", depth: 1 },
    ]);
    expect(pages.find((p) => p.path === "welcome")).toMatchObject({ description: "Start here", markdown: expect.stringContaining("Hello from **Git**.") });
    expect(revision.git).toEqual({ oid: head, message: "Initial content", createdByService: false, createdByGitBook: false, ref: "refs/heads/main", url: `https://git.example.com/acme/docs/commit/${head}` });
    const guide = revision.pages[1];
    expect(guide).toMatchObject({ icon: "book", git: { oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: "guide/README.md" } });
    const install = guide.pages[0];
    expect(install.hidden).toBe(true);
    expect(revision.files).toEqual([expect.objectContaining({ name: "cover.png", contentType: "image/png", git: { oid: expect.any(String), path: ".gitbook/assets/cover.png" } })]);
    expect(install.cover).toMatchObject({ ref: { kind: "file", file: revision.files[0].id } });

    const info = await reader.api.get(`/v1/spaces/${space.id}/git/info`);
    expect(info.status).toBe(200);
    expectSchema("getSpaceGitInfo", 200, info.body);
    expect(info.body).toMatchObject({ repoName: name, installationProvider: "github", integration: "git-sync", url: "https://github.com/acme/docs" });
    expect(info.body.operation).toMatchObject({ id: job.id, state: "success" });

    // The space itself carries the same GitSyncState (pushed to content by git-sync).
    const got = await reader.api.get(`/v1/spaces/${space.id}`);
    expectSchema("getSpaceById", 200, got.body);
    expect(got.body.gitSync).toEqual({ repoName: name, installationProvider: "github", integration: "git-sync", url: "https://github.com/acme/docs", updatedAt: expect.any(String) });
  });

  test("scaled out, wake-ups travel over NATS JetStream (no fallback to the sweep)", async () => {
    const logs = (sys as unknown as { logs?: string[] }).logs;
    if (mode === "nats") expect(logs?.join("") ?? "").not.toMatch(/JetStream is not available|channel refused a wake-up/);
    const name = repoName("wake");
    createRepo(server, name, { "README.md": "# Woken\n" });
    const space = await createSpace(owner.api, orgId, { title: "Wake" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
  });

  test("imports without SUMMARY.md from the folders, and a monorepo's project directory", async () => {
    const name = repoName("mono");
    createRepo(server, name, {
      "README.md": "# Monorepo root (not docs)\n",
      "packages/app/index.js": "1\n",
      "packages/docs/README.md": "# Docs home\n\nHome.\n",
      "packages/docs/setup.md": "# Setup\n\nSteps.\n",
      "packages/docs/advanced/README.md": "# Advanced\n",
      "packages/docs/advanced/tuning.md": "# Tuning\n",
    });
    const space = await createSpace(owner.api, orgId, { title: "Mono" });
    const job = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main", repoProjectDirectory: "packages/docs" });
    expect(job.status).toBe("succeeded");
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(walkTree(content.body.pages)).toEqual([
      { title: "Docs home", path: "docs-home", depth: 0 },
      { title: "Advanced", path: "advanced", depth: 0 },
      { title: "Tuning", path: "advanced/tuning", depth: 1 },
      { title: "Setup", path: "setup", depth: 0 },
    ]);
    expect(content.body.pages[0].git.path).toBe("packages/docs/README.md");
  });

  test("exports GitBook's layout and importing the export gives back the same tree and markdown", async () => {
    const source = await createSpace(owner.api, orgId, { title: "Source" });
    const rootId = "p-root";
    const res = await sys.admin.post(`/v1/_test/spaces/${source.id}/changes`, {
      changes: [
        { type: "insert_page", id: rootId, title: "Home", markdown: "Welcome home.\n\n* one\n* two\n", description: "The start" },
        { type: "insert_page", id: "p-guide", title: "Guide", markdown: "All about it.\n" },
        { type: "insert_page", parent: "p-guide", title: "Install it", markdown: "Run `x`.\n\n```sh\nmake\n```\n" },
        { type: "insert_page", parent: "p-guide", title: "Configure", markdown: "Edit the file.\n", hidden: true },
        { type: "insert_page", id: "p-ref", title: "Reference", markdown: "" },
        { type: "insert_page", parent: "p-ref", title: "API", markdown: "Calls.\n" },
      ],
    });
    expect(res.status).toBe(201);
    const name = repoName("export");
    createRepo(server, name, {});
    const exported = await runJob(source.id, "export", { url: server.url(name), ref: "refs/heads/main", commitMessage: "GITBOOK-1: First export" });
    expect(exported).toMatchObject({ status: "succeeded", direction: "export", commit: expect.stringMatching(/^[0-9a-f]{40}$/) });

    const clone = cloneRepo(server, name);
    expect(git(clone, "log", "-1", "--format=%s")).toBe("GITBOOK-1: First export");
    expect(git(clone, "rev-parse", "HEAD")).toBe(exported.commit);
    const files = git(clone, "ls-files").split("\n").sort();
    expect(files).toEqual([".gitbook.yaml", "README.md", "SUMMARY.md", "guide/README.md", "guide/configure.md", "guide/install-it.md", "reference/api.md"]);
    expect(readFileSync(join(clone, "SUMMARY.md"), "utf8")).toBe(
      "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install it](guide/install-it.md)\n  * [Configure](guide/configure.md)\n\n## Reference\n\n* [API](reference/api.md)\n",
    );
    expect(readFileSync(join(clone, "README.md"), "utf8")).toBe("---\ndescription: The start\n---\n\n# Home\n\nWelcome home.\n\n* one\n* two\n");
    expect(readFileSync(join(clone, "guide/configure.md"), "utf8")).toContain("hidden: true");

    const copy = await createSpace(owner.api, orgId, { title: "Copy" });
    const imported = await runJob(copy.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(imported.status).toBe("succeeded");
    const a = await pagesWithMarkdown(source.id);
    const b = await pagesWithMarkdown(copy.id);
    expect(b.pages).toEqual(a.pages);
    expect(b.revision.git).toMatchObject({ oid: exported.commit, message: "GITBOOK-1: First export", createdByService: true });

    // A second export with nothing changed pushes nothing new; the branch keeps its commit.
    const again = await runJob(source.id, "export", { url: server.url(name), ref: "refs/heads/main" });
    expect(again).toMatchObject({ status: "succeeded", commit: exported.commit });
  });

  test("export keeps a monorepo's other files (and markdown it never imported) and writes under the project directory", async () => {
    const source = await createSpace(owner.api, orgId, { title: "Mono export" });
    await sys.admin.post(`/v1/_test/spaces/${source.id}/changes`, { changes: [{ type: "insert_page", title: "Only page", markdown: "Text.\n" }] });
    const name = repoName("mono-export");
    createRepo(server, name, { "package.json": "{}\n", "docs/old.md": "# Old\n", "docs/logo.txt": "keep\n" });
    const job = await runJob(source.id, "export", { url: server.url(name), ref: "refs/heads/main", repoProjectDirectory: "docs" });
    expect(job.status).toBe("succeeded");
    const clone = cloneRepo(server, name);
    // docs/old.md was never imported by the space: an export leaves it; the project directory had
    // files already, so no .gitbook.yaml is added either.
    expect(git(clone, "ls-files").split("\n").sort()).toEqual(["docs/README.md", "docs/SUMMARY.md", "docs/logo.txt", "docs/old.md", "package.json"]);
  });

  test("jobs of a space run in timestamp order; an older event arriving late is skipped", async () => {
    const name = repoName("order");
    createRepo(server, name, { "README.md": "# Main branch\n" });
    for (const branch of ["b100", "b200", "b300"]) commitFiles(server, name, { "README.md": `# From ${branch}\n` }, branch);
    const space = await createSpace(owner.api, orgId, { title: "Ordered" });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const ids = [
      [300, await start_(editor.api, space.id, "import", { url: server.url(name), ref: "refs/heads/b300", timestamp: at(30) })],
      [100, await start_(editor.api, space.id, "import", { url: server.url(name), ref: "refs/heads/b100", timestamp: at(10) })],
      [200, await start_(editor.api, space.id, "import", { url: server.url(name), ref: "refs/heads/b200", timestamp: at(20) })],
    ] as const;
    const jobs = new Map<number, any>();
    for (const [ts, id] of ids) jobs.set(ts, await finished(space.id, id));
    expect(jobs.get(300)!.status).toBe("succeeded");
    // The older ones either ran before it (in timestamp order) or were skipped: never after it.
    const ran = [...jobs.entries()].filter(([, j]) => j.status === "succeeded").sort((x, y) => x[1].completedAt.localeCompare(y[1].completedAt)).map(([ts]) => ts);
    expect(ran).toEqual([...ran].sort((x, y) => x - y));
    for (const [, j] of jobs) expect(["succeeded", "skipped"]).toContain(j.status);
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(content.body.pages.map((p: any) => p.title)).toEqual(["From b300"]);

    const late = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/b100", timestamp: at(5) });
    expect(late).toMatchObject({ status: "skipped", state: "failure" });
    expect((await owner.api.get(`/v1/spaces/${space.id}/content`)).body.pages.map((p: any) => p.title)).toEqual(["From b300"]);
  });

  test("a standalone import makes a revision without moving the space's content", async () => {
    const name = repoName("standalone");
    createRepo(server, name, { "README.md": "# Standalone\n\nSide.\n" });
    const space = await createSpace(owner.api, orgId, { title: "Standalone" });
    const before = (await owner.api.get(`/v1/spaces/${space.id}`)).body.revision;
    const job = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main", standalone: true });
    expect(job.status).toBe("succeeded");
    expect(job.revision).not.toBe(before);
    expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
    const revision = await owner.api.get(`/v1/spaces/${space.id}/revisions/${job.revision}`);
    expect(revision.body.pages.map((p: any) => p.title)).toEqual(["Standalone"]);
  });

  test("repoCacheID reuses the clone: a second import of the same commit only looks the branch up", async () => {
    const name = repoName("cache");
    createRepo(server, name, { "README.md": "# Cached\n" });
    const space = await createSpace(owner.api, orgId, { title: "Cached" });
    const packs = () => server.requests.filter((r) => r.startsWith(`POST /${name}.git/git-upload-pack`)).length;
    const posts = async (body: Record<string, unknown>) => {
      const before = packs();
      expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main", force: true, ...body })).status).toBe("succeeded");
      return packs() - before;
    };
    // One POST lists the branch (protocol v2 ls-refs), one fetches the pack.
    expect(await posts({ repoCacheID: "cache-1" })).toBe(2);
    expect(await posts({ repoCacheID: "cache-1" })).toBe(1);
    expect(await posts({})).toBe(2);
  });

  test("credentials work for the clone and never appear in stored URLs, git config, job status, info or data files", async () => {
    const name = repoName("secret");
    createRepo(server, name, { "README.md": "# Secret\n" });
    const space = await createSpace(owner.api, orgId, { title: "Secret" });
    const ok = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main", repoCacheID: "keep" });
    expect(ok.status).toBe("succeeded");
    const wrong = await runJob(space.id, "import", { url: server.url(name, { username: "gitbot", password: "not-the-Pa55" }), ref: "refs/heads/main" });
    expect(wrong).toMatchObject({ status: "failed", errorCode: "auth" });
    const exportWrong = await runJob(space.id, "export", { url: server.url(name, { username: "gitbot", password: "not-the-Pa55" }), ref: "refs/heads/main" });
    expect(exportWrong.status).toBe("failed");

    const seen = JSON.stringify([ok, wrong, exportWrong, (await owner.api.get(`/v1/spaces/${space.id}/git/info`)).body, (await owner.api.get(`/v1/spaces/${space.id}/content`)).body]);
    for (const secret of [GIT_PASSWORD, "not-the-Pa55", encodeURIComponent(GIT_PASSWORD)]) expect(seen).not.toContain(secret);
    expect(ok.url).toBe(server.url(name, false));
    // Every file the services wrote (stores, clone cache, git config), and every log line.
    for (const file of filesUnder(sys.dataDir)) {
      const text = readFileSync(file).toString("latin1");
      expect({ file, leaked: text.includes(GIT_PASSWORD) || text.includes("not-the-Pa55") }).toEqual({ file, leaked: false });
    }
    const logs = (sys as unknown as { logs?: string[] }).logs;
    if (Array.isArray(logs)) expect(logs.join("")).not.toContain(GIT_PASSWORD);
  });

  test("clone targets obey the SSRF rules: a private address outside the allowance fails the job", async () => {
    createRepo(unlisted, "private", { "README.md": "# Private\n" });
    const space = await createSpace(owner.api, orgId, { title: "SSRF" });
    const before = unlisted.requests.length;
    const job = await runJob(space.id, "import", { url: unlisted.url("private"), ref: "refs/heads/main" });
    expect(job).toMatchObject({ status: "failed", state: "failure" });
    expect(job.error).toMatch(/private or reserved/);
    const metadata = await runJob(space.id, "export", { url: "http://169.254.169.254/latest.git", ref: "refs/heads/main" });
    expect(metadata.status).toBe("failed");
    expect(unlisted.requests.length).toBe(before);
  });

  test.each([
    ["a '..' entry", ".."],
    ["a '.GIT' directory", ".GIT"],
    ["a '.git.' directory", ".git."],
  ])("refuses a repository with %s", async (_label, entry) => {
    const name = repoName("unsafe");
    createRepo(server, name, {});
    commitRawEntry(server, name, entry);
    const space = await createSpace(owner.api, orgId, { title: "Unsafe" });
    const before = (await owner.api.get(`/v1/spaces/${space.id}`)).body.revision;
    const job = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(job).toMatchObject({ status: "failed", errorCode: "unsafe-entry" });
    expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
  });

  test("refuses a symlink that points out of the tree, and keeps serving", async () => {
    const name = repoName("symlink");
    createRepo(server, name, { "README.md": "# Hi\n", "leak.md": { symlink: "../../../../etc/passwd" } });
    const space = await createSpace(owner.api, orgId, { title: "Symlink" });
    const job = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(job).toMatchObject({ status: "failed", errorCode: "unsafe-entry" });
    expect((await owner.api.get(`/v1/spaces/${space.id}`)).status).toBe(200);
  });

  test("a repository over the limits fails its job with a clear status; the service stays up", async () => {
    const many: Record<string, string> = { "README.md": "# Many\n" };
    for (let i = 0; i < MAX_PAGES + 5; i++) many[`p${i}.md`] = `# Page ${i}\n`;
    const name = repoName("many");
    createRepo(server, name, many);
    const big = repoName("big");
    createRepo(server, big, { "README.md": "# Big\n", ".gitbook/assets/big.bin": Buffer.alloc(MAX_FILE_BYTES + 1, 7) });
    const space = await createSpace(owner.api, orgId, { title: "Limits" });
    const tooMany = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(tooMany).toMatchObject({ status: "failed", errorCode: "too-many-pages", error: expect.stringContaining(String(MAX_PAGES)) });
    const tooBig = await runJob(space.id, "import", { url: server.url(big), ref: "refs/heads/main" });
    expect(tooBig).toMatchObject({ status: "failed", errorCode: "too-large" });
    expect((await owner.api.get(`/v1/spaces/${space.id}/git/info`)).status).toBe(200);
  });

  test("who may do what: edit to start jobs, read for info, 404 when hidden, 400 naming the field", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Rules" });
    const body = { url: server.url("nothing"), ref: "refs/heads/main" };
    const noInfo = await owner.api.get(`/v1/spaces/${space.id}/git/info`);
    expect(noInfo.status).toBe(404);
    expectErrorBody(404, noInfo.body);
    expect((await reader.api.post(`/v1/spaces/${space.id}/git/import`, body)).status).toBe(403);
    expect((await outsider.api.post(`/v1/spaces/${space.id}/git/import`, body)).status).toBe(404);
    expect((await outsider.api.get(`/v1/spaces/${space.id}/git/info`)).status).toBe(404);
    for (const [field, bad] of [
      ["ref", { ...body, ref: "main" }],
      ["url", { ...body, url: "ftp://example.com/x.git" }],
      ["repoProjectDirectory", { ...body, repoProjectDirectory: "../up" }],
      ["timestamp", { ...body, timestamp: "yesterday" }],
      ["commitMessage", { url: body.url, ref: body.ref }],
    ] as const) {
      const kind = field === "commitMessage" ? "export" : "import";
      const res = await editor.api.post(`/v1/spaces/${space.id}/git/${kind}`, bad);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(res.body.error.message).toContain(field);
      expect(JSON.stringify(res.body)).not.toContain(GIT_PASSWORD);
    }
  });

  test("DELETE …/git/legacy-installation clears the space's Git sync (204)", async () => {
    const name = repoName("legacy");
    createRepo(server, name, { "README.md": "# Legacy\n" });
    const space = await createSpace(owner.api, orgId, { title: "Legacy" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    expect((await editor.api.delete(`/v1/spaces/${space.id}/git/legacy-installation`)).status).toBe(403);
    expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.gitSync).toMatchObject({ repoName: name, integration: "git-sync" });
    expect((await owner.api.delete(`/v1/spaces/${space.id}/git/legacy-installation`)).status).toBe(204);
    expect((await owner.api.get(`/v1/spaces/${space.id}/git/info`)).status).toBe(404);
    const got = await owner.api.get(`/v1/spaces/${space.id}`);
    expectSchema("getSpaceById", 200, got.body);
    expect(got.body.gitSync).toBeUndefined();
    // A duplicate of a synced space is not synced.
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const copy = await owner.api.post(`/v1/spaces/${space.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.gitSync).toBeUndefined();
  });

  /** The export job a merge queued (`merge-<changeRequestId>`), once it ended. */
  async function mergeExport(spaceId: string, changeRequestId: string, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await owner.api.get(`/v1/spaces/${spaceId}/git/jobs/merge-${changeRequestId}`);
      if (res.status === 200 && res.body.status !== "pending" && res.body.status !== "running") return res.body;
      if (Date.now() > deadline) throw new Error(`no finished export for change request ${changeRequestId} after ${timeoutMs} ms (last: ${res.status})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function mergedChangeRequest(spaceId: string, subject: string | undefined, page: string): Promise<any> {
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, subject === undefined ? {} : { subject });
    expect(created.status).toBe(201);
    const edited = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/content`, {
      changes: [{ operation: "insert_page", title: page, document: { markdown: `About ${page}.` } }],
    });
    expect(edited.status).toBe(200);
    const merged = await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/merge`);
    expect(merged.status).toBe(200);
    return created.body;
  }

  test("a merged change request is exported to the space's export repository as GITBOOK-<number>: <subject>", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Merges" });
    await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: [{ type: "insert_page", title: "Home", markdown: "Home.\n" }] });
    const name = repoName("merge");
    createRepo(server, name, {});
    // Not set up for export yet: the merge changes the space only.
    const before = await mergedChangeRequest(space.id, "Before the sync", "Early");
    expect((await owner.api.get(`/v1/spaces/${space.id}/git/info`)).status).toBe(404);

    const setUp = await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main", commitMessage: "Set up the export", repoCacheID: "merges" });
    expect(setUp.status).toBe("succeeded");
    const faq = await mergedChangeRequest(space.id, "Add the FAQ", "FAQ");
    const job = await mergeExport(space.id, faq.id);
    expect(job).toMatchObject({ status: "succeeded", direction: "export", changeRequest: { id: faq.id, number: faq.number }, url: server.url(name, false) });
    expect(faq.number).toBe(before.number + 1);
    const clone = cloneRepo(server, name);
    expect(git(clone, "log", "--format=%s").split("\n")).toEqual([`GITBOOK-${faq.number}: Add the FAQ`, "Set up the export"]);
    expect(git(clone, "rev-parse", "HEAD")).toBe(job.commit);
    expect(readFileSync(join(clone, "SUMMARY.md"), "utf8")).toContain("[FAQ](faq.md)");

    // Without a subject the message says so; an explicit export still takes its own message.
    const untitled = await mergedChangeRequest(space.id, undefined, "Untitled");
    expect((await mergeExport(space.id, untitled.id)).status).toBe("succeeded");
    await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: [{ type: "insert_page", title: "Direct", markdown: "Edited live.\n" }] });
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main", commitMessage: "Explicit message" })).status).toBe("succeeded");
    const after = cloneRepo(server, name);
    expect(git(after, "log", "--format=%s").split("\n").slice(0, 2)).toEqual(["Explicit message", `GITBOOK-${untitled.number}: No subject`]);
  });

  test("redirects of .gitbook.yaml are kept per space and exported back; links to repository files use repoTreeURL", async () => {
    const tree = "https://git.example.com/acme/docs/tree/main";
    const name = repoName("redirects");
    createRepo(server, name, {
      ".gitbook.yaml": "root: ./\nredirects:\n  old/setup: guide/install.md\n  previous: README.md\n",
      "README.md": "# Home\n\nSee [the script](scripts/build.sh) and [install](guide/install.md).\n",
      "guide/install.md": "# Install\n\nRun [the script](../scripts/build.sh#L3).\n",
      "scripts/build.sh": "make\n",
    });
    const space = await createSpace(owner.api, orgId, { title: "Redirects" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main", repoTreeURL: tree })).status).toBe("succeeded");
    const info = await owner.api.get(`/v1/spaces/${space.id}/git/info`);
    expectSchema("getSpaceGitInfo", 200, info.body);
    expect(info.body.redirects).toEqual({ "old/setup": "guide/install.md", previous: "README.md" });
    const { pages } = await pagesWithMarkdown(space.id);
    expect(pages.find((p) => p.path === "home")?.markdown).toContain(`[the script](${tree}/scripts/build.sh) and [install](guide/install.md)`);
    expect(pages.find((p) => p.path === "guide/install")?.markdown).toContain(`[the script](${tree}/scripts/build.sh#L3)`);

    // A new repository gets them in the .gitbook.yaml export writes; one with its own file gets them merged in.
    const fresh = repoName("redirects-fresh");
    createRepo(server, fresh, {});
    expect((await runJob(space.id, "export", { url: server.url(fresh), ref: "refs/heads/main", repoTreeURL: tree })).status).toBe("succeeded");
    const freshClone = cloneRepo(server, fresh);
    expect(readFileSync(join(freshClone, ".gitbook.yaml"), "utf8")).toMatch(/redirects:\n {2}old\/setup: guide\/install.md\n {2}previous: README.md/);
    expect(readFileSync(join(freshClone, "README.md"), "utf8")).toContain("[the script](scripts/build.sh)");
    const kept = repoName("redirects-kept");
    createRepo(server, kept, { ".gitbook.yaml": "# ours\nroot: ./\n" });
    expect((await runJob(space.id, "export", { url: server.url(kept), ref: "refs/heads/main", force: true })).status).toBe("succeeded");
    const keptYaml = readFileSync(join(cloneRepo(server, kept), ".gitbook.yaml"), "utf8");
    expect(keptYaml).toContain("# ours");
    expect(keptYaml).toContain("old/setup: guide/install.md");

    // Round trip: importing the export gives the same redirects.
    const copy = await createSpace(owner.api, orgId, { title: "Redirects copy" });
    expect((await runJob(copy.id, "import", { url: server.url(fresh), ref: "refs/heads/main" })).status).toBe("succeeded");
    expect((await owner.api.get(`/v1/spaces/${copy.id}/git/info`)).body.redirects).toEqual({ "old/setup": "guide/install.md", previous: "README.md" });
  });
});
