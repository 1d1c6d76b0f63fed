import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientErrors, clientErrorAnswer } from "./client-errors";

describe("requests the HTTP parser refuses", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end("ok"));
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test("a URL over the header size limit is 431 in the error body", async () => {
    const res = await fetch(`${url}/v1/spaces/${"x".repeat(70_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ error: { code: 431, message: expect.stringContaining("too large") } });
  });

  test("other parser errors are 400, timeouts 408", () => {
    expect(clientErrorAnswer("HPE_INVALID_METHOD").status).toBe(400);
    expect(clientErrorAnswer(undefined).status).toBe(400);
    expect(clientErrorAnswer("ERR_HTTP_REQUEST_TIMEOUT").status).toBe(408);
  });
});
