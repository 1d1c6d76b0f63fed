import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { ServeHead } from "@docshelf/contracts/sites";
import { writeStream } from "./published";

const SCRIPT = Buffer.from("export const console = () => 'Test it';\n".repeat(20_000));
const IMMUTABLE: ServeHead = { status: 200, headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" } };

let server: Server;
let head: ServeHead = IMMUTABLE;
beforeAll(async () => {
  server = createServer((req, res) => writeStream(req, res, Readable.from([SCRIPT.subarray(0, 100_000), SCRIPT.subarray(100_000)]), head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(acceptEncoding?: string, path = "/docs/~console-ABCDEFGH.js"): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a streamed answer", () => {
  test("a streamed built file goes out compressed as the client takes it, decoding to the very bytes", async () => {
    head = IMMUTABLE;
    const br = await get("gzip, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).equals(SCRIPT)).toBe(true);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);
    const gz = await get("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(SCRIPT)).toBe(true);
    const plain = await get();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(SCRIPT)).toBe(true);
  });

  test("anything else streamed (a long page, a private or non-text answer) goes out as it is", async () => {
    for (const other of [
      { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" } },
      { status: 200, headers: { "Content-Type": "application/octet-stream", "Cache-Control": "public, max-age=31536000, immutable" } },
    ]) {
      head = other;
      const answer = await get("gzip, br");
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(answer.body.equals(SCRIPT)).toBe(true);
    }
    // Only a built file's hashed name: a user's file with the same headers goes out as it is.
    head = IMMUTABLE;
    const userFile = await get("gzip, br", "/docs/notes.js");
    expect(userFile.headers["content-encoding"]).toBeUndefined();
    expect(userFile.body.equals(SCRIPT)).toBe(true);
  });
});
