// Whole revision trees and batches of page bodies travel between services as streams of JSON text:
// a large space's tree exceeds NATS's 1 MB message limit, a stream crosses it in chunks.
import { Readable } from "node:stream";

const CHUNK_CHARS = 256 * 1024;

/** `value` as JSON text in 256 KB pieces. */
export function jsonStream(value: unknown): Readable {
  const json = JSON.stringify(value);
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += CHUNK_CHARS) chunks.push(json.slice(i, i + CHUNK_CHARS));
  return Readable.from(chunks, { objectMode: false });
}

/** The value whose JSON text `stream` carries. */
export async function readJson<T>(stream: NodeJS.ReadableStream): Promise<T> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<string | Buffer>) parts.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  // Joined as bytes first: a chunk boundary may fall inside a multi-byte character.
  return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
}
