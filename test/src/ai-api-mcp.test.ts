// The API's MCP server at /mcp, through HTTP in every process mode with the SDK's own client: the token
// (401 without one), every tool, an agent's flow (search → read → change request → edit → comment → the
// change in the API's diff), another organization's token kept out of reads and writes, idempotency, and
// generated bad input to every tool.
import { createOrg, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { MODES, start } from "./modes";
import { newSpace, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages, header, rawGet } from "./sites-serve-fixtures";
import { badArguments, callTool, INITIALIZE, mcpClient, rawPost } from "./ai-fixtures";
import { Browser, signIn } from "./app-fixtures";

const TOOLS = [
  "comment",
  "createChangeRequest",
  "deletePage",
  "getChangeRequestChanges",
  "insertPage",
  "listOrganizations",
  "listPages",
  "listSpaces",
  "movePage",
  "readPage",
  "requestReview",
  "searchContent",
  "updatePage",
];

const json = (text: string) => JSON.parse(text) as any;

describe.each(MODES)("the API's MCP server over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let spaceId: string;
  let other: TestUser;
  let otherOrg: string;
  const connect = (user: { token: string }) => mcpClient(`${sys.url}/mcp`, user.token);

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    spaceId = await newSpace(w, "Handbook");
    await addPages(sys, spaceId, [
      { title: "Introduction", markdown: "Welcome.\n" },
      { title: "Airships", markdown: "All about zeppelins and blimps.\n" },
      { title: "Archive", markdown: "Old things.\n" },
    ]);
    other = await createUser(sys.admin);
    otherOrg = (await createOrg(other.api)).id;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("no token or a bad one is 401 with WWW-Authenticate; a GET is 405", async () => {
    const none = await rawPost(sys.url, "/mcp", INITIALIZE);
    expect(none.status).toBe(401);
    expect(header(none, "www-authenticate")).toContain("Bearer");
    expect(json(none.text).error.message).toContain("token");
    expect((await rawPost(sys.url, "/mcp", INITIALIZE, { authorization: "Bearer dsk_not-a-real-token-at-all" })).status).toBe(401);
    await expect(mcpClient(`${sys.url}/mcp`)).rejects.toThrow();
    const get = await rawGet(sys.url, "/mcp", { authorization: `Bearer ${w.reader.token}` });
    expect(get.status).toBe(405);
    expect(header(get, "allow")).toBe("POST");
  });

  test("lists its tools; the read tools answer what the API answers", async () => {
    const client = await connect(w.reader);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      expect(tools.find((t) => t.name === "readPage")?.annotations?.readOnlyHint).toBe(true);
      expect(tools.find((t) => t.name === "deletePage")?.annotations?.destructiveHint).toBe(true);
      expect(tools.some((t) => /merge/i.test(t.name))).toBe(false);
      const orgs = await callTool(client, "listOrganizations", {});
      expect(orgs.isError).toBeFalsy();
      expect(json(orgs.text).items.map((o: any) => o.id)).toContain(w.orgId);
      const spaces = await callTool(client, "listSpaces", { organizationId: w.orgId });
      expect(json(spaces.text).items.map((s: any) => s.id)).toContain(spaceId);
      const pages = await callTool(client, "listPages", { spaceId });
      expect(json(pages.text).pages.map((p: any) => p.title)).toEqual(["Introduction", "Airships", "Archive"]);
      const byPath = await callTool(client, "readPage", { spaceId, path: "airships" });
      expect(byPath.isError).toBeFalsy();
      expect(byPath.text).toContain("# Airships");
      expect(byPath.text).toContain("All about zeppelins and blimps.");
      const id = json(pages.text).pages[1].id;
      const doc = await callTool(client, "readPage", { spaceId, pageId: id, format: "document" });
      expect(doc.isError).toBeFalsy();
      expect(json(doc.text)).toMatchObject({ id, title: "Airships", document: { object: "document" } });
      const both = await callTool(client, "readPage", { spaceId, pageId: id, path: "airships" });
      expect(both.isError).toBe(true);
      // A reader cannot open a change request: the API's 403, as an error result.
      const refused = await callTool(client, "createChangeRequest", { spaceId, subject: "Nope" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^The API answered 403/);
    } finally {
      await client.close();
    }
  });

  test("an agent's flow: search, read, open a change request, edit, move, insert, delete, comment, request a review; the API and the app's diff page show the changes", async () => {
    const client: Client = await connect(w.editor);
    try {
      const found = await callTool(client, "searchContent", { organizationId: w.orgId, query: "zeppelins" });
      expect(found.isError).toBeFalsy();
      const hit = json(found.text).items.find((s: any) => s.id === spaceId);
      expect(hit.pages[0].title).toBe("Airships");
      const pageId = hit.pages[0].id;
      const page = await callTool(client, "readPage", { spaceId, pageId });
      expect(page.text).toContain("All about zeppelins and blimps.");

      const cr = await callTool(client, "createChangeRequest", { spaceId, subject: "Agent: airships", idempotencyKey: `cr-${mode}` });
      expect(cr.isError).toBeFalsy();
      const changeRequestId = json(cr.text).id;
      // The same Idempotency-Key answers the same change request.
      const again = await callTool(client, "createChangeRequest", { spaceId, subject: "Agent: airships", idempotencyKey: `cr-${mode}` });
      expect(json(again.text).id).toBe(changeRequestId);

      const edited = await callTool(client, "updatePage", { spaceId, changeRequestId, pageId, markdown: "All about zeppelins, blimps and dirigibles.\n" });
      expect(edited.isError).toBeFalsy();
      const inserted = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Hangars", markdown: "Where airships sleep.\n", parentPageId: pageId });
      expect(inserted.isError).toBeFalsy();
      const pages = json((await callTool(client, "listPages", { spaceId, changeRequestId })).text).pages;
      const archive = pages.find((p: any) => p.title === "Archive");
      const intro = pages.find((p: any) => p.title === "Introduction");
      expect(pages.find((p: any) => p.id === pageId).pages.map((p: any) => p.title)).toEqual(["Hangars"]);
      expect((await callTool(client, "movePage", { spaceId, changeRequestId, pageId: intro.id, parentPageId: pageId, position: 0 })).isError).toBeFalsy();
      expect((await callTool(client, "deletePage", { spaceId, changeRequestId, pageId: archive.id })).isError).toBeFalsy();
      const inCr = await callTool(client, "readPage", { spaceId, changeRequestId, pageId });
      expect(inCr.text).toContain("dirigibles");
      // The space itself is unchanged until people merge.
      expect((await callTool(client, "readPage", { spaceId, pageId })).text).not.toContain("dirigibles");

      const comment = await callTool(client, "comment", { spaceId, changeRequestId, markdown: "I rewrote the airships page." });
      expect(comment.isError).toBeFalsy();
      const review = await callTool(client, "requestReview", { spaceId, changeRequestId, userIds: [w.owner.id] });
      expect(review.isError).toBeFalsy();

      const diff = await callTool(client, "getChangeRequestChanges", { spaceId, changeRequestId });
      expect(diff.isError).toBeFalsy();
      // The app's diff, through the HTTP API: the edit, the new page and the deletion are there.
      const api = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/changes?limit=100`);
      expect(api.status).toBe(200);
      expect(json(diff.text)).toEqual(api.body);
      const changed = JSON.stringify(api.body);
      for (const expected of ["Airships", "Hangars", "Archive"]) expect(changed).toContain(expected);
      const comments = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`);
      expect(comments.body.items.map((c: any) => c.body?.markdown ?? JSON.stringify(c.body))).toEqual([expect.stringContaining("I rewrote the airships page.")]);
      const reviewers = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`);
      expect(JSON.stringify(reviewers.body)).toContain(w.owner.id);
      const status = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
      expect(status.body.status).toBe("open");
      // And the app's diff page, as the reviewer opens it: the edit, the new page and the deletion.
      const browser = new Browser(sys.url);
      await signIn(browser, w.owner.token);
      const diffPage = await browser.get(`/s/${spaceId}/~/changes/${status.body.number}/~diff`);
      expect(diffPage.status).toBe(200);
      for (const expected of ["dirigibles", "Hangars", "Archive"]) expect(diffPage.text).toContain(expected);
    } finally {
      await client.close();
    }
  });

  test("insertPage adds a page group with kind \"group\" (a page by default); a bad kind is an error naming it", async () => {
    const client: Client = await connect(w.editor);
    try {
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === "insertPage")!.inputSchema as { properties: Record<string, { enum?: string[] }>; required?: string[] };
      expect(schema.properties.kind.enum).toEqual(["document", "group"]);
      expect(schema.required).not.toContain("kind");
      const changeRequestId = json((await callTool(client, "createChangeRequest", { spaceId, subject: "Agent: groups" })).text).id;
      const group = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Reference", kind: "group" });
      expect(group.isError).toBeFalsy();
      const page = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Glossary", markdown: "Words.\n" });
      expect(page.isError).toBeFalsy();
      const explicit = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Empty", kind: "document" });
      expect(explicit.isError).toBeFalsy();
      const api = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
      const kinds = Object.fromEntries(api.body.pages.map((p: any) => [p.title, p.type]));
      expect(kinds).toMatchObject({ Reference: "group", Glossary: "document", Empty: "document" });

      // A kind that is neither, a group with a body or under a page: error results naming the field, nothing added.
      const odd = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Odd", kind: "folder" });
      expect(odd.isError).toBe(true);
      expect(odd.text).toContain("kind");
      const withBody = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Bodied", kind: "group", markdown: "Text." });
      expect(withBody).toMatchObject({ isError: true, text: "markdown: a page group has no content." });
      const nested = await callTool(client, "insertPage", { spaceId, changeRequestId, title: "Nested", kind: "group", parentPageId: api.body.pages[0].id });
      expect(nested).toMatchObject({ isError: true, text: "parentPageId: a page group stays at the top level." });
      const after = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
      const titles = JSON.stringify(after.body.pages);
      for (const title of ["Odd", "Bodied", "Nested"]) expect(titles).not.toContain(`"${title}"`);
    } finally {
      await client.close();
    }
  });

  test("another organization's token reads and writes nothing of this organization's", async () => {
    const owner = await connect(w.owner);
    const outsider = await connect(other);
    try {
      const cr = json((await callTool(owner, "createChangeRequest", { spaceId, subject: "Owner's" })).text).id;
      const pageId = json((await callTool(owner, "listPages", { spaceId })).text).pages[0].id;
      const orgs = json((await callTool(outsider, "listOrganizations", {})).text).items.map((o: any) => o.id);
      expect(orgs).toEqual([otherOrg]);
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["listSpaces", { organizationId: w.orgId }],
        ["searchContent", { organizationId: w.orgId, query: "zeppelins" }],
        ["listPages", { spaceId }],
        ["readPage", { spaceId, pageId }],
        ["readPage", { spaceId, changeRequestId: cr, pageId }],
        ["createChangeRequest", { spaceId }],
        ["updatePage", { spaceId, changeRequestId: cr, pageId, markdown: "Taken over." }],
        ["insertPage", { spaceId, changeRequestId: cr, title: "Spam", markdown: "Spam." }],
        ["insertPage", { spaceId, changeRequestId: cr, title: "Spam group", kind: "group" }],
        ["movePage", { spaceId, changeRequestId: cr, pageId, parentPageId: null }],
        ["deletePage", { spaceId, changeRequestId: cr, pageId }],
        ["comment", { spaceId, changeRequestId: cr, markdown: "Hello" }],
        ["comment", { spaceId, markdown: "Hello" }],
        ["requestReview", { spaceId, changeRequestId: cr, userIds: [other.id] }],
        ["getChangeRequestChanges", { spaceId, changeRequestId: cr }],
      ];
      for (const [tool, args] of attempts) {
        const result = await callTool(outsider, tool, args);
        expect({ tool, isError: result.isError, status: result.text.slice(0, 20) }).toEqual({ tool, isError: true, status: "The API answered 404" });
        expect(result.text).not.toContain("zeppelins");
      }
      const changes = await w.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/changes`);
      expect(changes.body.changes).toEqual([]);
      const comments = await w.owner.api.get(`/v1/spaces/${spaceId}/comments`);
      expect(comments.body.items).toEqual([]);
    } finally {
      await owner.close();
      await outsider.close();
    }
  });

  test("generated bad input to every tool is an error result, never a 5xx", async () => {
    const client = await connect(w.owner);
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const cases = badArguments(tool.inputSchema as never);
        for (const args of cases) {
          const result = await callTool(client, tool.name, args);
          expect({ tool: tool.name, args, isError: result.isError }).toEqual({ tool: tool.name, args, isError: true });
          expect(result.text).not.toMatch(/answered 5\d\d/);
        }
      }
      // A path cannot climb out of the page reads to another path of the instance.
      for (const path of ["../../../../health", "a/../../../../../metrics", "./x"]) {
        const escaped = await callTool(client, "readPage", { spaceId, path });
        expect(escaped.isError).toBe(true);
        expect(escaped.text).not.toContain("status");
      }
    } finally {
      await client.close();
    }
    for (const body of ["{", "[]", "null", '{"jsonrpc":"2.0"}', JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "readPage", arguments: "x" } })]) {
      const res = await rawPost(sys.url, "/mcp", body, { authorization: `Bearer ${w.owner.token}` });
      expect(res.status).toBeLessThan(500);
    }
    expect((await rawPost(sys.url, "/mcp", INITIALIZE, { authorization: `Bearer ${w.owner.token}`, "content-type": "text/plain" })).status).toBe(415);
  }, 300_000);
});
