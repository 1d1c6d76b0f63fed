// Large JSON between services and to the gateway: one transporter message (NATS max_payload, 1 MB by
// default) cannot carry a whole revision tree or a large spec, a stream crosses it in chunks. The
// runtime's serializer (serializer.ts) sends Buffer chunks as they are; each chunk is cut before a
// character's first byte, so it is valid UTF-8 by itself for readers that decode chunk by chunk.
import { Readable } from "node:stream";

/** Answers longer than this are streamed (shorter ones travel as one message). */
export const STREAM_OVER_BYTES = 256 * 1024;
/** The size of each chunk of a stream. */
export const STREAM_CHUNK_BYTES = 256 * 1024;

/** `bytes` in chunks of at most `size` bytes, never cutting a UTF-8 character. */
export function utf8Chunks(bytes: Buffer, size = STREAM_CHUNK_BYTES): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(bytes.length, start + size);
    while (end < bytes.length && end > start + 1 && (bytes[end] & 0xc0) === 0x80) end--;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

/** A stream of `value`'s JSON text (or of JSON text given as a string or bytes). */
export function jsonStream(value: unknown): Readable {
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(typeof value === "string" ? value : JSON.stringify(value), "utf8");
  return Readable.from(utf8Chunks(bytes), { objectMode: false });
}

/**
 * An action's answer of JSON: the value itself when its text is short, else a stream of the text with
 * the response type set for the gateway. `json` is the value's text when the caller already has it.
 */
export function jsonAnswer(meta: object, value: unknown, json: string | Buffer = JSON.stringify(value)): unknown {
  if (json.length <= STREAM_OVER_BYTES) return value;
  (meta as Record<string, unknown>).$responseType = "application/json; charset=utf-8";
  return jsonStream(json);
}

/** jsonAnswer for JSON text held as it is (a stored spec): parsed when short, streamed as it is when long. */
export function jsonTextAnswer(meta: object, json: string): unknown {
  return json.length <= STREAM_OVER_BYTES ? JSON.parse(json) : jsonAnswer(meta, undefined, json);
}

/**
 * The service whose calls come straight from HTTP requests (moleculer-web's `gateway.rest`): an answer to it
 * may be JSON text, which moleculer-web sends as it is when `$responseType` says JSON.
 */
const HTTP_GATEWAY = "gateway";

/**
 * An action's answer of JSON whose text the action already has: to the gateway, the text itself (so the value
 * is not stringified a second time for the HTTP body); to another service, the value (parsed from the text
 * when only the text is at hand); either way a stream when it is long.
 */
export function jsonTextFor(ctx: { caller?: string | null; meta: object }, text: string | Buffer, value?: () => unknown): unknown {
  const meta = ctx.meta as Record<string, unknown>;
  if (text.length > STREAM_OVER_BYTES) {
    meta.$responseType = "application/json; charset=utf-8";
    return jsonStream(text);
  }
  if (ctx.caller === HTTP_GATEWAY) {
    meta.$responseType = "application/json; charset=utf-8";
    return typeof text === "string" ? text : text.toString("utf8");
  }
  return value ? value() : JSON.parse(typeof text === "string" ? text : text.toString("utf8"));
}

function isStream(value: unknown): value is AsyncIterable<string | Buffer> {
  return typeof value === "object" && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

/** The value an answer carries: read from its stream of JSON text when it is one, else as it is. */
export async function readJson<T>(answer: unknown): Promise<T> {
  if (!isStream(answer)) return answer as T;
  const parts: Buffer[] = [];
  for await (const chunk of answer) parts.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  // Joined as bytes first: a transporter may cut a chunk inside a multi-byte character.
  return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
}
