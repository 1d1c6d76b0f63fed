// Answers JSON text as it is: parsed when small, streamed in chunks when large, because one
// transporter message (NATS max_payload, 1 MB by default) can't carry a large spec.
import { Readable } from "node:stream";

export const STREAM_OVER_BYTES = 256 * 1024;
const CHUNK_BYTES = 256 * 1024;

export function jsonAnswer(meta: Record<string, unknown>, json: string): unknown {
  if (json.length <= STREAM_OVER_BYTES) return JSON.parse(json);
  meta.$responseType = "application/json; charset=utf-8";
  const body = Buffer.from(json, "utf8");
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += CHUNK_BYTES) chunks.push(body.subarray(i, i + CHUNK_BYTES));
  const stream = Readable.from(chunks, { objectMode: false });
  // Text chunks (decoded across chunk borders): the JSON serializer would send a Buffer as an array of numbers.
  stream.setEncoding("utf8");
  return stream;
}
