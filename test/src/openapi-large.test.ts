// A spec larger than one transporter message (NATS max_payload is 1 MB by default) is still
// processed and its content answered whole, in every process mode.
import { createServer, type Server } from "node:http";
import { createOrg, createUser, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { listenOnSharedPort } from "./shared-ports";

describe.each(MODES)("large OpenAPI specs over %s", (mode) => {
  let sys: RunningSystem;
  let server: Server;
  let port: number;
  let owner: TestUser;
  let prefix: string;
  const document = {
    openapi: "3.0.3",
    info: { title: "Large é€😀", version: "1.0.0" },
    paths: {},
    "x-padding": "é€😀 padding ".repeat(150_000),
  };

  beforeAll(async () => {
    server = createServer((_req, res) => res.end(JSON.stringify(document)));
    port = await listenOnSharedPort(server);
    sys = await start(mode);
    owner = await createUser(sys.admin);
    prefix = `/v1/orgs/${(await createOrg(owner.api)).id}/openapi`;
  });

  afterAll(async () => {
    await sys?.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test("the content of a 2.5 MB spec is answered whole, as the same document", async () => {
    expect(Buffer.byteLength(JSON.stringify(document))).toBeGreaterThan(2_000_000);
    const created = await owner.api.post(prefix, { slug: "large", source: { url: `http://127.0.0.1:${port}/large.json` } });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 20_000;
    let spec = created.body;
    while (spec.processingState !== "complete") {
      if (Date.now() > deadline) throw new Error(`still ${spec.processingState} after 20 s`);
      await new Promise((r) => setTimeout(r, 50));
      spec = (await owner.api.get(`${prefix}/large`)).body;
    }
    expect(spec.lastProcessErrorCode).toBeUndefined();
    for (const path of ["latest", spec.lastVersion]) {
      const content = await owner.api.get(`${prefix}/large/versions/${path}/content`);
      expect(content.status).toBe(200);
      expect(content.headers.get("content-type")).toMatch(/^application\/json/);
      expectSchema("getOpenAPISpecVersionContentById", 200, content.body);
      expect(content.body.filesystem["openapi.json"]).toEqual(document);
    }
  });
});
