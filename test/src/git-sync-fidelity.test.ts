// Git sync fidelity through HTTP: a GitBook-synced repository imported and exported with no edit gives
// the same tree (asserted with the git CLI), files the space never managed are never touched, and an
// edit of one page changes exactly that page's file.
import { join } from "node:path";
import { addMember, createOrg, createSpace, createUser, expectSchema, withBodies, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { createRepo, git, startGitServer, type GitServer, gitJobs } from "./git-sync-server";
import { MODES, start } from "./modes";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

/** Every case of the issue in one repository: generated here from text, no binaries checked in. */
export const FIDELITY_REPO: Record<string, string | Buffer> = {
  LICENSE: "MIT License\n\nCopyright (c) 2026 Example\n",
  ".github/CODEOWNERS": "* @docs-team\n",
  ".github/workflows/ci.yml": "on: push\njobs: {}\n",
  "package.json": '{ "name": "docs" }\n',
  // Comments, odd spacing and no `structure:` block: kept as written.
  ".gitbook.yaml": "# GitBook\nroot: ./docs/\n\nredirects:\n  old/page: guides/vue.js-guide.md\n  legacy:   getting-started/install.md   # spaced\n",
  "docs/SUMMARY.md": [
    "# Table of contents",
    "",
    "## Getting Started",
    "",
    "* [Introduction](README.md)",
    "* [Installing it](getting-started/install.md)",
    "  * [On Linux](getting-started/linux.md)",
    "* [Quickstart](getting-started/quickstart.md)",
    "",
    "## Guides",
    "",
    "* [Vue.js guide](guides/vue.js-guide.md)",
    "* [Blocks](guides/blocks.md)",
    "* [Community forum](https://example.com/forum#top)",
    "",
    "## Reference",
    "",
    "* [API](reference/README.md)",
    "  * [Endpoints](reference/endpoints.md)",
    "",
  ].join("\n"),
  "docs/README.md": "---\ndescription: >-\n  A long folded description that goes on\n  over two lines.\n---\n\n# Welcome to the docs\n\nIntro with ![diagram](images/diagram.png) and ![shot](<.gitbook/assets/my image (1).png>).\n",
  "docs/getting-started/install.md": "---\n# the icon\nicon:   download\n---\n\n# Install\n\nRun the installer.\n",
  "docs/getting-started/linux.md": "---\ndescription: 'Linux, quoted'\n---\n# On Linux\n\nUse the package.\n",
  "docs/getting-started/quickstart.md": "No heading here.\r\n\r\nCRLF line endings.\r\n",
  "docs/guides/vue.js-guide.md": "# Vue.js\n\nA file name with a dot.\n",
  "docs/guides/blocks.md": [
    "# Blocks",
    "",
    '{% hint style="info" %}',
    "A hint with **bold**.",
    "{% endhint %}",
    "",
    "{% tabs %}",
    '{% tab title="npm" %}',
    "```bash",
    "npm install",
    "```",
    "{% endtab %}",
    '{% tab title="yarn" %}',
    "`yarn add`",
    "{% endtab %}",
    "{% endtabs %}",
    "",
    '{% code title="a.js" lineNumbers="true" %}',
    "```js",
    "const a = 1;",
    "```",
    "{% endcode %}",
    "",
    '{% embed url="https://www.youtube.com/watch?v=x" %}',
    "",
    '{% content-ref url="vue.js-guide.md" %}',
    "[vue.js-guide.md](vue.js-guide.md)",
    "{% endcontent-ref %}",
    "",
    '{% file src="../.gitbook/assets/Ünïcødé 图.svg" %}',
    "",
    "{% stepper %}",
    "{% step %}",
    "### One",
    "{% endstep %}",
    "{% endstepper %}",
    "",
    '<figure><img src="../.gitbook/assets/logo.png" alt=""><figcaption><p>Logo</p></figcaption></figure>',
    "",
    "<details>",
    "<summary>More</summary>",
    "",
    "Hidden text.",
    "",
    "</details>",
    "",
  ].join("\n"),
  "docs/reference/README.md": "# API\n\nReference.\n",
  "docs/reference/endpoints.md": "---\nhidden: true\n---\n\n# Endpoints\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
  "docs/unlisted.md": "# Not in SUMMARY\n",
  "docs/notes.txt": "not an asset\n",
  "docs/images/diagram.png": PNG,
  "docs/.gitbook/assets/my image (1).png": PNG,
  "docs/.gitbook/assets/Ünïcødé 图.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
  "docs/.gitbook/assets/logo.png": Buffer.concat([PNG, Buffer.from([1])]),
  "docs/.gitbook/assets/sub/logo.png": Buffer.concat([PNG, Buffer.from([2])]),
};

describe.each(MODES)("Git sync fidelity over %s", (mode) => {
  let sys: RunningSystem;
  let finished: ReturnType<typeof gitJobs>["finished"];
  let runJob: ReturnType<typeof gitJobs>["runJob"];
  let server: GitServer;
  let owner: TestUser;
  let editor: TestUser;
  let orgId: string;
  let repoCount = 0;
  const repoName = (label: string) => `${label}-${mode}-${++repoCount}`;

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
    const edited = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/content`, { changes });
    expect(edited.status).toBe(200);
    expect((await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/merge`)).status).toBe(200);
    return created.body.id;
  }

  const bare = (name: string) => join(server.root, `${name}.git`);
  const diff = (name: string, a: string, b: string) => git(bare(name), "diff", "--name-status", "--no-renames", a, b);
  const show = (name: string, rev: string, path: string) => git(bare(name), "show", `${rev}:${path}`);

  function pageByTitle(pages: any[], title: string): any {
    for (const page of pages) {
      if (page.title === title) return page;
      const inner = pageByTitle(page.pages ?? [], title);
      if (inner) return inner;
    }
    return undefined;
  }

  test("import then export with no edit changes nothing; an edit of one page changes exactly its file", async () => {
    const name = repoName("fidelity");
    createRepo(server, name, FIDELITY_REPO);
    const head = git(bare(name), "rev-parse", "refs/heads/main");
    const space = await createSpace(owner.api, orgId, { title: "Fidelity" });
    const imported = await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main" });
    expect(imported).toMatchObject({ status: "succeeded", commit: head });

    // Paths stay as imported: page.git.path, names with dots, link texts as titles.
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    expect(content.status).toBe(200);
    expect(pageByTitle(content.body.pages, "Vue.js guide").git.path).toBe("docs/guides/vue.js-guide.md");
    expect(pageByTitle(content.body.pages, "Installing it").git.path).toBe("docs/getting-started/install.md");
    // SUMMARY.md's `##` headings are GitBook page groups (RevisionPageGroup), in order, README inside the first.
    expect(content.body.pages.map((p: any) => [p.type, p.title])).toEqual([["group", "Getting Started"], ["group", "Guides"], ["group", "Reference"]]);
    expect(content.body.pages[0].pages.map((p: any) => p.title)).toEqual(["Introduction", "Installing it", "Quickstart"]);
    expect(content.body.pages[0].pages[1].pages.map((p: any) => p.title)).toEqual(["On Linux"]);
    expect(content.body.pages[1].pages.map((p: any) => p.title)).toEqual(["Vue.js guide", "Blocks", "Community forum"]);
    expectSchema("getCurrentRevision", 200, withBodies(content.body));
    const group = await owner.api.get(`/v1/spaces/${space.id}/content/page/${content.body.pages[0].id}`);
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ type: "group", kind: "group", title: "Getting Started" });
    const files = content.body.files.map((f: any) => f.git.path).sort();
    expect(files).toEqual(["docs/.gitbook/assets/logo.png", "docs/.gitbook/assets/my image (1).png", "docs/.gitbook/assets/sub/logo.png", "docs/.gitbook/assets/Ünïcødé 图.svg"].sort());

    // To a new branch: it starts from the imported commit and the diff is empty.
    const toBranch = await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/roundtrip" });
    expect(toBranch.status).toBe("succeeded");
    expect(diff(name, "main", "roundtrip")).toBe("");
    expect(git(bare(name), "rev-parse", "refs/heads/roundtrip")).toBe(head);
    // To the same branch: no commit at all.
    const same = await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main" });
    expect(same).toMatchObject({ status: "succeeded", commit: head });
    expect(git(bare(name), "rev-parse", "refs/heads/main")).toBe(head);

    // One page edited through a change request: the merge's export touches that file only.
    const linux = pageByTitle(content.body.pages, "On Linux");
    const cr = await mergeEdit(space.id, [{ operation: "update_page", page: linux.id, document: { markdown: "Use the **new** package.\n" } }]);
    const merged = await finished(space.id, `merge-${cr}`);
    expect(merged.status).toBe("succeeded");
    expect(diff(name, head, "main")).toBe("M\tdocs/getting-started/linux.md");
    // Front matter and heading as written, the body replaced.
    expect(show(name, "main", "docs/getting-started/linux.md")).toBe("---\ndescription: 'Linux, quoted'\n---\n# On Linux\n\nUse the **new** package.");

    // A new page under Reference: its file and SUMMARY.md, nothing else; SUMMARY keeps groups, link texts, the external link.
    const afterEdit = git(bare(name), "rev-parse", "refs/heads/main");
    const api = pageByTitle(content.body.pages, "API");
    const cr2 = await mergeEdit(space.id, [{ operation: "insert_page", into: api.id, title: "Webhooks", document: { markdown: "Hooks.\n" } }]);
    expect((await finished(space.id, `merge-${cr2}`)).status).toBe("succeeded");
    expect(diff(name, afterEdit, "main").split("\n").sort()).toEqual(["A\tdocs/reference/webhooks.md", "M\tdocs/SUMMARY.md"]);
    const summary = show(name, "main", "docs/SUMMARY.md");
    for (const line of ["## Getting Started", "* [Introduction](README.md)", "* [Installing it](getting-started/install.md)", "  * [On Linux](getting-started/linux.md)", "* [Vue.js guide](guides/vue.js-guide.md)", "* [Community forum](https://example.com/forum#top)", "  * [Webhooks](reference/webhooks.md)"]) {
      expect(summary.split("\n")).toContain(line);
    }

    // Re-importing the export and exporting again still changes nothing.
    const now = git(bare(name), "rev-parse", "refs/heads/main");
    const copy = await createSpace(owner.api, orgId, { title: "Copy" });
    expect((await runJob(copy.id, "import", { url: server.url(name), ref: "refs/heads/main" })).status).toBe("succeeded");
    expect((await runJob(copy.id, "export", { url: server.url(name), ref: "refs/heads/copy" })).status).toBe("succeeded");
    expect(diff(name, now, "copy")).toBe("");
  });

  test("a deleted page removes only its own file; unmanaged files stay", async () => {
    const name = repoName("delete");
    createRepo(server, name, FIDELITY_REPO);
    const head = git(bare(name), "rev-parse", "refs/heads/main");
    const space = await createSpace(owner.api, orgId, { title: "Deletes" });
    expect((await runJob(space.id, "import", { url: server.url(name), ref: "refs/heads/main", repoCacheID: "del" })).status).toBe("succeeded");
    expect((await runJob(space.id, "export", { url: server.url(name), ref: "refs/heads/main", repoCacheID: "del" })).commit).toBe(head);
    const content = await owner.api.get(`/v1/spaces/${space.id}/content`);
    const quick = pageByTitle(content.body.pages, "Quickstart");
    const cr = await mergeEdit(space.id, [{ operation: "delete_page", page: quick.id }]);
    expect((await finished(space.id, `merge-${cr}`)).status).toBe("succeeded");
    expect(diff(name, head, "main").split("\n").sort()).toEqual(["D\tdocs/getting-started/quickstart.md", "M\tdocs/SUMMARY.md"]);
  });
});
