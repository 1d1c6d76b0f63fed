import { Readable } from "node:stream";
import { ServiceBroker } from "moleculer";
import { StreamingJsonSerializer } from "./serializer";

const serializer = new StreamingJsonSerializer();
const roundTrip = (packet: Record<string, unknown>) => serializer.deserialize(serializer.serialize(packet));

describe("StreamingJsonSerializer", () => {
  it("sends a text chunk of a stream as its bytes, unescaped, and gives the same string back", () => {
    const chunk = JSON.stringify({ title: 'Quotes " and \\ and ünïcödé ✓', pages: [1, 2] });
    const packet = { ver: "5", sender: "n1", id: "r1", meta: { user: { id: "u1" } }, success: true, data: chunk, stream: true, seq: 3 };
    const wire = serializer.serialize(packet);
    expect(wire.includes(Buffer.from(chunk, "utf8"))).toBe(true);
    expect(serializer.deserialize(wire)).toEqual(packet);
  });

  it("sends a Buffer as its bytes (not an array of numbers) and gives a Buffer back", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const back = roundTrip({ id: "r2", params: bytes, stream: true, seq: 1 }) as { params: unknown };
    expect(Buffer.isBuffer(back.params)).toBe(true);
    expect(back.params).toEqual(bytes);
  });

  it("keeps every other packet plain JSON", () => {
    const packet = { id: "r3", data: "a plain string answer", meta: {}, success: true };
    expect(serializer.serialize(packet).toString()).toBe(JSON.stringify(packet));
    expect(roundTrip(packet)).toEqual(packet);
  });

  it("carries a streamed answer of text chunks between two nodes whole", async () => {
    const namespace = `ser${Date.now()}`;
    const make = (nodeID: string) => new ServiceBroker({ nodeID, namespace, transporter: "Fake", serializer: new StreamingJsonSerializer(), logger: false });
    const server = make("server");
    const client = make("client");
    const json = JSON.stringify({ pages: Array.from({ length: 20_000 }, (_, i) => ({ id: `p${i}`, title: `Page "${i}" – ✓` })) });
    server.createService({
      name: "big",
      actions: {
        answer() {
          const chunks: string[] = [];
          for (let i = 0; i < json.length; i += 64 * 1024) chunks.push(json.slice(i, i + 64 * 1024));
          return Readable.from(chunks, { objectMode: true });
        },
      },
    });
    await Promise.all([server.start(), client.start()]);
    try {
      await client.waitForServices("big");
      const stream = (await client.call("big.answer")) as Readable;
      const parts: Buffer[] = [];
      for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
      expect(Buffer.concat(parts).toString("utf8")).toBe(json);
    } finally {
      await Promise.all([client.stop(), server.stop()]);
    }
  });
});
