// Moleculer's JSON serializer, except that the chunks of a streamed answer travel as their own bytes.
import { Serializers } from "moleculer";

/**
 * A JSON packet starts with "{"; a packet starting with this byte is a JSON header (4-byte length
 * first) followed by the raw bytes of its `data` (answers) or `params` (requests).
 */
const RAW = 0x00;

type Payload = Record<string, unknown>;

/** Which field of a packet goes raw, and whether it was text: Buffers always, strings when they are a stream chunk. */
function rawField(obj: Payload): { field: "data" | "params"; text: boolean } | undefined {
  for (const field of ["data", "params"] as const) {
    const value = obj[field];
    if (Buffer.isBuffer(value)) return { field, text: false };
    if (typeof value === "string" && obj.stream === true) return { field, text: true };
  }
  return undefined;
}

/**
 * Large answers (a whole revision of a large space) are streamed in chunks (sizes and figures in
 * BENCHMARKS.md, "Large space (issue 4)"). The plain JSON serializer escapes every quote of a text
 * chunk and sends a Buffer as an array of numbers; here the chunk's bytes are copied behind a small JSON header instead, and come out as
 * the same type (string or Buffer) on the other side. Every other packet is plain JSON, as before.
 */
export class StreamingJsonSerializer extends Serializers.JSON {
  override serialize(obj: Payload): Buffer {
    const raw = rawField(obj);
    if (!raw) return super.serialize(obj);
    const value = obj[raw.field] as string | Buffer;
    const bytes = raw.text ? Buffer.from(value as string, "utf8") : (value as Buffer);
    const header = Buffer.from(JSON.stringify({ ...obj, [raw.field]: null, $raw: raw }), "utf8");
    const packet = Buffer.allocUnsafe(5 + header.length + bytes.length);
    packet[0] = RAW;
    packet.writeUInt32BE(header.length, 1);
    header.copy(packet, 5);
    bytes.copy(packet, 5 + header.length);
    return packet;
  }

  override deserialize(buf: Buffer | string): unknown {
    if (typeof buf === "string" || buf[0] !== RAW) return super.deserialize(buf);
    const end = 5 + buf.readUInt32BE(1);
    const { $raw, ...obj } = JSON.parse(buf.toString("utf8", 5, end)) as Payload & { $raw: { field: string; text: boolean } };
    const bytes = buf.subarray(end);
    obj[$raw.field] = $raw.text ? bytes.toString("utf8") : bytes;
    return obj;
  }
}
