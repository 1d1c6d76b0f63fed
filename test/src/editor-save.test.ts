// The block editor's server side through the HTTP gateway: its page (the page's GitBook document in a
// JSON data block, its script and stylesheet under a CSP that admits only the app's own script), its
// hashed assets with a year's cache, and its save (`intent: save-document`): the document stored in the
// change request, refusals naming the field, no save without a session, with another's CSRF token, by a
// reader, or into another organization's change request.
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { addMember, createUser, type RunningSystem } from "@docshelf/testkit";
import { checkDocument } from "@docshelf/document";
import { MODES, start } from "./modes";
import { Browser, appWorld, csrfOf, pathOf, signIn, type AppWorld } from "./app-fixtures";

const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const DOC = {
  object: "document",
  data: {},
  nodes: [
    { object: "block", type: "heading-2", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Saved from the editor", marks: [] }] }] },
    { object: "block", type: "hint", data: { style: "warning" }, nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Careful", marks: [{ object: "mark", type: "bold" }] }] }] }] },
  ],
};

describe.each(MODES)("the block editor's page and save over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let crPath: string;
  let number: string;
  let author: Browser;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    author = new Browser(sys.url);
    await signIn(author, w.alice.token);
    crPath = pathOf(w.urls.changeRequest);
    number = crPath.split("/").pop()!;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  const editorPage = () => author.get(`${crPath}/welcome?edit=blocks`);

  test("the editor's page holds the page's document, loads the hashed script and stylesheet, and admits only the app's own script", async () => {
    const page = await editorPage();
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(`${PAGE_CSP}; script-src 'self'; connect-src 'self'`);
    const data = /<script type="application\/json" id="editor-document">([^<]*)<\/script>/.exec(page.text);
    expect(data).not.toBeNull();
    const doc = checkDocument(JSON.parse(data![1]));
    expect(JSON.stringify(doc)).toContain("handbook");
    const js = /<script src="(\/app\/assets\/editor-[A-Z0-9]+\.js)" defer><\/script>/.exec(page.text)?.[1];
    const css = /<link rel="stylesheet" href="(\/app\/assets\/editor-[A-Z0-9]+\.css)">/.exec(page.text)?.[1];
    expect(js).toBeDefined();
    expect(css).toBeDefined();
    // No inline script anywhere: the one script element with content is the JSON data block.
    expect(page.text.match(/<script(?![^>]*(src=|type="application\/json"))/g)).toBeNull();

    // The assets: no session needed, cached for a year, the right types.
    const anonymous = new Browser(sys.url);
    const script = await anonymous.get(js!);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(script.text.length).toBeGreaterThan(10_000);
    const style = await anonymous.get(css!);
    expect(style.status).toBe(200);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(style.text).toContain(".ProseMirror");
    // An unknown or malformed asset name is not found, and no path leaves the folder.
    for (const path of ["/app/assets/editor-AAAAAAAA.js", "/app/assets/..%2Fmanifest.json", "/app/assets/manifest.json", "/app/assets/"]) {
      expect((await author.get(path)).status).not.toBe(200);
    }
  });

  test("the editor's assets go out compressed (brotli or gzip, as the client takes them) to the same bytes; pages never", async () => {
    /** A GET with exactly these request headers (fetch would add its own Accept-Encoding and decode the answer). */
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(sys.url + path, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      });
    const page = await editorPage();
    const js = /<script src="(\/app\/assets\/editor-[A-Z0-9]+\.js)" defer><\/script>/.exec(page.text)![1];
    const plain = await raw(js, {});
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    const br = await raw(js, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 2.5);
    const gz = await raw(js, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // A page carries a CSRF token beside what the reader sent: never compressed (BREACH).
    const cookie = author.cookieHeader();
    const html = await raw(`${crPath}/welcome?edit=blocks`, { "accept-encoding": "gzip, br", ...(cookie ? { cookie } : {}) });
    expect(html.status).toBe(200);
    expect(html.headers["content-encoding"]).toBeUndefined();
  });

  test("read-only pages do without the editor: the change request, the Markdown editor, the space carry only the app's small script", async () => {
    for (const path of [crPath, `${crPath}/welcome`, `${crPath}/welcome?edit=1`, pathOf(w.urls.space)]) {
      const page = await author.get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-security-policy")).toBe(`${PAGE_CSP}; script-src 'self'; connect-src 'self'`);
      expect(page.text.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/^<script src="\/app\/assets\/shell-[A-Z0-9]{8,}\.js" defer>$/)]);
    }
    // The change request's page links both editors.
    const cr = await author.get(`${crPath}/welcome`);
    expect(cr.text).toContain("/welcome?edit=blocks\">Edit this page</a>");
    expect(cr.text).toContain("/welcome?edit=1\">Edit the Markdown</a>");
  });

  test("a save stores the document in the change request (and only there)", async () => {
    const csrf = csrfOf((await author.get(`${crPath}/welcome?edit=1`)).text);
    const saved = await author.post(`${crPath}/welcome`, { _csrf: csrf, intent: "save-document", document: JSON.stringify(DOC) });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(saved.text)).toEqual({ saved: true });
    const inCr = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`);
    expect(inCr.body.markdown).toContain("## Saved from the editor");
    expect(inCr.body.markdown).toContain('{% hint style="warning" %}\n**Careful**\n{% endhint %}');
    const asDocument = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=document`);
    expect(() => checkDocument(asDocument.body.document)).not.toThrow();
    const main = await w.alice.api.get(`/v1/spaces/${w.spaceId}/content/path/welcome?format=markdown`);
    expect(main.body.markdown).not.toContain("Saved from the editor");
    // The editor opens on what was saved.
    expect((await editorPage()).text).toContain("Saved from the editor");
  });

  test("a document that is not JSON or not a GitBook document is a 400 naming the field, nothing saved", async () => {
    const csrf = csrfOf((await author.get(`${crPath}/welcome?edit=1`)).text);
    const before = (await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`)).body.markdown;
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /'document' must be a JSON document/],
      ["{not json", /'document' must be a JSON document/],
      [JSON.stringify({ object: "page" }), /document\.object/],
      [JSON.stringify({ object: "document", nodes: [{ object: "block", type: "script", nodes: [] }] }), /document\.nodes\[0\]\.type/],
      [JSON.stringify({ object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "x", marks: [{ object: "mark", type: "blink" }] }] }] }] }), /document\.nodes\[0\]\.nodes\[0\]\.leaves\[0\]\.marks\[0\]/],
      [JSON.stringify({ object: "document", nodes: [{ object: "block", type: "image", data: {}, isVoid: true }] }), /document\.nodes\[0\]\.data\.ref/],
    ];
    for (const [document, message] of cases) {
      const form: Record<string, string> = { _csrf: csrf, intent: "save-document" };
      if (document !== undefined) form.document = document;
      const res = await author.post(`${crPath}/welcome`, form);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toMatch(message);
    }
    const after = (await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`)).body.markdown;
    expect(after).toBe(before);
  });

  test("the editor's image upload (reply=json) answers the file's id, or its refusal in JSON", async () => {
    const csrf = csrfOf((await author.get(`${crPath}/welcome?edit=1`)).text);
    const post = async (file?: { name: string; bytes: Buffer }) => {
      const body = new FormData();
      body.append("_csrf", csrf);
      body.append("intent", "upload");
      body.append("reply", "json");
      if (file) body.append("file", new Blob([new Uint8Array(file.bytes)], { type: "image/png" }), file.name);
      const res = await fetch(`${sys.url}${crPath}/~files`, { method: "POST", body, headers: { cookie: author.cookieHeader() }, redirect: "manual" });
      return { status: res.status, body: (await res.json()) as { file?: { id: string; name: string }; error?: string } };
    };
    const ok = await post({ name: "diagram.png", bytes: Buffer.from("89504e470d0a1a0a", "hex") });
    expect(ok.status).toBe(200);
    expect(ok.body.file?.name).toBe("diagram.png");
    const files = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/files`);
    expect((files.body.items as Array<{ id: string }>).map((f) => f.id)).toContain(ok.body.file!.id);
    const none = await post();
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/Pick a file/);
    const big = await post({ name: "big.png", bytes: Buffer.alloc(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/too large/);
  });

  test("no save without a session, with a wrong CSRF token, by a reader, or into another organization's change request", async () => {
    const document = JSON.stringify({ ...DOC, nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Intruder", marks: [] }] }] }] });
    const anonymous = new Browser(sys.url);
    expect((await anonymous.post(`${crPath}/welcome`, { _csrf: "x".repeat(43), intent: "save-document", document })).status).toBe(403);
    expect((await author.post(`${crPath}/welcome`, { _csrf: "x".repeat(43), intent: "save-document", document })).status).toBe(403);

    const reader = await createUser(sys.admin, { displayName: "Rea Der" });
    await addMember(w.alice.api, w.orgId, reader.email, "read");
    const readerBrowser = new Browser(sys.url);
    await signIn(readerBrowser, reader.token);
    const readerCsrf = csrfOf((await readerBrowser.get(crPath)).text);
    const refused = await readerBrowser.post(`${crPath}/welcome`, { _csrf: readerCsrf, intent: "save-document", document });
    expect(refused.status).toBe(404);

    // Bob, admin of his own organization only: alice's change request is not found, its editor neither.
    const bob = new Browser(sys.url);
    await signIn(bob, w.bob.token);
    const bobCsrf = csrfOf((await bob.get(`/o/${w.bobOrgId}`)).text);
    expect((await bob.post(`${crPath}/welcome`, { _csrf: bobCsrf, intent: "save-document", document })).status).toBe(404);
    expect((await bob.get(`${crPath}/welcome?edit=blocks`)).status).toBe(404);

    const inCr = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${number}/content/path/welcome?format=markdown`);
    expect(inCr.body.markdown).not.toContain("Intruder");
  });
});
