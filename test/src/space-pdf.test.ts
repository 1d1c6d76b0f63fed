// getSpacePDF through HTTP, in every process mode: GitBook's `{url}` answer, the download without a bearer
// token (the change request renderer on the space's current revision), page selection, access,
// isolation, bad input, and refused (tampered, change-request, revoked, expired) links.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, pageIdByTitle, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { expectPdfFile, parsePdf } from "./change-requests-pdf";
import { MODES, startPrivate } from "./modes";

describe.each(MODES)("space PDF export over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let spaceId: string;

  beforeAll(async () => {
    sys = await startPrivate(mode); // its own: it advances the instance's clock
    [owner, reader, guest, outsider] = await Promise.all([1, 2, 3, 4].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, guest.email, null);
    await createSpace(outsider.api, (await createOrg(outsider.api)).id, { title: "Theirs" });
    spaceId = (await createSpace(owner.api, orgId, { title: "Handbook" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function pdfUrl(query = "", as: TestUser = reader): Promise<string> {
    const res = await as.api.get(`/v1/spaces/${spaceId}/pdf${query}`);
    expect(res.status).toBe(200);
    expectSchema("getSpacePDF", 200, res.body, { latest: true });
    expect(Object.keys(res.body)).toEqual(["url"]);
    return res.body.url as string;
  }

  /** The URL as a browser follows it: no Authorization header. */
  async function download(url: string) {
    const res = await fetch(url);
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const pageId = (title: string) => pageIdByTitle(owner.api, `/v1/spaces/${spaceId}/content/pages`, title);

  test("a signed URL to the space's current revision as a PDF, downloaded without a bearer token", async () => {
    const url = await pdfUrl();
    expect(url.startsWith(`${sys.url}/v1/spaces/${spaceId}/pdf/`)).toBe(true);
    const { res, bytes } = await download(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="space-${spaceId}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectPdfFile(bytes);
    const pdf = await parsePdf(bytes);
    expect(pdf.title).toBe("Handbook");
    expect(pdf.outline.map((item) => item.title)).toEqual(["Contents", "Welcome", "Quickstart", "Configuration"]);
    expect(pdf.outline[2].items.map((item) => item.title)).toEqual(["Installation"]);
    expect(pdf.text).toContain("Lost?");
  });

  test("the URL keeps the revision it was made for; a new URL prints main as it is now", async () => {
    const before = await pdfUrl();
    const added = await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Add" });
    const cr = `/v1/spaces/${spaceId}/change-requests/${added.body.id}`;
    expect((await owner.api.post(`${cr}/content`, { changes: [{ operation: "insert_page", document: { markdown: "# Appendix\n\nLate words." } }] })).status).toBe(200);
    expect((await owner.api.post(`${cr}/merge`)).status).toBe(200);
    const old = await parsePdf((await download(before)).bytes);
    expect(old.text).not.toContain("Late words.");
    const now = await parsePdf((await download(await pdfUrl())).bytes);
    expect(now.text).toContain("Late words.");
  });

  test("`page` prints a page with its sub-pages, `only` that page alone; `only` without `page` is 400, an unknown page 404", async () => {
    const quickstart = await pageId("Quickstart");
    const withChildren = await parsePdf((await download(await pdfUrl(`?page=${quickstart}`))).bytes);
    expect(withChildren.outline.map((item) => item.title)).toEqual(["Contents", "Quickstart"]);
    expect(withChildren.text).toContain("Lost?");
    expect(withChildren.text).not.toContain("Welcome");
    const alone = await parsePdf((await download(await pdfUrl(`?only=true&page=${quickstart}`))).bytes);
    expect(alone.outline[1].items).toEqual([]);
    expect(alone.text).not.toContain("Lost?");
    const bad = await reader.api.get(`/v1/spaces/${spaceId}/pdf?only=true`);
    expect(bad.status).toBe(400);
    expectErrorBody(400, bad.body);
    expect(bad.body.error.message).toContain("page");
    const notBoolean = await reader.api.get(`/v1/spaces/${spaceId}/pdf?only=perhaps&page=${quickstart}`);
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.error.message).toContain("only");
    const unknown = await reader.api.get(`/v1/spaces/${spaceId}/pdf?page=nosuchpage`);
    expect(unknown.status).toBe(404);
    expectErrorBody(404, unknown.body);
  });

  test("no token or a bad one is 401; a guest without access and another organization's user get 404", async () => {
    for (const client of [sys.admin.as(undefined), sys.admin.as("not-a-token")]) {
      const res = await client.get(`/v1/spaces/${spaceId}/pdf`);
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
    for (const user of [guest, outsider]) {
      const res = await user.api.get(`/v1/spaces/${spaceId}/pdf`);
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
  });

  test("a tampered, misplaced or change request URL is 404; so is one whose asker lost access, or an hour old", async () => {
    const url = await pdfUrl();
    const token = url.slice(url.lastIndexOf("/") + 1);
    const [payload, mac] = token.split(".");
    const flipped = `${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const other = (await createSpace(owner.api, orgId, { title: "Other" })).id;
    const cr = (await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "CR" })).body as { id: string };
    const crUrl = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf`)).body.url as string;
    const crToken = crUrl.slice(crUrl.lastIndexOf("/") + 1);
    for (const bad of [
      `${sys.url}/v1/spaces/${spaceId}/pdf/${flipped}`,
      `${sys.url}/v1/spaces/${other}/pdf/${token}`,
      `${sys.url}/v1/spaces/${spaceId}/pdf/${crToken}`,
      `${sys.url}/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf/${token}`,
      `${sys.url}/v1/spaces/${spaceId}/pdf/not-a-token-at-all`,
    ]) {
      const { res, bytes } = await download(bad);
      expect([bad, res.status]).toEqual([bad, 404]);
      expectErrorBody(404, JSON.parse(bytes.toString("utf8")));
    }
    expect((await download(url)).res.status).toBe(200);

    // The user who asked for it leaves the organization: the URL stops working.
    const leaving = await createUser(sys.admin);
    await addMember(owner.api, orgId, leaving.email, "read");
    const theirs = await pdfUrl("", leaving);
    expect((await download(theirs)).res.status).toBe(200);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/members/${leaving.id}`)).status).toBe(204);
    expect((await download(theirs)).res.status).toBe(404);

    expect((await sys.admin.post("/v1/_test/change-requests/clock", { ms: 3600 * 1000 + 1000 })).status).toBe(200);
    const expired = await download(url);
    expect(expired.res.status).toBe(404);
    expectErrorBody(404, JSON.parse(expired.bytes.toString("utf8")));
    expect((await download(await pdfUrl())).res.status).toBe(200);
  });
});
