// Change request PDF export through HTTP, in every process mode: the signed URL, the download without a
// bearer token, the rendered document, page selection, and refused (tampered, foreign, expired) links.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, pageIdByTitle, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { expectPdfFile, parsePdf } from "./change-requests-pdf";
import { MODES, startPrivate } from "./modes";

const RICH = [
  "# Printed page",
  "",
  "Some **bold words** and *italic ones*, `inline code` and a [link](https://example.com/docs).",
  "",
  "## A section",
  "",
  "- first item",
  "- second item",
  "",
  "> a quotation",
  "",
  "```",
  "const answer = 42;",
  "```",
  "",
  "| Name | Value |",
  "| --- | --- |",
  "| alpha | 1 |",
  "",
  "![Architecture diagram](diagram.png)",
  "",
  "Grüße aus Köln — Привет, Ελλάδα.",
].join("\n");

describe.each(MODES)("change request PDF export over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let cr: { id: string; number: number };

  beforeAll(async () => {
    sys = await startPrivate(mode); // its own: it advances the instance's clock
    [owner, editor, reader, outsider] = await Promise.all([1, 2, 3, 4].map(() => createUser(sys.admin)));
    const orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reader.email, "read");
    spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    expect((await owner.api.post(`/v1/spaces/${spaceId}/content/template`, { id: "getting-started" })).status).toBe(201);
    const created = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Printable" });
    expect(created.status).toBe(201);
    cr = created.body;
    const edited = await editor.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: "insert_page", document: { markdown: RICH } }] });
    expect(edited.status).toBe(200);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function pdfUrl(query = "", as: TestUser = reader): Promise<string> {
    const res = await as.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf${query}`);
    expect(res.status).toBe(200);
    expectSchema("getChangeRequestPDF", 200, res.body);
    return res.body.url as string;
  }

  /** The URL as a browser follows it: no Authorization header. */
  async function download(url: string, headers: Record<string, string> = {}) {
    const res = await fetch(url, { headers });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const pageId = (title: string) => pageIdByTitle(owner.api, `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`, title);

  test("the signed URL downloads without a bearer token: an attachment, not stored, whose PDF renders every page", async () => {
    const url = await pdfUrl();
    expect(url.startsWith(`${sys.url}/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf/`)).toBe(true);
    const { res, bytes } = await download(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="change-request-${cr.number}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectPdfFile(bytes);
    const pdf = await parsePdf(bytes);
    expect(pdf.title).toBe(`Change request #${cr.number}: Printable`);
    for (const words of ["Contents", "Welcome", "Quickstart", "Installation", "Configuration", "Printed page", "A section", "bold words", "italic ones", "inline code", "first item", "a quotation", "const answer = 42;", "alpha", "[image: Architecture diagram]", "Grüße aus Köln — Привет, Ελλάδα."]) {
      expect(pdf.text).toContain(words);
    }
    // Rendered, not printed as source.
    expect(pdf.text).not.toContain("**bold words**");
    expect(pdf.text).not.toContain("](https://example.com/docs)");
    expect(pdf.outline.map((item) => item.title)).toEqual(["Contents", "Welcome", "Quickstart", "Configuration", "Printed page"]);
    expect(pdf.outline[2].items.map((item) => item.title)).toEqual(["Installation"]);
  });

  test("a page with its sub-pages, or that page alone; `only` without `page` is 400 and an unknown page 404", async () => {
    const quickstart = await pageId("Quickstart");
    const withChildren = await parsePdf((await download(await pdfUrl(`?page=${quickstart}`))).bytes);
    expect(withChildren.outline.map((item) => item.title)).toEqual(["Contents", "Quickstart"]);
    // "Lost?" opens the Installation page's own text (the Quickstart page names that page too).
    expect(withChildren.text).toContain("Lost?");
    expect(withChildren.text).not.toContain("Welcome");
    const alone = await parsePdf((await download(await pdfUrl(`?only=true&page=${quickstart}`))).bytes);
    expect(alone.outline.map((item) => item.title)).toEqual(["Contents", "Quickstart"]);
    expect(alone.outline[1].items).toEqual([]);
    expect(alone.text).not.toContain("Lost?");
    const bad = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf?only=true`);
    expect(bad.status).toBe(400);
    expectErrorBody(400, bad.body);
    const unknown = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf?page=nosuchpage`);
    expect(unknown.status).toBe(404);
    expectErrorBody(404, unknown.body);
  });

  test("asking for the URL needs read access: outsiders get 404, no token 401", async () => {
    const hidden = await outsider.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf`);
    expect(hidden.status).toBe(404);
    expectErrorBody(404, hidden.body);
    const anonymous = await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf`);
    expect(anonymous.status).toBe(401);
    expectErrorBody(401, anonymous.body);
    // Other /v1/spaces URLs still ask for a token; one that matches no route answers as any unknown /v1 URL does.
    expect((await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).status).toBe(401);
    const unknown = await sys.admin.as(undefined).get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf/a/b`);
    expect(unknown.status).toBe((await sys.admin.as(undefined).get(`/v1/nosuch/${spaceId}/change-requests/${cr.id}/pdf/a/b`)).status);
    expectErrorBody(unknown.status, unknown.body);
  });

  test("a tampered, misplaced or expired URL is 404 in the error body; a bearer token does not make it valid", async () => {
    const url = await pdfUrl();
    const token = url.slice(url.lastIndexOf("/") + 1);
    const [payload, mac] = token.split(".");
    const flipped = `${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const forgedClaims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...forgedClaims, exp: Date.now() + 10 * 24 * 3600 * 1000 })).toString("base64url")}.${mac}`;
    const other = (await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Other" })).body as { id: string };
    const refused = [
      `${sys.url}/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf/${flipped}`,
      `${sys.url}/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf/${forged}`,
      `${sys.url}/v1/spaces/${spaceId}/change-requests/${other.id}/pdf/${token}`,
      `${sys.url}/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf/not-a-token-at-all`,
    ];
    for (const bad of refused) {
      const { res, bytes } = await download(bad);
      expect([bad, res.status]).toEqual([bad, 404]);
      expectErrorBody(404, JSON.parse(bytes.toString("utf8")));
      const withToken = await download(bad, { authorization: `Bearer ${owner.token}` });
      expect([bad, withToken.res.status]).toEqual([bad, 404]);
    }
    expect((await download(url)).res.status).toBe(200);

    // An hour later the URL has expired.
    expect((await sys.admin.post("/v1/_test/change-requests/clock", { ms: 3600 * 1000 + 1000 })).status).toBe(200);
    const expired = await download(url);
    expect(expired.res.status).toBe(404);
    expectErrorBody(404, JSON.parse(expired.bytes.toString("utf8")));
    // A new one works again.
    expect((await download(await pdfUrl())).res.status).toBe(200);
  });
});
