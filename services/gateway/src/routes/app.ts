// The app (services/app): GET and POST under /app, /o and /s go to `app.serve`, which answers
// {status, headers, body}. No bearer token: the app signs people in with a session cookie itself. Taken
// before moleculer-web routes the request, like the published sites; form bodies are read here
// (url-encoded, at most APP_BODY_LIMIT bytes) and passed on as a flat record; a multipart form (an
// upload, at most APP_UPLOAD_LIMIT bytes) likewise, with its first file as `upload` (base64).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { ServiceBroker } from "moleculer";
import { fileLimitForPayload, transporterMaxPayload, type AppUpload } from "@docshelf/contracts/app";
import type { TrustedProxies } from "../client-address";
import { STREAM_HEAD_META } from "@docshelf/contracts/action";
import type { ServeHead } from "@docshelf/contracts/sites";
import { isStream, writeStream } from "./published";
import { isImmutable, StaticCompressor } from "../static-compress";

const APP_PATH = /^\/(app|o|s)(\/|$)/;
/** A page's Markdown in an edit form, and a little more. */
const APP_BODY_LIMIT = 1024 * 1024;
const MAX_FIELDS = 20;
/** An upload form: a file of up to 1 MB (the API's inline file limit, which the app checks) and its fields. */
const APP_UPLOAD_LIMIT = 1536 * 1024;

export type { AppUpload };

interface AppParams {
  method: "GET" | "HEAD" | "POST";
  path: string;
  query: Record<string, string>;
  form?: Record<string, string>;
  upload?: AppUpload;
  cookie?: string;
  secure: boolean;
}

interface AppAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

function fields(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of search) {
    if (++count > MAX_FIELDS) break;
    if (!(name in out) && name.length <= 64) out[name] = value;
  }
  return out;
}

/**
 * A multipart/form-data body: its text fields (the first MAX_FIELDS parts, names ≤ 64 characters) and
 * its first non-empty file; 400 when it is not multipart with this boundary.
 */
export function parseMultipart(body: Buffer, boundary: string): { form: Record<string, string>; upload?: AppUpload } | 400 {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  const form: Record<string, string> = {};
  let upload: AppUpload | undefined;
  let pos = body.indexOf(delimiter);
  if (pos < 0) return 400;
  pos += delimiter.length;
  for (let count = 0; count < MAX_FIELDS; count++) {
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break; // "--": the closing delimiter
    if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a) return 400;
    const headersEnd = body.indexOf("\r\n\r\n", pos + 2);
    const end = headersEnd < 0 ? -1 : body.indexOf(next, headersEnd + 4);
    if (end < 0) return 400;
    const headers = body.subarray(pos + 2, headersEnd).toString("utf8");
    const content = body.subarray(headersEnd + 4, end);
    pos = end + next.length;
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers)?.[1] ?? "";
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined || name.length > 64) continue;
    if (filename === undefined) {
      if (!(name in form)) form[name] = content.toString("utf8");
    } else if (!upload && filename !== "") {
      const contentType = /^content-type:\s*([^\r\n;]+)/im.exec(headers)?.[1].trim() || "application/octet-stream";
      upload = { field: name, name: filename, contentType, base64: content.toString("base64"), size: content.length };
    }
  }
  return upload ? { form, upload } : { form };
}

function readForm(req: IncomingMessage): Promise<{ form: Record<string, string>; upload?: AppUpload } | number> {
  const [rawType, ...rest] = String(req.headers["content-type"] ?? "").split(";");
  const type = rawType.trim().toLowerCase();
  const boundary = /^\s*boundary="?([^";]{1,70})"?\s*$/i.exec(rest.find((p) => /^\s*boundary=/i.test(p)) ?? "")?.[1];
  const multipart = type === "multipart/form-data";
  if (type !== "application/x-www-form-urlencoded" && !(multipart && boundary)) return Promise.resolve(415);
  const limit = multipart ? APP_UPLOAD_LIMIT : APP_BODY_LIMIT;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve(413);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (done) return;
      const body = Buffer.concat(chunks);
      resolve(multipart && boundary ? parseMultipart(body, boundary) : { form: fields(new URLSearchParams(body.toString("utf8"))) });
    });
    req.on("error", () => {
      if (!done) resolve(400);
      done = true;
    });
  });
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Security-Policy", "default-src 'none'");
  res.end(text);
}

/**
 * Whether the browser reached us over https (the session cookie then gets Secure): PUBLIC_URL is https,
 * the socket is TLS, or a trusted proxy (TRUSTED_PROXIES) in front says `X-Forwarded-Proto: https`.
 */
export function requestIsSecure(req: IncomingMessage, httpsBase: boolean, trusted: TrustedProxies): boolean {
  if (httpsBase || (req.socket as TLSSocket).encrypted) return true;
  const proto = req.headers["x-forwarded-proto"];
  if (typeof proto !== "string" || proto.split(",")[0].trim().toLowerCase() !== "https") return false;
  return trusted.has(req.socket.remoteAddress ?? "");
}

export interface AppPages {
  /** Whether the request is the app's (its path, and a method it serves). */
  matches(req: IncomingMessage): boolean;
  serve(broker: ServiceBroker, req: IncomingMessage, res: ServerResponse, requestID: string): Promise<void>;
}

export function appPages(publicUrl: string, trusted: TrustedProxies, timeoutMs: number): AppPages {
  const compressor = new StaticCompressor();
  const httpsBase = publicUrl.startsWith("https:");
  const secure = (req: IncomingMessage) => requestIsSecure(req, httpsBase, trusted);
  return {
    matches(req) {
      const method = req.method ?? "GET";
      if (method !== "GET" && method !== "HEAD" && method !== "POST") return false;
      const raw = req.url ?? "/";
      const at = raw.indexOf("?");
      return APP_PATH.test(at < 0 ? raw : raw.slice(0, at));
    },

    async serve(broker, req, res, requestID) {
      const raw = req.url ?? "/";
      const at = raw.indexOf("?");
      const params: AppParams = {
        method: req.method as AppParams["method"],
        path: at < 0 ? raw : raw.slice(0, at),
        query: fields(new URLSearchParams(at < 0 ? "" : raw.slice(at + 1))),
        secure: secure(req),
      };
      if (params.path.length > 4096) return plain(res, 414, "The address is too long.");
      if (typeof req.headers.cookie === "string") params.cookie = req.headers.cookie.slice(0, 16384);
      if (params.method === "POST") {
        const form = await readForm(req);
        if (typeof form === "number") return plain(res, form, form === 413 ? "The form is too large." : form === 400 ? "The form could not be read." : "Forms are sent url-encoded or as multipart/form-data.");
        params.form = form.form;
        if (form.upload) {
          // A file whose base64 cannot fit one transporter message goes on as its size alone: the app answers 413 naming the limit.
          const limit = fileLimitForPayload(transporterMaxPayload(broker));
          params.upload = limit !== undefined && (form.upload.size ?? 0) > limit ? { ...form.upload, base64: "", omitted: true } : form.upload;
        }
      }
      let answer: AppAnswer | NodeJS.ReadableStream;
      let head: ServeHead | undefined;
      try {
        // Moleculer's call promise carries its context: a long page's head comes in its meta (STREAM_HEAD_META).
        const pending = broker.call<AppAnswer | NodeJS.ReadableStream, AppParams>("app.serve", params, { timeout: timeoutMs, requestID, meta: {} }) as Promise<AppAnswer | NodeJS.ReadableStream> & {
          ctx?: { meta?: Record<string, unknown> };
        };
        answer = await pending;
        head = pending.ctx?.meta?.[STREAM_HEAD_META] as ServeHead | undefined;
      } catch (err) {
        const timedOut = (err as { name?: string }).name === "RequestTimeoutError";
        if (!timedOut) broker.logger.error({ err, path: params.path.slice(0, 200) }, "serving an app page failed");
        return plain(res, timedOut ? 504 : 503, "The app cannot answer right now. Try again in a moment.");
      }
      if (isStream(answer)) return writeStream(req, res, answer, head);
      res.statusCode = answer.status;
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      let body: Buffer = Buffer.from(answer.body, "utf8");
      if (isImmutable(answer.status, answer.headers)) {
        // A built file (its name carries its hash): compressed once, kept, sent to clients that take it.
        const sent = await compressor.answer(params.path, body, req.headers["accept-encoding"]);
        body = sent.body;
        res.setHeader("Vary", "Accept-Encoding");
        if (sent.encoding) res.setHeader("Content-Encoding", sent.encoding);
      }
      res.setHeader("Content-Length", body.length);
      res.end(req.method === "HEAD" ? undefined : body);
    },
  };
}
