// The /v1 route's request guards, in order: identify and rate-limit, query limits, JSON body and its
// limits, Idempotency-Key. Each is an Express-style middleware that moleculer-web calls with `this`
// bound to the gateway service.
import type { ServerResponse } from "node:http";
import type { Context } from "moleculer";
import { TooManyRequestsError } from "@docshelf/errors";
import { clientAddress, type TrustedProxies } from "./client-address";
import { requestFingerprint } from "./canonical-json";
import { IDEMPOTENT_ROUTES, beginIdempotent, parseIdempotencyKey, scopedKey } from "./idempotency";
import type { StoredAnswer } from "./idempotency-store";
import type { RateLimiter } from "./rate-limiter";
import { checkBody, checkQuery, type ShapeLimits } from "./request-limits";
import type { GatewayRequest, Identity } from "./request";
import type { GatewayStores } from "./stores";

type Next = (err?: unknown) => void;

/** The parts of the gateway service the guards use. */
export interface GuardHost {
  identify(ctx: Context, req: GatewayRequest): Promise<Identity>;
  guards(): Promise<{ limiter: RateLimiter; stores: GatewayStores }>;
  resolveAlias(url: string, method: string): { alias: { method: string; path: string } } | null | undefined;
  logger: { warn(...args: unknown[]): void };
}

export interface GuardOptions {
  trusted: TrustedProxies;
  query: { maxDepth: number; maxArrayLength: number };
  body: ShapeLimits;
  idempotency: { waitMs: number; leaseMs: number };
}

/** Runs an async guard as a middleware: its failure goes to moleculer-web's error handling. */
function middleware(guard: (this: GuardHost, req: GatewayRequest, res: ServerResponse) => Promise<boolean | void>) {
  return function (this: GuardHost, req: GatewayRequest, res: ServerResponse, next: Next): void {
    // A guard that answered the request itself returns false: the chain stops there.
    guard.call(this, req, res).then(
      (goOn) => {
        if (goOn !== false) next();
      },
      (err: unknown) => next(err),
    )
      // Whatever the rest of the chain throws synchronously must not become an unhandled rejection.
      .catch((err: unknown) => this.logger.warn({ err }, "request guard chain failed"));
  };
}

function requestContext(req: GatewayRequest): Context {
  return (req as GatewayRequest & { $ctx: Context }).$ctx;
}

/**
 * Checks the token once (authentication later reuses the answer) and counts the request against the
 * token, or against the client address when there is no valid token. Every answer gets the headers.
 */
export function rateLimitGuard(options: GuardOptions) {
  return middleware(async function (req, res) {
    const identity = await this.identify(requestContext(req), req);
    req.$identity = identity;
    const { limiter } = await this.guards();
    const subject = identity.caller
      ? ({ kind: "token", tokenHash: identity.tokenHash } as const)
      : ({ kind: "address", address: clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], options.trusted) } as const);
    let decision;
    try {
      decision = await limiter.hit(subject);
    } catch (err) {
      // A counter store that is down must not take the API down with it: the request goes through.
      this.logger.warn({ err }, "rate limit counter unavailable; request not counted");
      return;
    }
    if (!decision) return;
    for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
    if (!decision.allowed) {
      throw new TooManyRequestsError(`Too many requests: the limit is ${decision.headers["X-RateLimit-Limit"]} a minute. Retry in ${decision.retryAfter} s.`, decision.retryAfter);
    }
  });
}

export function queryLimitGuard(options: GuardOptions) {
  return middleware(async function (req) {
    checkQuery(req.query ?? {}, options.query.maxDepth, options.query.maxArrayLength);
  });
}

export function bodyLimitGuard(options: GuardOptions) {
  return middleware(async function (req) {
    if (req.body !== undefined) checkBody(req.body, options.body);
  });
}

const IDEMPOTENT = new Set(IDEMPOTENT_ROUTES);

function routeKey(alias: { method: string; path: string }): string {
  return `${alias.method.toUpperCase()} ${alias.path.startsWith("/") ? alias.path : `/${alias.path}`}`;
}

function replay(res: ServerResponse, answer: StoredAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader("Idempotent-Replayed", "true");
  if (answer.body === undefined || answer.body === null) {
    res.end();
    return;
  }
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify(answer.body));
}

/**
 * On the create routes, an Idempotency-Key makes a retry replay the first answer instead of running
 * again. The key is claimed here; the gateway's onAfterCall stores the answer, its error handler
 * releases the key.
 */
export function idempotencyGuard(options: GuardOptions) {
  return middleware(async function (req, res) {
    const found = req.parsedUrl && req.method ? this.resolveAlias(req.parsedUrl, req.method) : undefined;
    if (!found || !IDEMPOTENT.has(routeKey(found.alias))) return;
    const key = parseIdempotencyKey(req.headers["idempotency-key"]);
    // Without a valid token authentication answers 401 next; there is no caller to key on.
    if (key === undefined || !req.$identity?.caller) return;
    const scoped = scopedKey(req.$identity.tokenHash, key);
    const fingerprint = requestFingerprint(req.method ?? "POST", req.parsedUrl ?? "", req.body);
    const { stores } = await this.guards();
    const begun = await beginIdempotent(stores.idempotency, scoped, fingerprint, options.idempotency);
    if (!begun.run) {
      replay(res, begun.answer);
      return false;
    }
    req.$idempotency = { key: scoped, fingerprint, settled: false };
  });
}
