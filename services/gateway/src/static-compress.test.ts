import { randomBytes } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { isImmutable, StaticCompressor } from "./static-compress";

const script = Buffer.from("export function f(){return 'the editor';}\n".repeat(400));

describe("StaticCompressor", () => {
  test("answers brotli or gzip as the client takes them, each decoding to the very bytes, and the file itself otherwise", async () => {
    const compressor = new StaticCompressor();
    const br = await compressor.answer("/app/assets/editor-ABCDEFGH.js", script, "gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(brotliDecompressSync(br.body).equals(script)).toBe(true);
    expect(br.body.length).toBeLessThan(script.length / 10);

    const gz = await compressor.answer("/app/assets/editor-ABCDEFGH.js", script, "gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).equals(script)).toBe(true);

    for (const accept of [undefined, "", "identity", "gzip;q=0, br;q=0", "deflate"]) {
      const plain = await compressor.answer("/app/assets/editor-ABCDEFGH.js", script, accept);
      expect({ accept, encoding: plain.encoding, same: plain.body.equals(script) }).toEqual({ accept, encoding: undefined, same: true });
    }
  });

  test("sends small files and files compression would not shrink as they are", async () => {
    const compressor = new StaticCompressor();
    const small = Buffer.from("body{margin:0}");
    expect(await compressor.answer("/app/assets/editor-ABCDEFGH.css", small, "br")).toEqual({ body: small });
    const noise = randomBytes(64 * 1024);
    const answer = await compressor.answer("/app/assets/noise-ABCDEFGH.js", noise, "br, gzip");
    expect(answer.encoding).toBeUndefined();
    expect(answer.body.equals(noise)).toBe(true);
  });

  test("compresses a name once, and again when the same name comes with other bytes", async () => {
    const compressor = new StaticCompressor();
    const first = await compressor.answer("/app/assets/editor-ABCDEFGH.js", script, "br");
    const again = await compressor.answer("/app/assets/editor-ABCDEFGH.js", Buffer.from(script), "br");
    expect(again.body).toBe(first.body); // the kept variant, not a new one
    const other = Buffer.from("export const other = 1;\n".repeat(500));
    const changed = await compressor.answer("/app/assets/editor-ABCDEFGH.js", other, "br");
    expect(brotliDecompressSync(changed.body).equals(other)).toBe(true);
  });

  test("keeps at most 32 names", async () => {
    const compressor = new StaticCompressor();
    const first = await compressor.answer("/app/assets/a-00000000.js", script, "gzip");
    for (let i = 1; i <= 32; i++) await compressor.answer(`/app/assets/a-${String(i).padStart(8, "0")}.js`, script, "gzip");
    const evicted = await compressor.answer("/app/assets/a-00000000.js", script, "gzip");
    expect(evicted.body).not.toBe(first.body); // compressed again: the first name had gone
    expect(gunzipSync(evicted.body).equals(script)).toBe(true);
  });
});

describe("isImmutable", () => {
  test("only a public, immutable 200 is a built file", () => {
    expect(isImmutable(200, { "Cache-Control": "public, max-age=31536000, immutable" })).toBe(true);
    expect(isImmutable(200, { "cache-control": "public, immutable" })).toBe(true);
    expect(isImmutable(404, { "Cache-Control": "public, max-age=31536000, immutable" })).toBe(false);
    expect(isImmutable(200, { "Cache-Control": "private, no-store" })).toBe(false);
    expect(isImmutable(200, { "Cache-Control": "private, immutable" })).toBe(false);
    expect(isImmutable(200, {})).toBe(false);
  });
});
