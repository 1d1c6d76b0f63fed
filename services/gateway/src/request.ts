// What the gateway's middlewares learn about a request and leave on it for the next step.
import type { IncomingMessage } from "node:http";
import type { Caller } from "@docshelf/access";

/** The outcome of checking the bearer token, once per request. */
export type Identity = { caller: Caller; tokenHash: string } | { caller: null; error: Error };

export interface GatewayRequest extends IncomingMessage {
  /** moleculer-web: the path without the query string. */
  parsedUrl?: string;
  /** moleculer-web: the parsed query string (qs). */
  query?: Record<string, unknown>;
  /** body-parser: the parsed JSON body. */
  body?: unknown;
  $identity?: Identity;
  /** Set while this request holds an Idempotency-Key, until its answer is stored or the key released. */
  $idempotency?: { key: string; fingerprint: string; settled: boolean };
}
