// Git sync on a corpus of public GitBook-synced repositories (issue 42): each imports with `succeeded`,
// an export with no edit gives an empty `git diff` (the git CLI's), with the sync state and after the link
// was removed, and one edit through the API changes exactly the file of the edited page.
//
// Two sets:
// - committed, trimmed copies in test/fixtures/git-sync (sources, commits and licenses in its README.md),
//   of repositories whose license allows it; always run;
// - the whole corpus, listed in services/git-sync/README.md ("The corpus"), most of it without a license
//   that allows a copy here: run when GIT_SYNC_CORPUS_DIR names a directory with one Git repository per
//   folder (made by services/git-sync/scripts/corpus-prepare.sh). Without it, a test says so by name and
//   on stderr: the local corpus did NOT run.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { createRepo, git, startGitServer, type GitServer, gitJobs } from "./git-sync-server";
import { MODES, start } from "./modes";

const FIXTURES = join(__dirname, "..", "fixtures", "git-sync");
const PREPARE = join(__dirname, "..", "..", "services", "git-sync", "scripts", "corpus-prepare.sh");

function filesOf(dir: string, root = dir): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesOf(path, root));
    else out[relative(root, path).split("\\").join("/")] = readFileSync(path);
  }
  return out;
}

/** Committed trimmed fixtures: the shape each one holds, and a page to edit. */
const COMMITTED = [
  // `root: ./docs/`, non-ASCII title, SUMMARY.md items without a link (`- Guidelines`) with children.
  { name: "uber-go-guide-cn", pages: 17, edit: "Verify Interface Compliance" },
  // `structure.readme: ../README.md` outside the root, a lower-case `summary.md`, a link to a missing
  // file with a child, links out of the root (`../CONTRIBUTING.md`), an external link.
  { name: "0x-mesh", pages: 11, edit: "Syncing an external DB with Mesh" },
  // `{% swagger %}` blocks with parameters and responses, nested READMEs five levels deep.
  { name: "sunbird-inquiry-community", pages: 11, edit: "Read Private Question" },
];

const CORPUS_DIR = process.env.GIT_SYNC_CORPUS_DIR;
const LOCAL = CORPUS_DIR && existsSync(CORPUS_DIR) ? readdirSync(CORPUS_DIR).filter((name) => existsSync(join(CORPUS_DIR, name, ".git"))).sort() : [];

function findPage(pages: any[], test: (page: any) => boolean): any {
  for (const page of pages) {
    if (test(page)) return page;
    const inner = findPage(page.pages ?? [], test);
    if (inner) return inner;
  }
  return undefined;
}

describe.each(MODES)("Git sync on a corpus of GitBook repositories over %s", (mode) => {
  let sys: RunningSystem;
  let finished: ReturnType<typeof gitJobs>["finished"];
  let runJob: ReturnType<typeof gitJobs>["runJob"];
  let server: GitServer;
  let owner: TestUser;
  let editor: TestUser;
  let orgId: string;

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

  /** How long one job may take: the largest repositories take minutes on a loaded two-core machine. */
  const JOB_MS = 300_000;

  /** Import, export with no edit (a new branch, then the same branch), one edit through a merged change request. */
  async function roundTrip(repo: string, branch: string, pickEdit: (page: any) => boolean): Promise<{ pages: number; importMs: number; exportMs: number }> {
    const bare = join(server.root, `${repo}.git`);
    const head = git(bare, "rev-parse", `refs/heads/${branch}`);
    const space = await createSpace(owner.api, orgId, { title: repo.slice(0, 50) });
    let started = Date.now();
    const imported = await runJob(space.id, "import", { url: server.url(repo), ref: `refs/heads/${branch}` }, JOB_MS);
    const importMs = Date.now() - started;
    expect(imported).toMatchObject({ status: "succeeded", commit: head });

    started = Date.now();
    expect((await runJob(space.id, "export", { url: server.url(repo), ref: "refs/heads/roundtrip" }, JOB_MS)).status).toBe("succeeded");
    const exportMs = Date.now() - started;
    expect(git(bare, "diff", "--name-status", "--no-renames", branch, "roundtrip")).toBe("");
    expect(await runJob(space.id, "export", { url: server.url(repo), ref: `refs/heads/${branch}` }, JOB_MS)).toMatchObject({ status: "succeeded", commit: head });

    // Without a sync state (the link removed): the export rebuilds one from the branch and still changes nothing.
    expect((await owner.api.delete(`/v1/spaces/${space.id}/git/legacy-installation`)).status).toBe(204);
    expect((await runJob(space.id, "export", { url: server.url(repo), ref: "refs/heads/no-state" }, JOB_MS)).status).toBe("succeeded");
    expect(git(bare, "diff", "--name-status", "--no-renames", branch, "no-state")).toBe("");
    expect(await runJob(space.id, "export", { url: server.url(repo), ref: `refs/heads/${branch}` }, JOB_MS)).toMatchObject({ status: "succeeded", commit: head });

    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    const page = findPage(content.body.pages, (p) => p.type !== "group" && typeof p.git?.path === "string" && /\.md$/i.test(p.git.path) && pickEdit(p));
    if (!page) {
      // A repository whose content root holds no page (1inch/limit-order-protocol: `root` names a folder
      // that is gone) has nothing to edit; said on stderr, and only allowed when the import found no page.
      expect(imported.pages).toBe(0);
      process.stderr.write(`git-sync corpus ${repo}: no page to edit (the import found none); the edit step did not apply\n`);
      return { pages: imported.pages, importMs, exportMs };
    }
    const created = await editor.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Edit" });
    const changed = await editor.api.post(`/v1/spaces/${space.id}/change-requests/${created.body.id}/content`, {
      changes: [{ operation: "update_page", page: page.id, document: { markdown: "Rewritten by the corpus test.\n" } }],
    });
    expect(changed.status).toBe(200);
    expect((await owner.api.post(`/v1/spaces/${space.id}/change-requests/${created.body.id}/merge`)).status).toBe(200);
    expect((await finished(space.id, `merge-${created.body.id}`, 300_000)).status).toBe("succeeded");
    expect(git(bare, "diff", "--name-status", "--no-renames", head, branch)).toBe(`M\t${page.git.path}`);
    expect(git(bare, "show", `${branch}:${page.git.path}`)).toContain("Rewritten by the corpus test.");
    return { pages: imported.pages, importMs, exportMs };
  }

  test.each(COMMITTED)("$name (committed, trimmed): imports, an export with no edit gives an empty git diff, one edit changes one file", async ({ name, pages, edit }) => {
    const repo = `${name}-${mode}`;
    createRepo(server, repo, filesOf(join(FIXTURES, name)));
    const result = await roundTrip(repo, "main", (page) => page.title === edit);
    expect(result.pages).toBe(pages);
  });

  if (LOCAL.length) {
    test.each(LOCAL)("local corpus %s: imports, an export with no edit gives an empty git diff, one edit changes one file", async (name) => {
      const repo = `corpus-${name.replace(/[^A-Za-z0-9._-]/g, "_")}-${mode}`;
      const bare = join(server.root, `${repo}.git`);
      git(server.root, "clone", "-q", "--bare", join(CORPUS_DIR!, name), bare);
      git(bare, "config", "http.receivepack", "true");
      const branch = git(bare, "symbolic-ref", "--short", "HEAD");
      // The baseline: `git clone` of the same repository over the same HTTP server.
      const scratch = mkdtempSync(join(tmpdir(), "git-sync-corpus-clone-"));
      const started = Date.now();
      try {
        // Not execFileSync: the Git server answers from this process's event loop.
        await new Promise<void>((resolve, reject) => {
          const child = spawn("git", ["clone", "-q", "--bare", server.url(repo), join(scratch, "clone.git")], { stdio: "ignore", env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
          child.on("error", reject);
          child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`git clone exited with ${code}`))));
        });
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      const cloneMs = Date.now() - started;
      // The edit: the first page with a file of its own other than the home page.
      let first = true;
      const result = await roundTrip(repo, branch, () => (first ? ((first = false), false) : true));
      process.stderr.write(`git-sync corpus ${name} (${mode}): ${result.pages} pages; import ${result.importMs} ms, export ${result.exportMs} ms, git clone ${cloneMs} ms\n`);
    }, 1_200_000);
  } else {
    test("the local corpus did NOT run: GIT_SYNC_CORPUS_DIR is not set (see services/git-sync/README.md, \"The corpus\")", () => {
      process.stderr.write(
        `git-sync corpus: the local corpus did NOT run (GIT_SYNC_CORPUS_DIR ${CORPUS_DIR ? `"${CORPUS_DIR}" holds no repository` : "is not set"}); ` +
          "only the committed trimmed fixtures were checked. Prepare it with services/git-sync/scripts/corpus-prepare.sh.\n",
      );
      expect(existsSync(PREPARE)).toBe(true);
      expect(LOCAL).toEqual([]);
    });
  }
});
