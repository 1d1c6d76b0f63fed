import { Readable } from "node:stream";
import { jsonAnswer, jsonStream, jsonTextAnswer, jsonTextFor, readJson, STREAM_OVER_BYTES, utf8Chunks } from "./json-stream";

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

  describe("jsonTextFor", () => {
    const value = { items: [{ id: "a", title: "Grüße" }] };
    const text = JSON.stringify(value);

    test("to the gateway: the text itself, typed as JSON, so moleculer-web sends it unchanged", () => {
      const meta: Record<string, unknown> = {};
      expect(jsonTextFor({ caller: "gateway", meta }, text, () => value)).toBe(text);
      expect(meta.$responseType).toBe("application/json; charset=utf-8");
      const fromBytes: Record<string, unknown> = {};
      expect(jsonTextFor({ caller: "gateway", meta: fromBytes }, Buffer.from(text, "utf8"))).toBe(text);
    });

    test("to another service: the value (given, or parsed from the text), the meta untouched", () => {
      const meta: Record<string, unknown> = {};
      expect(jsonTextFor({ caller: "app", meta }, text, () => value)).toBe(value);
      expect(jsonTextFor({ caller: null, meta }, text)).toEqual(value);
      expect(jsonTextFor({ meta }, Buffer.from(text, "utf8"))).toEqual(value);
      expect(meta.$responseType).toBeUndefined();
    });

    test("a long answer is a stream for every caller", async () => {
      const long = JSON.stringify({ body: "x".repeat(STREAM_OVER_BYTES) });
      for (const caller of ["gateway", "app"]) {
        const meta: Record<string, unknown> = {};
        const answer = jsonTextFor({ caller, meta }, long, () => JSON.parse(long));
        expect(answer).toBeInstanceOf(Readable);
        expect(meta.$responseType).toBe("application/json; charset=utf-8");
        expect(await readJson(answer)).toEqual(JSON.parse(long));
      }
    });
  });
});
