import { Readable } from "node:stream";
import { jsonAnswer, STREAM_OVER_BYTES } from "./json-answer";

async function text(stream: Readable): Promise<string> {
  let out = "";
  for await (const chunk of stream) out += chunk as string;
  return out;
}

describe("jsonAnswer", () => {
  test("small JSON is answered as the value itself", () => {
    const meta: Record<string, unknown> = {};
    expect(jsonAnswer(meta, '{"a":[1,"é"]}')).toEqual({ a: [1, "é"] });
    expect(meta.$responseType).toBeUndefined();
  });

  test("large JSON streams as text chunks that add up to it, multi-byte characters across chunk borders included", async () => {
    const meta: Record<string, unknown> = {};
    const json = JSON.stringify({ pad: "é€😀".repeat(STREAM_OVER_BYTES / 2) });
    const answer = jsonAnswer(meta, json);
    expect(answer).toBeInstanceOf(Readable);
    expect(meta.$responseType).toBe("application/json; charset=utf-8");
    expect(await text(answer as Readable)).toBe(json);
  });
});
