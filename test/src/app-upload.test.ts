// Uploading a file in the app: a change request's files page posts a multipart form (with its CSRF
// token) through the HTTP gateway; the file lands in the change request as `insert_files` would put it
// through the API, as the signed-in user, within the API's 1 MB limit and (over NATS) what one message carries.
import { addMember, createUser, type RunningSystem } from "@docshelf/testkit";
import { Browser, appWorld, csrfOf, signIn, type AppWorld } from "./app-fixtures";
import { MODES, start } from "./modes";

describe.each(MODES)("uploads in the app over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let filesPath: string;
  let crId: string;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject: "Add files" });
    expect(cr.status).toBe(201);
    filesPath = `/s/${w.spaceId}/~/changes/${cr.body.number}/~files`;
    crId = cr.body.id;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  /** Posts the files page's form as a browser does: multipart/form-data. */
  async function upload(browser: Browser, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append("file", new Blob([file.bytes], { type: file.type }), file.name);
    const res = await fetch(sys.url + filesPath, { method: "POST", body: form, headers: { cookie: browser.cookieHeader() }, redirect: "manual" });
    return { status: res.status, location: res.headers.get("location"), text: await res.text() };
  }

  test("the files page offers a multipart form; an uploaded file is listed there and by the API, bytes intact", async () => {
    const browser = new Browser(sys.url);
    await signIn(browser, w.alice.token);
    const page = await browser.get(filesPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain('enctype="multipart/form-data"');
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 255]);
    const res = await upload(browser, { _csrf: csrfOf(page.text), intent: "upload" }, { name: "diagram.png", type: "image/png", bytes });
    expect(res.status).toBe(303);
    expect(res.location).toBe(filesPath);
    expect((await browser.get(filesPath)).text).toContain("diagram.png");

    const listed = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${crId}/content/files`);
    const file = listed.body.items.find((f: { name: string }) => f.name === "diagram.png");
    expect(file).toMatchObject({ contentType: "image/png", size: bytes.length });
    const download = await fetch(file.downloadURL.replace(/^https?:\/\/[^/]+/, sys.url));
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  test("without the CSRF token, or without a session, the upload is refused", async () => {
    const browser = new Browser(sys.url);
    await signIn(browser, w.alice.token);
    const bytes = Buffer.from("hello");
    expect((await upload(browser, { intent: "upload" }, { name: "a.txt", type: "text/plain", bytes })).status).toBe(403);
    expect((await upload(new Browser(sys.url), { intent: "upload" }, { name: "a.txt", type: "text/plain", bytes })).status).toBe(403);
  });

  test("a file over what one message can carry is a 413 page naming the limit (NATS's max_payload; the API's 1 MB in one process)", async () => {
    const browser = new Browser(sys.url);
    await signIn(browser, w.alice.token);
    const csrf = csrfOf((await browser.get(filesPath)).text);
    // Over NATS (max_payload 1 MiB) the base64 of a file and the rest of the message: at most 761,856 bytes.
    const limit = mode === "nats" ? 761_856 : 1024 * 1024;
    const fits = await upload(browser, { _csrf: csrf, intent: "upload" }, { name: "fits.bin", type: "application/octet-stream", bytes: Buffer.alloc(limit, 1) });
    expect(fits.status).toBe(303);
    for (const size of [limit + 1, 800_000, 1024 * 1024 + 1].filter((n) => n > limit)) {
      const over = await upload(browser, { _csrf: csrf, intent: "upload" }, { name: "big.bin", type: "application/octet-stream", bytes: Buffer.alloc(size, 2) });
      expect({ size, status: over.status }).toEqual({ size, status: 413 });
      expect(over.text).toContain(`That file is too large: ${size} bytes; a file is at most ${limit} bytes`);
      expect(over.text).toContain('enctype="multipart/form-data"');
    }
    const listed = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${crId}/content/files`);
    const names = listed.body.items.map((f: { name: string }) => f.name);
    expect(names).toContain("fits.bin");
    expect(names).not.toContain("big.bin");
    // Far larger than any form: the gateway's own 413.
    const huge = await upload(browser, { _csrf: csrf, intent: "upload" }, { name: "huge.bin", type: "application/octet-stream", bytes: Buffer.alloc(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const none = await upload(browser, { _csrf: csrf, intent: "upload" });
    expect(none.status).toBe(400);
  });

  test("the API's own inline insert_files: over NATS a body larger than one message is GitBook's 413 naming the limit, not a 503", async () => {
    const content = `/v1/spaces/${w.spaceId}/change-requests/${crId}/content`;
    const insert = (name: string, size: number) => ({ changes: [{ operation: "insert_files", files: [{ name, contentType: "application/octet-stream", base64: Buffer.alloc(size, 3).toString("base64") }] }] });
    // 700,000 bytes (933,336 of base64) fit one message and the API's 1 MB.
    expect((await w.alice.api.post(content, insert("api-fits.bin", 700_000))).status).toBe(200);
    // 786,300 bytes: a body of about 1,048,520 bytes, just under the JSON limit (1 MiB) but with the message around it
    // more than NATS takes (measured: a 500 before this check).
    const between = await w.alice.api.post(content, insert("api-between.bin", 786_300));
    if (mode === "nats") {
      expect(between.status).toBe(413);
      expect(between.body).toEqual({ error: { code: 413, message: expect.stringContaining("a request body is at most 1015808 bytes") } });
      expect(between.body.error.message).toContain("about 761856 bytes");
      // A chunked body (no Content-Length) is measured once read.
      const body = JSON.stringify(insert("api-chunked.bin", 786_300));
      const chunked = await fetch(sys.url + content, {
        method: "POST",
        headers: { authorization: `Bearer ${w.alice.token}`, "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(body));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect(((await chunked.json()) as { error: { message: string } }).error.message).toContain("at most 1015808 bytes");
    } else {
      // In one process there is no message: the API's own limits (1 MB a file, the 1 MiB JSON body).
      expect(between.status).toBe(200);
    }
    // Over the JSON body limit: the gateway's 413 in both modes.
    const over = await w.alice.api.post(content, insert("api-over.bin", 1024 * 1024 + 1));
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe(413);
    const names = (await w.alice.api.get(`${content}/files`)).body.items.map((f: { name: string }) => f.name);
    expect(names).toContain("api-fits.bin");
    expect(names.includes("api-between.bin")).toBe(mode !== "nats");
    expect(names).not.toContain("api-chunked.bin");
    expect(names).not.toContain("api-over.bin");
  });

  test("a reader of the space cannot upload: the change-request action refuses them", async () => {
    const reader = await createUser(sys.admin);
    await addMember(w.alice.api, w.orgId, reader.email, "read");
    const browser = new Browser(sys.url);
    await signIn(browser, reader.token);
    const page = await browser.get(filesPath);
    expect(page.status).toBe(200);
    const res = await upload(browser, { _csrf: csrfOf(page.text), intent: "upload" }, { name: "x.txt", type: "text/plain", bytes: Buffer.from("x") });
    expect([400, 404]).toContain(res.status);
    const listed = await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests/${crId}/content/files`);
    expect(listed.body.items.map((f: { name: string }) => f.name)).not.toContain("x.txt");
  });
});
