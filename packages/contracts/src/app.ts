// The app's one action, `app.serve`, which the gateway calls for every app request, and the size of a
// file it can carry over the transporter.
import { action } from "./action";

/** A multipart form's first file, as the gateway passes it on. */
export interface AppUpload {
  /** The form field the file came in. */
  field: string;
  name: string;
  contentType: string;
  /** The file's bytes, base64; empty when `omitted`. */
  base64: string;
  /** The file's size in bytes. */
  size?: number;
  /** True when the file is larger than a transporter message can carry: only its size is passed on. */
  omitted?: boolean;
}

export interface AppRequestParams {
  method: "GET" | "HEAD" | "POST";
  path: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  upload?: AppUpload;
  cookie?: string;
  secure?: boolean;
  requestID?: string;
}

export interface AppAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** A page longer than one transporter message comes as a stream of its bytes, its head under STREAM_HEAD_META. */
export const serve = action<AppRequestParams, AppAnswer | NodeJS.ReadableStream>("app.serve");

/**
 * What one transporter message keeps for everything but a file's base64: the envelope, the user in
 * `meta`, the cookie (at most 16 KiB) and the form's other fields.
 */
export const MESSAGE_RESERVE_BYTES = 32 * 1024;

/**
 * The largest file (in bytes) whose base64 still fits one transporter message of `maxPayload` bytes
 * with MESSAGE_RESERVE_BYTES to spare (NATS's default max_payload of 1 MiB: 761,856 bytes); no
 * limit of its own without a transporter (undefined).
 */
export function fileLimitForPayload(maxPayload: number | undefined): number | undefined {
  if (maxPayload === undefined || !Number.isFinite(maxPayload) || maxPayload <= 0) return undefined;
  return Math.max(0, Math.floor((maxPayload - MESSAGE_RESERVE_BYTES) / 4) * 3);
}

/** The connected NATS server's max_payload as a broker's transporter knows it; undefined without one. */
export function transporterMaxPayload(broker: { transit?: unknown }): number | undefined {
  const transit = broker.transit as { tx?: { client?: { info?: { max_payload?: unknown } } } } | undefined;
  const max = transit?.tx?.client?.info?.max_payload;
  return typeof max === "number" ? max : undefined;
}

/**
 * The largest API request body (in bytes) that still fits one transporter message of `maxPayload`
 * bytes with MESSAGE_RESERVE_BYTES to spare for the envelope, the caller in `meta` and the URL's
 * parameters (NATS's default max_payload of 1 MiB: 1,015,808 bytes); undefined without a transporter.
 */
export function bodyLimitForPayload(maxPayload: number | undefined): number | undefined {
  if (maxPayload === undefined || !Number.isFinite(maxPayload) || maxPayload <= 0) return undefined;
  return Math.max(0, maxPayload - MESSAGE_RESERVE_BYTES);
}
