// Git sync of GitBook's reusable content (`.gitbook/includes/*.md`) and variables (`.gitbook/vars.yaml`, page
// front matter `vars`), issue 42: an import makes them the space's reusable contents and variables, pages'
// `{% include %}` become reusable-content blocks and expressions show the value, GitBook's reads of them answer
// in its schema, an export with no edit gives an empty `git diff` and an edit changes only the files it touches; a
// reusable content deleted on either side is deleted on the other, and no file the space did not write goes.
import { createOrg, createSpace, createUser, expectComponent, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRepo, git, gitJobs, startGitServer, type GitServer } from "./git-sync-server";
import { MODES, start } from "./modes";

const INCLUDE = '---\ntitle: Reusable Block\n---\n\nTop of the block\n\nThis is for product <code class="expression">space.vars.PRODUCT_NAME</code>.\n';

const FILES: Record<string, string> = {
  ".gitbook.yaml": "root: ./docs/\n",
  "LICENSE": "Not ours.\n",
  "docs/README.md": '---\nvars:\n  edition: Community\n---\n\n# Home\n\n{% include ".gitbook/includes/reusable-block.md" %}\n\nEdition: {{ page.vars.edition }}, product <code class="expression">space.vars.PRODUCT_NAME</code>.\n',
  "docs/SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guide](guide/setup.md)\n",
  "docs/guide/setup.md": '# Setup\n\n{% include "../.gitbook/includes/enterprise-hint.md" %}\n\nDone.\n',
  "docs/.gitbook/includes/reusable-block.md": INCLUDE,
  "docs/.gitbook/includes/enterprise-hint.md": '---\ntitle: Enterprise hint\n---\n\n{% hint style="info" %}\nEnterprise only.\n{% endhint %}\n',
  "docs/.gitbook/vars.yaml": "# What the docs call the product\nPRODUCT_NAME: Xopera One\nrelease: 3\n",
};

/** The git CLI over HTTP: not execFileSync, since the Git server answers from this process's event loop. */
function gitOverHttp(cwd: string, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, stdio: "ignore", env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" } });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} exited with ${code}`))));
  });
}

function blocks(nodes: any[], type: string, out: any[] = []): any[] {
  for (const node of nodes ?? []) {
    if (node?.type === type) out.push(node);
    blocks(node?.nodes, type, out);
  }
  return out;
}

describe.each(MODES)("Git sync of reusable content and variables over %s", (mode) => {
  let sys: RunningSystem;
  let server: GitServer;
  let owner: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let runJob: ReturnType<typeof gitJobs>["runJob"];
  let count = 0;

  beforeAll(async () => {
    server = await startGitServer({ shared: true });
    sys = await start(mode);
    [owner, stranger] = await Promise.all([1, 2].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await createOrg(stranger.api);
    ({ runJob } = gitJobs(owner.api, owner.api));
  });

  afterAll(async () => {
    await sys?.stop();
    await server?.close();
  });

  function repo(files: Record<string, string> = FILES): { name: string; bare: string; head: string } {
    const name = `reusable-${mode}-${++count}`;
    const bare = createRepo(server, name, Object.fromEntries(Object.entries(files).map(([p, t]) => [p, Buffer.from(t, "utf8")])));
    return { name, bare, head: git(bare, "rev-parse", "refs/heads/main") };
  }

  const diff = (bare: string, a: string, b: string) => git(bare, "diff", "--name-status", "--no-renames", a, b);

  test("imports includes and vars.yaml as reusable contents and variables, answers GitBook's reads of them, and round-trips byte for byte", async () => {
    const { name, bare, head } = repo();
    const space = await createSpace(owner.api, orgId, { title: "Reusable" });
    expect(await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", pages: 2 });

    const revision = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(revision.status).toBe(200);
    expect(revision.body.variables).toEqual({ PRODUCT_NAME: "Xopera One", release: "3" });
    const byPath = Object.fromEntries(revision.body.reusableContents.map((r: any) => [r.git.path, r]));
    const block = byPath["docs/.gitbook/includes/reusable-block.md"];
    const hint = byPath["docs/.gitbook/includes/enterprise-hint.md"];
    expect(block).toMatchObject({ title: "Reusable Block", document: expect.any(String) });
    expect(hint.title).toBe("Enterprise hint");
    const home = revision.body.pages[0];
    expect(home.variables).toEqual({ edition: "Community" });

    // GitBook's reads: current revision, a given revision, its document, a change request's.
    const current = await owner.api.get(`/v1/spaces/${space.id}/content/reusable-contents/${block.id}`);
    expect(current.status).toBe(200);
    expectSchema("getReusableContentById", 200, current.body, { latest: true });
    expect(current.body).toEqual({ id: block.id, title: "Reusable Block", document: block.document, git: block.git });
    const noMeta = await owner.api.get(`/v1/spaces/${space.id}/content/reusable-contents/${block.id}?metadata=false`);
    expect(noMeta.body.git).toBeUndefined();
    const inRevision = await owner.api.get(`/v1/spaces/${space.id}/revisions/${revision.body.id}/reusable-contents/${block.id}`);
    expect(inRevision.status).toBe(200);
    expectSchema("getReusableContentInRevisionById", 200, inRevision.body, { latest: true });
    const document = await owner.api.get(`/v1/spaces/${space.id}/revisions/${revision.body.id}/reusable-contents/${block.id}/document?evaluated=true`);
    expect(document.status).toBe(200);
    expectSchema("getReusableContentDocumentInRevisionById", 200, document.body, { latest: true });
    expect(JSON.stringify(document.body)).toContain("This is for product Xopera One");
    const cr = await owner.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Look" });
    const inCr = await owner.api.get(`/v1/spaces/${space.id}/change-requests/${cr.body.id}/content/reusable-contents/${hint.id}`);
    expect(inCr.status).toBe(200);
    expectSchema("getReusableContentInChangeRequestById", 200, inCr.body, { latest: true });
    expect(inCr.body.title).toBe("Enterprise hint");

    // Pages: each include is a reusable-content block referring to its reusable content; expressions evaluate.
    const homeDoc = await owner.api.get(`/v1/spaces/${space.id}/content/page/${home.id}?format=document`);
    expectComponent("JSONDocument", homeDoc.body.document);
    expect(blocks(homeDoc.body.document.nodes, "reusable-content").map((b) => b.data.ref)).toEqual([{ kind: "reusable-content", reusableContent: block.id }]);
    const setup = revision.body.pages[1];
    const setupDoc = await owner.api.get(`/v1/spaces/${space.id}/content/page/${setup.id}?format=document`);
    expect(blocks(setupDoc.body.document.nodes, "reusable-content").map((b) => b.data.ref.reusableContent)).toEqual([hint.id]);
    const evaluated = await owner.api.get(`/v1/spaces/${space.id}/content/page/${home.id}?format=markdown&evaluated=true`);
    expect(evaluated.body.markdown).toContain("Edition: Community, product Xopera One.");

    // No edit: a new branch gives an empty diff, the same branch no commit.
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/roundtrip" })).status).toBe("succeeded");
    expect(diff(bare, "main", "roundtrip")).toBe("");
    expect(await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: head });

    // An edit of one reusable content and one variable: those two files, comments and front matter kept.
    const edited = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
      changes: [
        { type: "upsert_reusable_content", id: hint.id, title: "Enterprise hint", markdown: "Now for everyone.\n" },
        { type: "set_variables", variables: { PRODUCT_NAME: "Xopera Two" } },
      ],
    });
    expect(edited.status).toBe(201);
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    expect(diff(bare, head, "main").split("\n").sort()).toEqual(["M\tdocs/.gitbook/includes/enterprise-hint.md", "M\tdocs/.gitbook/vars.yaml"]);
    expect(git(bare, "show", "main:docs/.gitbook/includes/enterprise-hint.md")).toBe("---\ntitle: Enterprise hint\n---\n\nNow for everyone.");
    expect(git(bare, "show", "main:docs/.gitbook/vars.yaml")).toBe("# What the docs call the product\nPRODUCT_NAME: Xopera Two\nrelease: 3");

    // A new import of that commit keeps the reusable contents' ids (pages' references hold).
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const again = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(again.body.reusableContents.map((r: any) => r.id).sort()).toEqual([block.id, hint.id].sort());
    expect(again.body.variables.PRODUCT_NAME).toBe("Xopera Two");
  });

  test("a reusable content deleted in the space loses its include file on export, one deleted in Git loses its reusable content on import, and no other file goes", async () => {
    const files = {
      ...FILES,
      "docs/.gitbook/includes/footer.md": "---\ntitle: Footer\n---\n\nThanks for reading.\n",
      "docs/.gitbook/includes/notes.txt": "The user's own notes, no reusable content.\n",
    };
    const { name, bare, head } = repo(files);
    const space = await createSpace(owner.api, orgId, { title: "Reusable deletes" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const imported = (await owner.api.get(`/v1/spaces/${space.id}/content`)).body;
    const byPath = Object.fromEntries(imported.reusableContents.map((r: any) => [r.git.path, r]));
    const hint = byPath["docs/.gitbook/includes/enterprise-hint.md"];
    const footer = byPath["docs/.gitbook/includes/footer.md"];
    expect(Object.keys(byPath).sort()).toEqual(["docs/.gitbook/includes/enterprise-hint.md", "docs/.gitbook/includes/footer.md", "docs/.gitbook/includes/reusable-block.md"]);

    // In the space: one imported reusable content deleted, one made. The export removes the one file and adds the other.
    const edited = await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, {
      changes: [
        { type: "delete_reusable_content", id: hint.id },
        { type: "upsert_reusable_content", title: "Made here", markdown: "Written in docshelf.\n" },
      ],
    });
    expect(edited.status).toBe(201);
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const first = git(bare, "rev-parse", "main");
    expect(diff(bare, head, first).split("\n").sort()).toEqual(["A\tdocs/.gitbook/includes/made-here.md", "D\tdocs/.gitbook/includes/enterprise-hint.md"]);
    expect(git(bare, "show", "main:docs/.gitbook/includes/made-here.md")).toBe("---\ntitle: Made here\n---\n\nWritten in docshelf.");
    // Exported again with no edit: no commit (the file the space wrote is its own, not a "-2" beside it).
    expect(await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: first });

    // The reusable content made in the space, deleted there: its file goes, and only it.
    const made = (await owner.api.get(`/v1/spaces/${space.id}/content`)).body.reusableContents.find((r: any) => r.title === "Made here");
    expect((await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: [{ type: "delete_reusable_content", id: made.id }] })).status).toBe(201);
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const second = git(bare, "rev-parse", "main");
    expect(diff(bare, first, second)).toBe("D\tdocs/.gitbook/includes/made-here.md");
    const tree = git(bare, "ls-tree", "-r", "--name-only", "main").split("\n");
    expect(tree).toEqual(expect.arrayContaining(["LICENSE", "docs/.gitbook/includes/notes.txt", "docs/.gitbook/includes/footer.md", "docs/.gitbook/includes/reusable-block.md", "docs/.gitbook/vars.yaml"]));

    // In Git: a user deletes an include file with the git CLI and pushes; the import deletes its reusable content.
    const work = mkdtempSync(join(tmpdir(), "git-sync-reusable-"));
    try {
      const clone = join(work, "c");
      await gitOverHttp(work, "clone", "-q", server.url(name), "c");
      git(clone, "rm", "-q", "docs/.gitbook/includes/reusable-block.md");
      git(clone, "commit", "-q", "-m", "Drop the block");
      await gitOverHttp(clone, "push", "-q", "origin", "main");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    const pushed = git(bare, "rev-parse", "main");
    expect(pushed).not.toBe(second);
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const after = (await owner.api.get(`/v1/spaces/${space.id}/content`)).body;
    expect(after.reusableContents.map((r: any) => [r.id, r.title, r.git.path])).toEqual([[footer.id, "Footer", "docs/.gitbook/includes/footer.md"]]);
    const gone = await owner.api.get(`/v1/spaces/${space.id}/content/reusable-contents/${byPath["docs/.gitbook/includes/reusable-block.md"].id}`);
    expect(gone.status).toBe(404);
    // Both sides agree: an export with no edit makes no commit.
    expect(await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: pushed });
  });

  test("reads of reusable contents: 401 without a token, 404 for another organization and unknown ids, 400 naming the field", async () => {
    const { name } = repo();
    const space = await createSpace(owner.api, orgId, { title: "Reusable access" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    const revision = (await owner.api.get(`/v1/spaces/${space.id}/content`)).body;
    const id = revision.reusableContents[0].id;
    const paths = [
      `/v1/spaces/${space.id}/content/reusable-contents/${id}`,
      `/v1/spaces/${space.id}/revisions/${revision.id}/reusable-contents/${id}`,
      `/v1/spaces/${space.id}/revisions/${revision.id}/reusable-contents/${id}/document`,
    ];
    for (const path of paths) {
      const anonymous = await owner.api.as(undefined).get(path);
      expect([path, anonymous.status]).toEqual([path, 401]);
      expectErrorBody(401, anonymous.body);
      const other = await stranger.api.get(path);
      expect([path, other.status]).toEqual([path, 404]);
      expectErrorBody(404, other.body);
      const unknown = await owner.api.get(path.replace(id, "nope"));
      expect([path, unknown.status]).toEqual([path, 404]);
      expect(unknown.body.error.message).toContain("nope");
    }
    const badFlag = await owner.api.get(`${paths[2]}?evaluated=maybe`);
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.error.message).toContain("evaluated");
    const longId = await owner.api.get(`/v1/spaces/${space.id}/content/reusable-contents/${"x".repeat(65)}`);
    expect(longId.status).toBe(400);
    expect(longId.body.error.message).toContain("reusableContentId");
  });

  test("a vars.yaml the space cannot take fails the import naming the file and the variable, and changes nothing", async () => {
    const { name } = repo({ ...FILES, "docs/.gitbook/vars.yaml": "PRODUCT_NAME: ok\n2fast: no\n" });
    const space = await createSpace(owner.api, orgId, { title: "Bad vars" });
    const before = (await owner.api.get(`/v1/spaces/${space.id}/content`)).body;
    const job = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(job).toMatchObject({ status: "failed", errorCode: "layout" });
    expect(job.error).toContain('docs/.gitbook/vars.yaml: the variable name "2fast"');
    const after = (await owner.api.get(`/v1/spaces/${space.id}/content`)).body;
    expect(after.id).toBe(before.id);
    expect(after.reusableContents).toEqual([]);
  });
});
