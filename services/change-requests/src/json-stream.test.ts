import { Readable } from "node:stream";
import { jsonStream, readJson } from "./json-stream";

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
});
