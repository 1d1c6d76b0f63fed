// Git sync round trips of real GitBook-synced repositories (trimmed copies in test/fixtures/git-sync,
// see its README.md for sources and licenses): import, export with no edit, `git diff` must be empty;
// an edit of one page changes only that page's file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { createRepo, git, startGitServer, type GitServer, gitJobs } from "./git-sync-server";
import { MODES, start } from "./modes";

const FIXTURES = join(__dirname, "..", "fixtures", "git-sync");

function filesOf(dir: string, root = dir): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesOf(path, root));
    else out[relative(root, path).split("\\").join("/")] = readFileSync(path);
  }
  return out;
}

const REPOS = [
  { name: "beefree-sdk-docs", groups: 12, edit: "Create an Application", file: "getting-started/readme/create-an-application.md" },
  { name: "brighter-docs", groups: 30, edit: "Show me the code!", file: "contents/9/ShowMeTheCode.md" },
];

describe.each(MODES)("Git sync of real GitBook repositories over %s", (mode) => {
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



  function find(pages: any[], title: string): any {
    for (const page of pages) {
      if (page.title === title) return page;
      const inner = find(page.pages ?? [], title);
      if (inner) return inner;
    }
    return undefined;
  }

  test.each(REPOS)("$name: import then export gives an empty git diff; one edit changes one file", async ({ name, groups, edit, file }) => {
    const repo = `${name}-${mode}`;
    createRepo(server, repo, filesOf(join(FIXTURES, name)));
    const bare = join(server.root, `${repo}.git`);
    const head = git(bare, "rev-parse", "refs/heads/main");
    const space = await createSpace(owner.api, orgId, { title: name });
    expect(await runJob(space.id, "import", { url: server.url(repo), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: head });
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(content.body.pages.filter((p: any) => p.type === "group")).toHaveLength(groups);

    expect((await runJob(space.id, "export", { url: server.url(repo), ref: "refs/heads/roundtrip" })).status).toBe("succeeded");
    expect(git(bare, "diff", "--name-status", "main", "roundtrip")).toBe("");
    expect(await runJob(space.id, "export", { url: server.url(repo), ref: "refs/heads/main" })).toMatchObject({ status: "succeeded", commit: head });

    const page = find(content.body.pages, edit);
    const created = await editor.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Edit" });
    const changed = await editor.api.post(`/v1/spaces/${space.id}/change-requests/${created.body.id}/content`, {
      changes: [{ operation: "update_page", page: page.id, document: { markdown: "Rewritten.\n" } }],
    });
    expect(changed.status).toBe(200);
    expect((await owner.api.post(`/v1/spaces/${space.id}/change-requests/${created.body.id}/merge`)).status).toBe(200);
    expect((await finished(space.id, `merge-${created.body.id}`)).status).toBe("succeeded");
    expect(git(bare, "diff", "--name-status", head, "main")).toBe(`M\t${file}`);
  });
});
