import { Readable } from "node:stream";
import { jsonAnswer, jsonStream, jsonTextAnswer, readJson, STREAM_OVER_BYTES, utf8Chunks } from "./json-stream";

describe("JSON streams", () => {
  test("a value larger than one chunk comes back whole", async () => {
    const value = { pages: Array.from({ length: 5000 }, (_, i) => ({ id: `p${i}`, title: `Grüße ${i} — 東京` })) };
    expect(await readJson(jsonStream(value))).toEqual(value);
  });

  test("a chunk cut inside a multi-byte character is joined as bytes", async () => {
    const bytes = Buffer.from(JSON.stringify({ title: "Grüße, 東京" }));
    const cut = bytes.indexOf(Buffer.from("東")) + 1;
    expect(await readJson(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]))).toEqual({ title: "Grüße, 東京" });
  });

  test("every chunk is valid UTF-8 by itself", () => {
    const bytes = Buffer.from("東".repeat(100_000), "utf8");
    const chunks = utf8Chunks(bytes, 1000);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    for (const chunk of chunks) expect(Buffer.from(chunk.toString("utf8"), "utf8").equals(chunk)).toBe(true);
  });

  test("a plain answer is read as it is", async () => {
    expect(await readJson({ a: 1 })).toEqual({ a: 1 });
  });

  test("jsonAnswer streams only what is longer than STREAM_OVER_BYTES, with the response type", async () => {
    const small = { title: "short" };
    const meta: Record<string, unknown> = {};
    expect(jsonAnswer(meta, small)).toBe(small);
    expect(meta.$responseType).toBeUndefined();
    const large = { text: "x".repeat(STREAM_OVER_BYTES + 1) };
    const answer = jsonAnswer(meta, large);
    expect(answer).toBeInstanceOf(Readable);
    expect(meta.$responseType).toBe("application/json; charset=utf-8");
    expect(await readJson(answer)).toEqual(large);
  });

  test("jsonTextAnswer parses short text and streams long text byte for byte, multi-byte characters across chunk borders included", async () => {
    const meta: Record<string, unknown> = {};
    expect(jsonTextAnswer(meta, '{"a":[1,"é"]}')).toEqual({ a: [1, "é"] });
    expect(meta.$responseType).toBeUndefined();
    const json = JSON.stringify({ pad: "é€😀".repeat(STREAM_OVER_BYTES / 2) });
    const answer = jsonTextAnswer(meta, json);
    expect(answer).toBeInstanceOf(Readable);
    expect(meta.$responseType).toBe("application/json; charset=utf-8");
    const parts: Buffer[] = [];
    for await (const chunk of answer as Readable) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).toString("utf8")).toBe(json);
  });
});
