// GitBook's JSON document through HTTP, in every process mode: pages read as documents (spaces and
// change requests), documents written through change requests, and files linked by batch-local refs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { documentToMarkdown, markdownToDocument } from "@docshelf/document";
import { addMember, createOrg, createSpace, createUser, expectComponent, expectErrorBody, expectSchema, withBodies, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

const corpus = readFileSync(join(__dirname, "..", "..", "packages", "document", "src", "__fixtures__", "corpus.md"), "utf8");

/** Every node of a document, depth first, fragments included. */
function nodesOf(node: any): any[] {
  const children = [...(node.nodes ?? []), ...(node.fragments ?? []).flatMap((f: any) => f.nodes)];
  return [node, ...children.flatMap(nodesOf)];
}

describe.each(MODES)("JSON documents over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let spaceId: string;

  beforeAll(async () => {
    sys = await start(mode);
    [owner, editor, reader, outsider] = await Promise.all([1, 2, 3, 4].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
    spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function createCR(subject: string): Promise<any> {
    const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function edit(cr: string, changes: unknown[], as: TestUser = editor) {
    return as.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { changes });
  }

  async function pageByTitle(title: string, cr?: string): Promise<any> {
    const path = cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages` : `/v1/spaces/${spaceId}/content/pages`;
    const res = await owner.api.get(path);
    const find = (pages: any[]): any => pages.flatMap((p) => (p.title === title ? [p] : [find(p.pages ?? [])].filter(Boolean)))[0];
    const page = find(res.body.pages);
    if (!page) throw new Error(`no page "${title}" in ${path}`);
    return page;
  }

  test("format=document answers every block of the corpus, valid for GitBook's JSONDocument, in change requests and after merge", async () => {
    const cr = await createCR("Corpus");
    const res = await edit(cr.id, [{ operation: "insert_page", title: "Corpus", document: { markdown: corpus } }]);
    expect(res.status).toBe(200);
    expectSchema("updateChangeRequestContent", 200, res.body);
    expectComponent("ChangeRequestContentUpdate", res.body);
    const id = res.body.changes[0].page.id;

    const inCR = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}?format=document`);
    expect(inCR.status).toBe(200);
    expectSchema("getPageInChangeRequestById", 200, inCR.body);
    expectComponent("JSONDocument", inCR.body.document);
    expect(inCR.body.markdown).toBeUndefined();
    const types = new Set(nodesOf(inCR.body.document).map((n) => n.type));
    for (const type of ["heading-2", "heading-3", "paragraph", "list-unordered", "list-ordered", "list-tasks", "list-item", "code", "code-line", "blockquote", "hint", "table", "divider", "images", "image", "file", "embed", "expandable", "tabs", "tabs-item", "content-ref", "stepper", "stepper-step", "math", "reusable-content", "link", "inline-image", "inline-math"]) {
      expect([type, types.has(type)]).toEqual([type, true]);
    }
    // The stored Markdown (its leading heading became the title) comes back from the document unchanged.
    const markdown = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}?format=markdown`);
    expect(documentToMarkdown(inCR.body.document)).toBe(markdown.body.markdown);
    expect(markdown.body.markdown).toBe(corpus.replace(/^# Getting started\n\n/, ""));

    expect((await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const merged = await reader.api.get(`/v1/spaces/${spaceId}/content/page/${id}?format=document`);
    expect(merged.status).toBe(200);
    expectSchema("getPageById", 200, merged.body);
    expectComponent("JSONDocument", merged.body.document);
    expect(merged.body.document).toEqual(inCR.body.document);
  });

  test("links to pages and files read as page and file references; a document written with them stores their paths", async () => {
    const quickstart = await pageByTitle("Quickstart");
    const welcome = await pageByTitle("Welcome");
    const read = await reader.api.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}?format=document`);
    expect(read.status).toBe(200);
    expectComponent("JSONDocument", read.body.document);
    const refs = nodesOf(read.body.document).flatMap((n) => (n.data?.ref ? [n.data.ref] : []));
    expect(refs).toContainEqual({ kind: "page", page: quickstart.id });
    const logo = (await reader.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items.find((f: any) => f.name === "logo.svg");
    expect(refs).toContainEqual({ kind: "file", file: logo.id });

    // The same document written back through a change request keeps those references.
    const cr = await createCR("Document input");
    const document = read.body.document;
    const res = await edit(cr.id, [{ operation: "insert_page", title: "Copy", document: { document } }]);
    expect(res.status).toBe(200);
    expectComponent("ChangeRequestContentUpdate", res.body);
    const id = res.body.changes[0].page.id;
    const copy = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}?format=document`);
    expect(copy.status).toBe(200);
    expect(copy.body.document).toEqual(document);
    const copyMarkdown = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}`)).body.markdown;
    expect(copyMarkdown).toContain("(quickstart.md)");
    expect(copyMarkdown).toContain("(.gitbook/assets/logo.svg)");

    // update_page takes a document too.
    const updated = await edit(cr.id, [{ operation: "update_page", page: id, document: { document: markdownToDocument("Now **bold** and a [link](https://example.com).\n") } }]);
    expect(updated.status).toBe(200);
    expectSchema("updateChangeRequestContent", 200, updated.body);
    const after = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}`);
    expect(after.body.markdown).toBe("Now **bold** and a [link](https://example.com).\n");
  });

  test("a bad document is 400 naming the field and changes nothing; roles and tokens are checked", async () => {
    const cr = await createCR("Bad documents");
    const cases: Array<[unknown, string]> = [
      [{ object: "document", nodes: [{ object: "block", type: "nope", nodes: [] }] }, "changes[0].document.document.nodes[0].type"],
      [{ object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf" }] }] }] }, "changes[0].document.document.nodes[0].nodes[0].leaves[0]"],
      [{ object: "document", nodes: [{ object: "block", type: "file", data: {} }] }, "changes[0].document.document.nodes[0].data.ref"],
      [{ nodes: [] }, "changes[0].document.document.object"],
      ["text", "changes[0].document.document"],
    ];
    for (const [document, field] of cases) {
      const res = await edit(cr.id, [{ operation: "insert_page", title: "Bad", document: { document } }]);
      expect([field, res.status]).toEqual([field, 400]);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    }
    const both = await edit(cr.id, [{ operation: "insert_page", document: { markdown: "x", document: { object: "document", nodes: [] } } }]);
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain("changes[0].document");
    expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(cr.revision);

    const good = [{ operation: "insert_page", title: "Ok", document: { document: markdownToDocument("Hello\n") } }];
    expect((await edit(cr.id, good, reader)).status).toBe(403);
    expect((await edit(cr.id, good, outsider)).status).toBe(404);
    expect((await sys.admin.as(undefined).post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: good })).status).toBe(401);
    expect((await sys.admin.as("not-a-token").post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: good })).status).toBe(401);
    const page = (await pageByTitle("Welcome")).id;
    expect((await reader.api.get(`/v1/spaces/${spaceId}/content/page/${page}?format=document`)).status).toBe(200);
    expect((await outsider.api.get(`/v1/spaces/${spaceId}/content/page/${page}?format=document`)).status).toBe(404);
    expect((await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/content/page/${page}?format=document`)).status).toBe(401);
    const badFormat = await reader.api.get(`/v1/spaces/${spaceId}/content/page/${page}?format=html`);
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toContain("format");
  });

  test("files inserted with a ref resolve from pages of the same batch, in either order, and are their backlinks after merge", async () => {
    const cr = await createCR("Batch refs");
    const pdf = Buffer.from("%PDF-1.4 report").toString("base64");
    const png = Buffer.from("png bytes").toString("base64");
    const res = await edit(cr.id, [
      { operation: "insert_page", title: "Before files", document: { markdown: "See the [Report](./report) and ![Chart](./chart).\n" } },
      { operation: "insert_files", files: [{ ref: "report", name: "batch-report.pdf", contentType: "application/pdf", base64: pdf }, { ref: "chart", name: "chart.png", contentType: "image/png", base64: png }] },
      {
        operation: "insert_page",
        title: "After files",
        document: {
          document: {
            object: "document",
            nodes: [{ object: "block", type: "file", isVoid: true, data: { ref: { kind: "file", file: "report" } } }],
          },
        },
      },
    ]);
    expect(res.status).toBe(200);
    expectSchema("updateChangeRequestContent", 200, res.body);
    expectComponent("ChangeRequestContentUpdate", res.body);
    expect(res.body.changeRequest.id).toBe(cr.id);
    expect(res.body.changes.map((c: any) => c.object)).toEqual(["created_page", "created_page"]);
    expect(res.body.insertedFiles.map((f: any) => f.name).sort()).toEqual(["batch-report.pdf", "chart.png"]);
    const [before, after] = res.body.changes.map((c: any) => c.page.id);
    const report = res.body.insertedFiles.find((f: any) => f.name === "batch-report.pdf").id;
    const chart = res.body.insertedFiles.find((f: any) => f.name === "chart.png").id;

    const backlinks = async (path: string) => {
      const r = await reader.api.get(path);
      expect(r.status).toBe(200);
      return r;
    };
    const crReport = await backlinks(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/${report}/backlinks`);
    expectSchema("listChangeRequestFileBacklinks", 200, withBodies(crReport.body));
    expect(crReport.body.items.map((b: any) => b.page.id).sort()).toEqual([before, after].sort());
    const crChart = await backlinks(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/${chart}/backlinks`);
    expect(crChart.body.items.map((b: any) => b.page.id)).toEqual([before]);

    const doc = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${before}?format=document`);
    const refs = nodesOf(doc.body.document).flatMap((n) => (n.data?.ref ? [n.data.ref] : []));
    expect(refs).toEqual([{ kind: "file", file: report }, { kind: "file", file: chart }]);

    expect((await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const spaceReport = await backlinks(`/v1/spaces/${spaceId}/content/files/${report}/backlinks`);
    expectSchema("listSpaceFileBacklinks", 200, withBodies(spaceReport.body));
    expect(spaceReport.body.items.map((b: any) => b.page.id).sort()).toEqual([before, after].sort());

    const dup = await edit((await createCR("Dup refs")).id, [{ operation: "insert_files", files: [{ ref: "x", name: "a.txt", contentType: "text/plain", base64: "aGk=" }, { ref: "x", name: "b.txt", contentType: "text/plain", base64: "aGk=" }] }]);
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toContain("changes[0].files[1].ref");
  });

  test("pages inserted with a ref are what pages of the same batch link as ./<ref>.md, whatever the order", async () => {
    const cr = await createCR("Page refs");
    const quickstart = await pageByTitle("Quickstart");
    const res = await edit(cr.id, [
      { operation: "insert_page", title: "Linking", document: { markdown: "Read [the guide](./guide-ref.md#setup) first.\n" } },
      { operation: "insert_page", title: "Guide page", ref: "guide-ref", into: quickstart.id, document: { markdown: "Guide body.\n" } },
      {
        operation: "insert_page",
        title: "By document",
        into: quickstart.id,
        document: { document: { object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "See ", marks: [] }] }, { object: "inline", type: "link", data: { ref: { kind: "url", url: "./guide-ref.md" } }, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "guide", marks: [] }] }] }] }] } },
      },
    ]);
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    expectSchema("updateChangeRequestContent", 200, res.body);
    expectComponent("ChangeRequestContentUpdate", res.body);
    const [linking, guide, byDocument] = res.body.changes.map((c: any) => c.page.id);
    expect(res.body.changes[1]).toMatchObject({ object: "created_page", ref: "guide-ref" });
    const guidePage = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${guide}`);
    expect(guidePage.body.path).toBe(`${quickstart.path}/guide-page`);

    const stored = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${linking}`);
    expect(stored.body.markdown).toBe(`Read [the guide](${quickstart.path}/guide-page.md#setup) first.\n`);
    const nested = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${byDocument}`);
    expect(nested.body.markdown).toBe("See [guide](guide-page.md)\n");
    const doc = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${linking}?format=document`);
    expectComponent("JSONDocument", doc.body.document);
    expect(nodesOf(doc.body.document).flatMap((n) => (n.data?.ref ? [n.data.ref] : []))).toEqual([{ kind: "anchor", anchor: "setup", page: guide }]);
    const links = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${byDocument}/links`);
    expect(links.status).toBe(200);
    expectSchema("listPageLinksInChangeRequest", 200, withBodies(links.body));
    expect(links.body.items.map((l: any) => [l.status, l.targetReference.kind, l.targetReference.page?.id])).toEqual([["ok", "page", guide]]);
    // The change request moved once, to the revision with the links resolved.
    const after = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body;
    expect(after.revision).toBe(res.body.changeRequest.revision);
  });
});
