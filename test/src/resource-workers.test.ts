// Issue 36, CPU isolation: work on untrusted input runs on worker threads with a time limit. Past it the
// worker thread is ended (a spinning thread cannot be interrupted otherwise) and the work fails with an
// error naming the limit, recorded where its owner reads it: an import run's reason, a spec's
// PARSE_ERROR. The instance answers on all along. A private system with WORKER_TASK_TIMEOUT_MS at its
// least (100 ms), so inputs that take a second or more of CPU hit it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { strToU8, zipSync } from "fflate";
import { createOrg, createSpace, createUser, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { fanOut, until } from "./resource-fixtures";
import { MODES, startPrivate } from "./modes";


/** Five 400 KiB HTML pages, zipped: seconds of HTML-to-Markdown conversion. */
function htmlZip(): Buffer {
  const page = (seed: number) =>
    `<html><head><title>Page ${seed}</title></head><body>${Array.from({ length: 5120 }, (_, i) => `<p>Paragraph ${i} of ${seed}, <b>bold</b> and <a href="/p${(i * 7919) % 10007}">link</a>.</p>`).join("")}</body></html>`;
  return Buffer.from(zipSync(Object.fromEntries(Array.from({ length: 5 }, (_, f) => [`p${f}.html`, strToU8(page(f))])), { level: 9 }));
}

/** A 1 MiB HTML table: seconds of conversion (linear now; a 400 KiB table once took minutes), far past 100 ms. */
function tablePage(): string {
  let rows = "";
  for (let i = 0; rows.length < 1024 * 1024; i++) rows += `<tr><td>${i}</td><td><b>b</b></td><td><i>${i % 13}</i></td></tr>`;
  return `<html><head><title>Table</title></head><body><h1>Table</h1><table>${rows}</table></body></html>`;
}

describe.each(MODES)("worker time limit over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let website: Server;
  let siteUrl: string;

  beforeAll(async () => {
    const page = tablePage();
    website = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page));
    await new Promise<void>((resolve) => website.listen(0, "127.0.0.1", resolve));
    const { port } = website.address() as AddressInfo;
    siteUrl = `http://127.0.0.1:${port}/`;
    sys = await startPrivate(mode, { WORKER_TASK_TIMEOUT_MS: "100", CONTENT_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${port}` });
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
    await new Promise((resolve) => website?.close(resolve));
  });

  test("an import run whose files take longer than the limit fails naming it, writes nothing, and the instance answers on", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Too slow" });
    const before = (await owner.api.get(`/v1/spaces/${space.id}`)).body.revision;
    const res = await owner.api.post(`/v1/org/${orgId}/imports`, {
      source: { type: "file", files: [`data:application/zip;name=docs.zip;base64,${htmlZip().toString("base64")}`] },
      target: { space: space.id },
    });
    expect(res.status).toBe(201);
    const run = await until("the run ends", 60_000, async () => {
      const got = await owner.api.get(`/v1/org/${orgId}/imports/${res.body.id}`);
      return ["pending", "in-progress"].includes(got.body.status) ? undefined : got.body;
    });
    expectSchema("getImportRun", 200, run, { latest: true });
    expect(run).toMatchObject({ status: "failed", reason: "Reading the files took longer than the limit of 100 ms; send fewer or smaller files." });
    expect((await owner.api.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
  });

  test("a website import run whose pages take longer than the limit to convert fails naming it", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Table" });
    const res = await owner.api.post(`/v1/org/${orgId}/imports`, { source: { type: "website", url: siteUrl }, target: { space: space.id } });
    expect(res.status).toBe(201);
    const run = await until("the run ends", 60_000, async () => {
      const got = await owner.api.get(`/v1/org/${orgId}/imports/${res.body.id}`);
      return ["pending", "in-progress"].includes(got.body.status) ? undefined : got.body;
    });
    expect(run).toMatchObject({ status: "failed", reason: "Converting the imported pages took longer than the limit of 100 ms; import fewer or smaller pages." });
  });

  test("a spec whose validation takes longer than the limit ends PARSE_ERROR naming it", async () => {
    const prefix = `/v1/orgs/${orgId}/openapi`;
    expect((await owner.api.post(prefix, { slug: "slow", source: { text: fanOut(15) } })).status).toBe(201);
    const spec = await until("the spec is processed", 60_000, async () => {
      const res = await owner.api.get(`${prefix}/slow`);
      return res.body.processingState === "complete" ? res.body : undefined;
    });
    expectSchema("getOpenAPISpecBySlug", 200, spec);
    expect(spec.lastProcessErrorCode).toBe("PARSE_ERROR");
    expect(spec.lastProcessedErrors[0].message).toBe("Processing the specification took longer than the limit of 100 ms; make it smaller or split it.");
    expect(spec.lastVersion).toBeUndefined();
  });
});
