// The /v1 route's request guards, in order: identify and rate-limit, query limits, JSON body and its
// limits, Idempotency-Key. They run as one Express-style middleware that moleculer-web calls with `this`
// bound to the gateway service; a request that needs no waiting (a cached token, no body, not a POST)
// goes through them synchronously.
import type { ServerResponse } from "node:http";
import type { Context } from "moleculer";
import { BadRequestError, PayloadTooLargeError, TooManyRequestsError } from "@docshelf/errors";
import { bodyLimitForPayload, fileLimitForPayload, transporterMaxPayload } from "@docshelf/contracts/app";
import { clientAddress, type TrustedProxies } from "./client-address";
import { requestFingerprint } from "./canonical-json";
import { IDEMPOTENT_ROUTES, beginIdempotent, parseIdempotencyKey, scopedKey } from "./idempotency";
import type { StoredAnswer } from "./idempotency-store";
import type { RateLimiter } from "./rate-limiter";
import { checkBody, checkQuery, type ShapeLimits } from "./request-limits";
import type { GatewayRequest, Identity } from "./request";
import type { GatewayStores } from "./stores";

type Next = (err?: unknown) => void;
/** A guard's outcome: false when it answered the request itself (the chain stops there). */
type Outcome = boolean | void;

interface Guards {
  limiter: RateLimiter;
  stores: GatewayStores;
}

/** The parts of the gateway service the guards use. */
export interface GuardHost {
  /** The caller, at once when the token is cached. */
  identify(ctx: Context, req: GatewayRequest): Identity | Promise<Identity>;
  guards(): Promise<Guards>;
  /** The guards once opened, so a request need not wait on a promise. */
  openedGuards?: Guards;
  resolveAlias(url: string, method: string): { alias: { method: string; path: string } } | null | undefined;
  logger: { warn(...args: unknown[]): void };
  /** The broker: over NATS, a request body must fit one message (its server's max_payload). */
  broker?: { transit?: unknown };
}

export interface GuardOptions {
  trusted: TrustedProxies;
  query: { maxDepth: number; maxArrayLength: number };
  body: ShapeLimits;
  idempotency: { waitMs: number; leaseMs: number };
}

type Guard = (this: GuardHost, req: GatewayRequest, res: ServerResponse) => Outcome | Promise<Outcome>;
type Connect = (req: GatewayRequest, res: ServerResponse, next: Next) => void;

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === "function";
}

/** Runs a guard as a middleware: its failure, thrown or rejected, goes to moleculer-web's error handling. */
function middleware(guard: Guard) {
  return function (this: GuardHost, req: GatewayRequest, res: ServerResponse, next: Next): void {
    let outcome: Outcome | Promise<Outcome>;
    try {
      outcome = guard.call(this, req, res);
    } catch (err) {
      next(err);
      return;
    }
    if (!isPromise(outcome)) {
      if (outcome !== false) next();
      return;
    }
    outcome
      .then(
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

/** Counts the request against its token's user, or its client address without a valid one; sets the headers, 429 past the limit. */
function limitRate(host: GuardHost, limiter: RateLimiter, options: GuardOptions, req: GatewayRequest, res: ServerResponse, identity: Identity): void {
  const subject = identity.caller
    ? ({ kind: "user", userId: identity.caller.id } as const)
    : ({ kind: "address", address: clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], options.trusted) } as const);
  let decision;
  try {
    decision = limiter.hit(subject);
  } catch (err) {
    // A counter store that fails must not take the API down with it: the request goes through.
    host.logger.warn({ err }, "rate limit counter unavailable; request not counted");
    return;
  }
  if (!decision) return;
  const { headers } = decision;
  res.setHeader("X-RateLimit-Limit", headers["X-RateLimit-Limit"]);
  res.setHeader("X-RateLimit-Remaining", headers["X-RateLimit-Remaining"]);
  res.setHeader("X-RateLimit-Reset", headers["X-RateLimit-Reset"]);
  if (!decision.allowed) {
    throw new TooManyRequestsError(`Too many requests: the limit is ${headers["X-RateLimit-Limit"]} a minute. Retry in ${decision.retryAfter} s.`, decision.retryAfter);
  }
}

/** Checks the token once (authentication later reuses the answer), then counts the request. */
function identifyAndLimit(host: GuardHost, options: GuardOptions, req: GatewayRequest, res: ServerResponse): void | Promise<void> {
  const identity = host.identify(requestContext(req), req);
  const guards = host.openedGuards;
  if (!isPromise(identity) && guards) {
    req.$identity = identity;
    limitRate(host, guards.limiter, options, req, res, identity);
    return;
  }
  return Promise.all([identity, guards ?? host.guards()]).then(([known, opened]) => {
    req.$identity = known;
    limitRate(host, opened.limiter, options, req, res, known);
  });
}

/**
 * Checks the token once (authentication later reuses the answer) and counts the request against the
 * token, or against the client address when there is no valid token. Every answer gets the headers.
 */
export function rateLimitGuard(options: GuardOptions) {
  return middleware(function (req, res) {
    return identifyAndLimit(this, options, req, res);
  });
}

/**
 * Whether the request carries a body, as body-parser decides it (type-is's hasBody): a
 * Transfer-Encoding or a numeric Content-Length. Without one the parser would do nothing.
 */
function hasBody(req: GatewayRequest): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
}

/** The type the JSON parser reads (its default); it skips every other one. */
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Whether the request carries bytes the JSON parser would skip (another Content-Type, or none at all),
 * so that the action would take them for an empty body and, for a create, succeed with defaults.
 * An empty body is fine whatever its type.
 */
function unparsedBody(req: GatewayRequest): boolean {
  const length = req.headers["content-length"];
  const bytes = req.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) > 0);
  const type = req.headers["content-type"];
  return bytes && (type === undefined || !JSON_TYPE.test(type));
}

function parseWith(parser: Connect, req: GatewayRequest, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
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
 * releases the key. Every such route is a POST, so nothing else is looked at.
 */
function idempotent(host: GuardHost, options: GuardOptions, req: GatewayRequest, res: ServerResponse): Outcome | Promise<Outcome> {
  if (req.method !== "POST") return;
  const found = req.parsedUrl ? host.resolveAlias(req.parsedUrl, req.method) : undefined;
  if (!found || !IDEMPOTENT.has(routeKey(found.alias))) return;
  const key = parseIdempotencyKey(req.headers["idempotency-key"]);
  // Without a valid token authentication answers 401 next; there is no caller to key on.
  if (key === undefined || !req.$identity?.caller) return;
  const scoped = scopedKey(req.$identity.tokenHash, key);
  const fingerprint = requestFingerprint(req.method, req.parsedUrl ?? "", req.body);
  return host.guards().then(async ({ stores }) => {
    const begun = await beginIdempotent(stores.idempotency, scoped, fingerprint, options.idempotency);
    if (!begun.run) {
      replay(res, begun.answer);
      return false;
    }
    req.$idempotency = { key: scoped, fingerprint, settled: false };
  });
}

/** GitBook's 413 for a body larger than one transporter message, naming the limit (and what it leaves a file sent inline). */
function tooLargeForMessage(size: number, limit: number, maxPayload: number | undefined): PayloadTooLargeError {
  const file = fileLimitForPayload(maxPayload);
  return new PayloadTooLargeError(
    `The request body is too large: ${size} bytes; a request body is at most ${limit} bytes on this instance (one message between its services${file !== undefined ? `; a file inserted with its bytes inline, as base64, at most about ${file} bytes` : ""}).`,
  );
}

/**
 * Every guard of the /v1 route, in order, as one middleware: identify and rate-limit, query limits, the
 * JSON body (`jsonParser`, only when there is a body) and its shape limits, Idempotency-Key.
 */
export function v1Guards(options: GuardOptions, jsonParser: Connect) {
  const afterBody = (host: GuardHost, req: GatewayRequest, res: ServerResponse): Outcome | Promise<Outcome> => {
    // Every request body of the API is an object: an array would be merged into the parameters as nothing.
    if (Array.isArray(req.body)) throw new BadRequestError("The request body must be a JSON object.");
    if (req.body !== undefined) checkBody(req.body, options.body);
    return idempotent(host, options, req, res);
  };
  const afterLimit = (host: GuardHost, req: GatewayRequest, res: ServerResponse): Outcome | Promise<Outcome> => {
    checkQuery(req.query ?? {}, options.query.maxDepth, options.query.maxArrayLength);
    if (!hasBody(req)) {
      // What body-parser does for a request without a body.
      if (!("body" in req)) req.body = undefined;
      return afterBody(host, req, res);
    }
    if (unparsedBody(req)) throw new BadRequestError("The request body must be JSON, sent with Content-Type: application/json.");
    // Over NATS the body travels in one message: a larger one would fail in the call as a 503.
    const maxPayload = host.broker ? transporterMaxPayload(host.broker) : undefined;
    const limit = bodyLimitForPayload(maxPayload);
    const length = Number(req.headers["content-length"]);
    if (limit !== undefined && Number.isFinite(length) && length > limit) throw tooLargeForMessage(length, limit, maxPayload);
    return parseWith(jsonParser, req, res).then(() => {
      if (limit !== undefined && !Number.isFinite(length)) {
        // A chunked body: what travels is its JSON.
        const size = Buffer.byteLength(JSON.stringify(req.body ?? null));
        if (size > limit) throw tooLargeForMessage(size, limit, maxPayload);
      }
      return afterBody(host, req, res);
    });
  };
  return middleware(function (req, res) {
    // API answers are per caller (and errors alike): no shared or browser cache keeps them. An action
    // that means otherwise sets its own Cache-Control, which replaces this one.
    res.setHeader("Cache-Control", "no-store");
    const limited = identifyAndLimit(this, options, req, res);
    if (isPromise(limited)) return limited.then(() => afterLimit(this, req, res));
    return afterLimit(this, req, res);
  });
}
