// Git sync on the shapes real GitBook repositories have and our first fixtures did not (issue 42):
// dotted and non-ASCII paths, many `.gitbook.yaml` redirects with dotted and `$` sources, pages outside
// SUMMARY.md, nested READMEs, images outside `.gitbook/assets`, folded front matter, a singular heading
// under a plural SUMMARY.md title, `.gitignore` and `license.md` (test/fixtures/git-sync/shapes). Each
// import succeeds, every export with no edit gives an empty `git diff` (the git CLI's), with or without
// a sync state, and one edit changes exactly one file.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { commitFiles, createRepo, git, startGitServer, type GitServer, gitJobs } from "./git-sync-server";
import { MODES, start } from "./modes";

const FIXTURE = join(__dirname, "..", "fixtures", "git-sync", "shapes");

function filesOf(dir: string, root = dir): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesOf(path, root));
    else out[relative(root, path).split("\\").join("/")] = readFileSync(path);
  }
  return out;
}

describe.each(MODES)("Git sync of repositories of every shape over %s", (mode) => {
  let sys: RunningSystem;
  let finished: ReturnType<typeof gitJobs>["finished"];
  let runJob: ReturnType<typeof gitJobs>["runJob"];
  let server: GitServer;
  let owner: TestUser;
  let editor: TestUser;
  let orgId: string;
  let count = 0;
  const files = filesOf(FIXTURE);

  beforeAll(async () => {
    server = await startGitServer({ shared: true });
    sys = await start(mode);
    [owner, editor] = await Promise.all([1, 2].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    ({ finished, runJob } = gitJobs(owner.api, editor.api));
  });

  afterAll(async () => {
    await sys?.stop();
    await server?.close();
  });



  async function mergeEdit(spaceId: string, changes: unknown[]): Promise<string> {
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Edit" });
    expect(created.status).toBe(201);
    expect((await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/content`, { changes })).status).toBe(200);
    expect((await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/merge`)).status).toBe(200);
    return created.body.id;
  }

  function find(pages: any[], title: string): any {
    for (const page of pages) {
      if (page.title === title) return page;
      const inner = find(page.pages ?? [], title);
      if (inner) return inner;
    }
    return undefined;
  }

  function repo(): { name: string; bare: string; head: string } {
    const name = `shapes-${mode}-${++count}`;
    const bare = createRepo(server, name, files);
    return { name, bare, head: git(bare, "rev-parse", "refs/heads/main") };
  }

  const diff = (bare: string, a: string, b: string) => git(bare, "diff", "--name-status", "--no-renames", a, b);

  test("imports with dotted, $ and non-ASCII redirect sources; exports with no edit give an empty diff; one edit changes one file", async () => {
    const { name, bare, head } = repo();
    const space = await createSpace(owner.api, orgId, { title: "Shapes" });
    expect(await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: head, pages: 12 });

    const info = await owner.api.get(`/v1/spaces/${space.id}/git/info`);
    expect(info.status).toBe(200);
    expect(Object.keys(info.body.redirects)).toHaveLength(40);
    expect(info.body.redirects).toMatchObject({ "2.1-setup/overview": "2.1-setup/overview.md", "b.-appendix.md": "b.-appendix.md", $legacy: "README.md", "2019": "changelog.md", "1.10": "changelog.md", "docs/安装": "安装/README.md" });
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(find(content.body.pages, "Overview").git.path).toBe("2.1-setup/overview.md");
    expect(find(content.body.pages, "Appendix").git.path).toBe("b.-appendix.md");
    expect(find(content.body.pages, "配置 ünïcode").git.path).toBe("安装/配置.md");
    // `## Guides` is a group; the page of the same title inside it is guides/README.md.
    const group = content.body.pages.find((p: any) => p.type === "group" && p.title === "Guides");
    expect(group.pages[0]).toMatchObject({ title: "Guides", git: { path: "guides/README.md" } });

    // No edit: a new branch starts at the imported commit, the same branch gets no commit.
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/roundtrip" })).status).toBe("succeeded");
    expect(diff(bare, "main", "roundtrip")).toBe("");
    expect(await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: head });

    // One edit of the page whose heading differs from its SUMMARY.md title: that file only, its own heading kept.
    const guides = group.pages[0];
    const cr = await mergeEdit(space.id, [{ operation: "update_page", page: guides.id, document: { markdown: "Rewritten.\n" } }]);
    expect((await finished(space.id, `merge-${cr}`)).status).toBe("succeeded");
    expect(diff(bare, head, "main")).toBe("M\tguides/README.md");
    expect(git(bare, "show", "main:guides/README.md")).toBe("# Guide\n\nRewritten.");

    // A retitled page: SUMMARY.md's entry changes, the file's own heading (not the old title) stays.
    const afterEdit = git(bare, "rev-parse", "refs/heads/main");
    const cr2 = await mergeEdit(space.id, [{ operation: "update_page", page: guides.id, title: "All the guides" }]);
    expect((await finished(space.id, `merge-${cr2}`)).status).toBe("succeeded");
    expect(diff(bare, afterEdit, "main")).toBe("M\tSUMMARY.md");
    const summary = git(bare, "show", "main:SUMMARY.md");
    expect(summary.split("\n")[0]).toBe("# Summary");
    expect(summary).toContain("* [All the guides](guides/README.md)");
  });

  test("without a sync state (link removed, as after a half-failed import) an export deletes and rewrites nothing it has no record of", async () => {
    const { name, bare, head } = repo();
    const space = await createSpace(owner.api, orgId, { title: "Lost state" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    expect((await owner.api.delete(`/v1/spaces/${space.id}/git/legacy-installation`)).status).toBe(204);
    expect((await owner.api.get(`/v1/spaces/${space.id}/git/info`)).status).toBe(404);

    // A new branch starts from the default branch; nothing differs.
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/nostate" })).status).toBe("succeeded");
    expect(diff(bare, "main", "nostate")).toBe("");
    expect(await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: head });

    // With an edit and again no state: exactly that file.
    expect((await owner.api.delete(`/v1/spaces/${space.id}/git/legacy-installation`)).status).toBe(204);
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    const overview = find(content.body.pages, "Overview");
    await mergeEdit(space.id, [{ operation: "update_page", page: overview.id, document: { markdown: "New overview.\n" } }]);
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/edited" })).status).toBe("succeeded");
    expect(diff(bare, "main", "edited")).toBe("M\t2.1-setup/overview.md");
    // The folded description and the heading as written.
    expect(git(bare, "show", "edited:2.1-setup/overview.md")).toBe("---\ndescription: >-\n  The overview, folded\n  across two lines.\nicon: book\n---\n\n# Overview\n\nNew overview.");
  });

  test("a space made in the app and exported to an existing repository adds its pages and leaves every other file alone", async () => {
    const { name, bare } = repo();
    const space = await createSpace(owner.api, orgId, { title: "From the app" });
    await mergeEdit(space.id, [{ operation: "insert_page", title: "Changelog", document: { markdown: "Written in the app.\n" } }]);
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/from-app" })).status).toBe("succeeded");
    const changes = diff(bare, "main", "from-app").split("\n").filter(Boolean);
    // Nothing deleted, .gitbook.yaml and every page file untouched; the app's page takes a free path.
    expect(changes.filter((c) => !c.startsWith("A\t"))).toEqual(["M\tSUMMARY.md"]);
    // The space's first page is its README, and README.md is the repository's: it takes a free path.
    expect(changes).toContain("A\tREADME-2.md");
    expect(git(bare, "show", "from-app:SUMMARY.md").split("\n")[0]).toBe("# Summary");
  });

  test("a failed import leaves the space and its link as they were, and says which file broke which rule", async () => {
    const { name, head } = repo();
    const space = await createSpace(owner.api, orgId, { title: "All or nothing" });
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const before = await owner.api.get(`/v1/spaces/${space.id}/content`);
    const infoBefore = await owner.api.get(`/v1/spaces/${space.id}/git/info`);

    // A file name git keeps but no file system could (300 characters), added with git's plumbing.
    const longName = `${"x".repeat(296)}.png`;
    commitFiles(server, name, { ...files, "README.md": "# Changed\n" });
    const bare = join(server.root, `${name}.git`);
    const env = { ...process.env, GIT_INDEX_FILE: join(bare, "scratch-index"), GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };
    const run = (args: string[], input?: string) => execFileSync("git", args, { cwd: bare, env, input, encoding: "utf8" }).trim();
    run(["read-tree", "main"]);
    const blob = run(["hash-object", "-w", "--stdin"], "png");
    run(["update-index", "--add", "--cacheinfo", `100644,${blob},.gitbook/assets/${longName}`]);
    run(["update-ref", "refs/heads/main", run(["commit-tree", run(["write-tree"]), "-p", "main", "-m", "long name"])]);
    const failed = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(failed).toMatchObject({ status: "failed", errorCode: "layout" });
    expect(failed.error).toContain(`.gitbook/assets/${longName}`);
    expect(failed.error).toContain("255 characters");
    const after = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(after.body.id).toBe(before.body.id);
    const infoAfter = await owner.api.get(`/v1/spaces/${space.id}/git/info`);
    expect(infoAfter.body.redirects).toEqual(infoBefore.body.redirects);
    // The link still holds the commit of the import that succeeded: the branch has moved since.
    const conflict = await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" });
    expect(conflict).toMatchObject({ status: "failed", errorCode: "conflict" });
    expect(git(bare, "rev-parse", "refs/heads/main")).not.toBe(head);
  });
});
