// The HTTP API gateway: maps /v1 routes to actions, authenticates bearer tokens, renders every error one way.
import type * as events from "@docshelf/contracts/events";
import { call, type PayloadOf } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import * as sites from "@docshelf/contracts/sites";
import { ServerResponse, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { ALL_SERVICES, type Config } from "@docshelf/config";
import { hashToken, type Caller } from "@docshelf/access";
import { UnauthorizedError, toErrorResponse } from "@docshelf/errors";
import { TokenCache } from "./token-cache";
import { settleCreatedLocation, type ResponseMeta } from "./created-location";
import { buildAliasIndex, resolveIndexed, type AliasIndex, type AliasLike } from "./alias-index";
import { V1_ROUTES } from "./routes";
import { trustedProxies } from "./client-address";
import { rateLimitGuard, v1Guards, type GuardOptions } from "./middlewares";
import { clientAddress } from "./client-address";
import { RateLimiter } from "./rate-limiter";
import type { GatewayRequest, Identity } from "./request";
import { openStores, type GatewayStores } from "./stores";
import { changeRequestPdfRoutes } from "./routes/change-requests";
import { fileDownloadRoutes } from "./routes/content";
import { ssoBrowserRoutes } from "./routes/identity";
import { answerClientErrors } from "./client-errors";
import { OWN_HOST_PATH, publishedSites, type PublishedSites } from "./routes/published";
import { EDGE_INVALIDATING_EVENTS } from "./edge-cache";
import { appPages, requestIsSecure } from "./routes/app";
import { loggableUrl } from "./loggable-url";
import { HOME_HEADERS, homePage, type PublicSiteLink } from "./home";
import { httpMetrics } from "./http-metrics";
import { allowedMethods } from "./alias-index";
import { apiMcpGateway, isApiMcp, serveApiMcp } from "./mcp";
import type { Duplex } from "node:stream";
import { fileLimitForPayload, transporterMaxPayload } from "@docshelf/contracts/app";
import { CollabRelay, isCollabPath, refuseUpgrade, type CollabGrant } from "./collab";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** Moleculer's timeout middleware reads an action's own `timeout` (0: none), which its typings do not list. */
const NO_TIMEOUT = { timeout: 0 };
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{8,256})$/;

interface Guards {
  limiter: RateLimiter;
  stores: GatewayStores;
}
interface GatewayVars {
  tokens: TokenCache;
  opening: Promise<Guards>;
  /** moleculer-web's alias list (`aliases`) indexed by path prefix; rebuilt when the list changes. */
  aliases: AliasLike[];
  aliasIndex?: AliasIndex<AliasLike>;
  /** `opening`'s value once it resolved, so requests need not wait on the promise. */
  openedGuards?: Guards;
  counterErrorLoggedAt: number;
  /** Published sites, served before moleculer-web routes a request (routes/published.ts). */
  published: PublishedSites;
  /** The front page's list of public sites, kept briefly: `/` needs no token and is not rate limited. */
  homeSites?: { at: number; sites: Promise<PublicSiteLink[] | undefined> };
  /** Records a request in the HTTP metrics (http-metrics.ts); undefined when metrics are off. */
  observeHttp?: (req: IncomingMessage, res: ServerResponse) => void;
  /** The block editor's live collaboration relay (collab.ts). */
  collab: CollabRelay;
}
interface GatewayMethods {
  identify(ctx: Context, req: GatewayRequest): Identity | Promise<Identity>;
  authenticate(ctx: Context, route: unknown, req: GatewayRequest): Caller | Promise<Caller>;
  guards(): Promise<Guards>;
  settleIdempotency(req: GatewayRequest, answer: { status: number; body: unknown; headers: Record<string, string> } | null): Promise<void>;
  renderError(req: IncomingMessage, res: ServerResponse, err: unknown): void;
  admitReader(req: IncomingMessage, res: ServerResponse): boolean;
  logRequest(req: GatewayRequest): void;
  logResponse(req: GatewayRequest, res: ServerResponse): void;
  send404(req: IncomingMessage, res: ServerResponse): void;
  collabUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** How long the front page's list of public sites is reused. */
const HOME_SITES_TTL_MS = 10_000;


/** How often a failing shared rate counter is logged. */
const COUNTER_ERROR_LOG_EVERY_MS = 10_000;


/** The caller's X-Request-ID when it is short and plain (REQUEST_ID); undefined otherwise. */
function plainRequestId(req: IncomingMessage): string | undefined {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : undefined;
}

/**
 * A published-site request's id, settled before moleculer-web sees the request: a caller-supplied one
 * only when it is short and plain, otherwise a new one. Left in the request's headers, so a request the
 * sites pass on to the API keeps it (rootCallOptions).
 */
function settleRequestId(req: IncomingMessage, res: ServerResponse | null): string {
  const id = plainRequestId(req) ?? randomUUID();
  req.headers["x-request-id"] = id;
  // A published page's answer sets X-Request-ID itself (published.ts): an answer from the edge cache then writes
  // all its headers at once, which node:http does faster than headers set one by one before.
  res?.setHeader("X-Request-ID", id);
  return id;
}

/** moleculer-web's own request handler, which the gateway's runs after looking for a published site. */
const apiHandler = (ApiGateway.methods as { httpHandler(this: unknown, ...args: unknown[]): Promise<void> }).httpHandler;

/** The last Authorization header a connection sent and its token's hash (see bearerTokenHash). */
const LAST_BEARER = Symbol("docshelf.lastBearer");
type RememberingSocket = Socket & { [LAST_BEARER]?: { header: string; tokenHash: string } };

/**
 * The hash of the request's bearer token, or undefined without a well-formed one. A keep-alive client
 * sends the same header on every request of its connection, so the connection keeps its last header and
 * hash, and hashes again only when the header changes: SHA-256 was about 8 % of a cached request's CPU
 * (bench/src/inproc.ts). Nothing else is remembered there: whether the token is valid is asked of the
 * token cache every time, so a revocation still refuses the very next request. The header lives as long
 * as the connection that sent it, and no table of tokens is kept.
 */
function bearerTokenHash(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== "string") return undefined;
  const socket = req.socket as RememberingSocket | null;
  const last = socket?.[LAST_BEARER];
  if (last && last.header === header) return last.tokenHash;
  const match = BEARER.exec(header.trim());
  if (!match) return undefined;
  const tokenHash = hashToken(match[1]);
  if (socket) socket[LAST_BEARER] = { header, tokenHash };
  return tokenHash;
}

/**
 * moleculer-web makes the root context before route middlewares run, with the caller's X-Request-ID (or
 * X-Correlation-ID) as its request id, and its entry action sends ctx.requestID back as X-Request-ID. A
 * plain id is kept; otherwise the option is cleared and the context's own id (Moleculer makes one for
 * every context) is the request id, so no second id is made and the header is set once.
 */
function rootCallOptions(options: { requestID?: string }, req: IncomingMessage): void {
  options.requestID = plainRequestId(req);
}


/** dist/openapi.json (scripts/build-openapi.js), read on the first request for it. */
let ownApiText: string | undefined;

/** moleculer-web reads its routes when the service is created, so they are built from `cfg` up front. */
export function gatewaySchema(cfg: Config): ServiceSchema<Record<string, unknown>, GatewayMethods, GatewayVars> {
  const guardOptions: GuardOptions = {
    trusted: trustedProxies(cfg.trustedProxies),
    query: { maxDepth: cfg.queryMaxDepth, maxArrayLength: cfg.queryMaxArrayLength },
    body: { maxDepth: cfg.jsonMaxDepth, maxArrayLength: cfg.jsonMaxArrayLength, maxStringBytes: cfg.jsonMaxStringBytes },
    // A retry waits for the first attempt as long as that attempt may run; its lease is a little longer.
    idempotency: { waitMs: cfg.requestTimeoutMs, leaseMs: cfg.requestTimeoutMs * 2 + 5_000 },
  };
  // Bodies may be JSON only. The parser runs after the rate limiter (moleculer-web would run its own
  // parsers first), so refused bodies are counted and carry the rate-limit headers too.
  const jsonParser = ApiGateway.bodyParser.json({ strict: true, limit: cfg.jsonBodyLimitBytes });
  // moleculer-web's per-request lines ("=> GET /v1/…", "<= 200 …") are info: below that level the routes skip
  // building them (their `logging` flag) instead of formatting lines the logger drops.
  const routeLogging = cfg.logLevel === "info" || cfg.logLevel === "debug" || cfg.logLevel === "trace";
  const app = appPages(cfg.publicUrl, guardOptions.trusted, cfg.requestTimeoutMs);
  return {
    name: "gateway",
    mixins: [ApiGateway as unknown as Partial<ServiceSchema>],

    settings: {
      port: cfg.port,
      ip: cfg.host,
      // Called by moleculer-web for every request before anything else, so every answer carries the id.
      rootCallOptions,
      // qs keeps up to arrayLimit repeated keys as an array (GitBook's client sends arrays that way), and
      // parses one level past the limit so a deeper query is seen, and refused, rather than truncated.
      qsOptions: { arrayLimit: cfg.queryMaxArrayLength, depth: cfg.queryMaxDepth + 1 },
      // Request bodies and response data are never logged: Git URLs and tokens travel in them.
      logRequestParams: null,
      logResponseData: null,
      log4XXResponses: false,
      // Its ~200 lines of registered routes at start-up are debug detail: the start-up lines a person reads stay visible.
      logRouteRegistration: "debug",
      routes: [
        {
          name: "probes",
          path: "/",
          mappingPolicy: "restrict",
          authentication: false,
          aliases: { "GET /": "gateway.home", "GET health": "gateway.health", "GET ready": "gateway.ready", "GET v1/openapi.json": "gateway.openapiDocument" },
          bodyParsers: { json: false, urlencoded: false },
          logging: routeLogging,
        },
        // Browser-facing SAML routes (start URL, assertion consumer, metadata): counted per client address.
        {
          ...ssoBrowserRoutes,
          use: [rateLimitGuard(guardOptions)],
          callOptions: { timeout: cfg.requestTimeoutMs },
          logging: routeLogging,
          onBeforeCall(ctx: Context, _route: unknown, req: IncomingMessage): void {
            const address = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], guardOptions.trusted);
            const cookie = typeof req.headers.cookie === "string" ? req.headers.cookie.slice(0, 16384) : undefined;
            (ctx.meta as Record<string, unknown>).browser = { address, secure: requestIsSecure(req, cfg.publicUrl.startsWith("https:"), guardOptions.trusted), ...(cookie ? { cookie } : {}) };
          },
        },
        { ...fileDownloadRoutes, use: [rateLimitGuard(guardOptions)], callOptions: { timeout: cfg.requestTimeoutMs }, logging: routeLogging },
        {
          name: "v1",
          path: "/v1",
          mappingPolicy: "restrict",
          autoAliases: false,
          authentication: true,
          mergeParams: true,
          aliases: V1_ROUTES,
          bodyParsers: { json: false, urlencoded: false },
          // One middleware runs every guard in order (see middlewares.ts).
          use: [v1Guards(guardOptions, jsonParser)],
          callOptions: { timeout: cfg.requestTimeoutMs },
          logging: routeLogging,
          onAfterCall(this: GatewayMethods & GatewayVars, ctx: Context, _route: unknown, req: GatewayRequest, _res: ServerResponse, data: unknown): unknown {
            // A revocation answered through this gateway is dropped here before the answer leaves, so
            // the caller's very next request is refused; other gateways drop it on the broadcast.
            const meta = ctx.meta as ResponseMeta & { revokedTokenHash?: unknown };
            const revoked = meta.revokedTokenHash;
            if (typeof revoked === "string") this.tokens.drop(revoked);
            settleCreatedLocation(meta, data);
            const settle = (): unknown => {
              if (!req.$idempotency) return data;
              const headers: Record<string, string> = {};
              for (const [name, value] of Object.entries(meta.$responseHeaders ?? {})) if (typeof value === "string") headers[name] = value;
              if (meta.$location) headers.Location = meta.$location;
              const status = meta.$statusCode ?? 200;
              // Only successes are kept: a failed first attempt may be retried with the same key.
              return this.settleIdempotency(req, status >= 200 && status < 300 ? { status, body: data, headers } : null).then(() => data);
            };
            return settle();
          },
        },
        { ...changeRequestPdfRoutes, use: [rateLimitGuard(guardOptions)], callOptions: { timeout: cfg.requestTimeoutMs }, logging: routeLogging },
      ],
      onError(this: GatewayMethods, req: GatewayRequest, res: ServerResponse, err: unknown) {
        // A failed attempt gives its Idempotency-Key back, so a retry runs again.
        void this.settleIdempotency(req, null);
        this.renderError(req, res, err);
      },
    },

    actions: {
      // moleculer-web's entry action: every HTTP request passes through it before the action it
      // names, which has its own bulkhead, circuit breaker and timeout (the routes' callOptions);
      // guarding both would count twice and start a second timer per request. The guards' own calls
      // (identity, the idempotency wait) carry their own timeouts.
      rest: {
        bulkhead: { enabled: false },
        circuitBreaker: { enabled: false },
        ...NO_TIMEOUT,
        // moleculer-web names the span after the URL and tags it with it: share keys and tokens ride there.
        tracing: {
          tags: { params: ["req.method"] },
          spanName: (ctx: Context) => {
            const { req } = ctx.params as { req: IncomingMessage };
            return `${req.method} ${loggableUrl(req.url)}`;
          },
        },
      },
      /** `GET /`: a page for whoever opens the server in a browser (home.ts). */
      home: {
        visibility: "published",
        async handler(this: GatewayMethods & GatewayVars, ctx: Context) {
          const now = Date.now();
          if (!this.homeSites || now - this.homeSites.at > HOME_SITES_TTL_MS) {
            const listed = call(ctx, sites.publicSites, { limit: 50 }, { timeout: 2000 }).catch(() => undefined);
            this.homeSites = { at: now, sites: listed };
          }
          const meta = ctx.meta as Record<string, unknown>;
          meta.$responseType = "text/html; charset=utf-8";
          meta.$responseHeaders = HOME_HEADERS;
          return homePage(cfg.publicUrl, await this.homeSites.sites);
        },
      },
      /** `GET /v1/openapi.json`: this instance's API description (own-api.ts), made at build time; no token needed. */
      openapiDocument: {
        visibility: "published",
        handler(ctx: Context) {
          const meta = ctx.meta as Record<string, unknown>;
          meta.$responseType = "application/json; charset=utf-8";
          meta.$responseHeaders = { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" };
          ownApiText ??= readFileSync(join(__dirname, "openapi.json"), "utf8");
          return ownApiText;
        },
      },
      /** How many live editing connections this gateway holds to a page (collab.ts; asked by a gateway opening the page's room). */
      collabPeers: {
        visibility: "public",
        params: { room: { type: "string", max: 512 } },
        handler(this: GatewayVars, ctx: Context<{ room: string }>) {
          return this.collab.peers(ctx.params.room);
        },
      },
      health: {
        visibility: "published",
        handler() {
          return { status: "ok" };
        },
      },
      ready: {
        visibility: "published",
        async handler(ctx: Context) {
          const connected = !this.broker.transit || this.broker.transit.connected;
          const required = ALL_SERVICES.filter((name) => name !== "gateway");
          // Each service answers whether its store is open; a missing or silent one is not ready. One not
          // registered yet (start-up) is not called: Moleculer would log a warning for every poll.
          const registry = this.broker.registry as unknown as { actions: { isAvailable(action: string): boolean } };
          const answers = await Promise.all(
            required.map((name) =>
              registry.actions.isAvailable(`${name}.storeReady`)
                ? ctx.call<boolean, Record<string, never>>(`${name}.storeReady`, {}, { timeout: 2000 }).catch(() => false)
                : false,
            ),
          );
          const missing = required.filter((_, i) => answers[i] !== true);
          if (!connected || missing.length) {
            (ctx.meta as Record<string, unknown>).$statusCode = 503;
            return { status: "unavailable", transporter: connected ? "connected" : "disconnected", missing };
          }
          return { status: "ready" };
        },
      },
    },

    events: {
      // A live editing frame from another gateway's connection to a page this gateway may hold connections to.
      "gateway.collab.relay": {
        handler(this: GatewayVars & { broker: Context["broker"] }, ctx: Context<{ room?: unknown; origin?: unknown; frame?: unknown; text?: unknown }>) {
          const { room, origin, frame, text } = ctx.params;
          if (origin === this.broker.nodeID || typeof room !== "string" || typeof frame !== "string") return;
          if (this.collab.peers(room) > 0) this.collab.deliver(room, Buffer.from(frame, "base64"), undefined, text === true);
        },
      },
      // A change request's content moved (an edit through the API, the app, an import): the block editors open on
      // its pages here learn it over their live connections (collab.ts) instead of waiting for a check.
      "change-requests.content.changed": {
        handler(this: GatewayVars, ctx: Context<Partial<PayloadOf<typeof events.changeRequestsContentChanged>>>) {
          const { spaceId, changeRequestId, revision } = ctx.params;
          if (typeof spaceId !== "string" || typeof changeRequestId !== "string" || typeof revision !== "string" || revision.length > 128) return;
          this.collab.contentChanged(spaceId, changeRequestId, revision);
        },
      },
      // Revoking a token drops it from every gateway's cache at once.
      "identity.token.revoked": {
        handler(ctx: Context<PayloadOf<typeof events.identityTokenRevoked>>) {
          this.tokens.drop(ctx.params.tokenHash);
        },
      },
      "identity.user.changed": {
        handler() {
          this.tokens.clear();
        },
      },
      // A site's pages may have changed (its settings, structure, publication, or a space's content): every
      // gateway empties its edge cache of published pages (edge-cache.ts) at once.
      ...Object.fromEntries(
        EDGE_INVALIDATING_EVENTS.map((name) => [
          name,
          {
            handler(this: { published: PublishedSites }) {
              this.published.edge.clear();
            },
          },
        ]),
      ),
    },

    methods: {
      /** moleculer-web's "=> GET /path" line, without the secrets a URL may carry (loggable-url.ts). */
      logRequest(req: GatewayRequest & { originalUrl?: string; $route?: { logging?: boolean } }) {
        if (req.$route && !req.$route.logging) return;
        this.logger.info(`=> ${req.method} ${loggableUrl(req.originalUrl ?? req.url)}`);
      },

      /** moleculer-web's "<= 200 GET /path [+1.2 ms]" line, the same way. */
      logResponse(req: GatewayRequest & { originalUrl?: string; $route?: { logging?: boolean }; $startTime?: [number, number] }, res: ServerResponse) {
        if (req.$route && !req.$route.logging) return;
        const [s, ns] = req.$startTime ? process.hrtime(req.$startTime) : [0, 0];
        this.logger.info(`<= ${res.statusCode} ${req.method} ${loggableUrl(req.originalUrl ?? req.url)} [+${(s * 1000 + ns / 1e6).toFixed(3)} ms]`);
      },

      /**
       * Checks the bearer token; a missing or bad one is an answer (for rate limiting), not a throw. A
       * cached token is answered at once, without a promise.
       */
      identify(ctx: Context, req: GatewayRequest): Identity | Promise<Identity> {
        const tokenHash = bearerTokenHash(req);
        if (tokenHash === undefined) return { caller: null, error: new UnauthorizedError() };
        const cached = this.tokens.get(tokenHash);
        if (cached) return { caller: cached, tokenHash };
        // Read before asking: a revocation that lands while the call is out keeps its answer out of the cache.
        const epoch = this.tokens.epoch();
        return call(ctx, identity.authenticate, { tokenHash }).then((caller): Identity => {
          if (!caller) return { caller: null, error: new UnauthorizedError("The API token is unknown or was revoked.") };
          this.tokens.set(tokenHash, caller, epoch);
          return { caller, tokenHash };
        });
      },

      /** moleculer-web's authentication hook: the rate limiter has already identified the caller. */
      authenticate(ctx: Context, _route: unknown, req: GatewayRequest): Caller | Promise<Caller> {
        const callerOf = (identity: Identity): Caller => {
          if (!identity.caller) throw identity.error;
          return identity.caller;
        };
        const identity = req.$identity ?? this.identify(ctx, req);
        return "then" in identity ? identity.then(callerOf) : callerOf(identity);
      },

      /** A published site's page (under /sites/, or on a site's own hostname) is served here; anything else goes to moleculer-web. */
      httpHandler(req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) {
        this.observeHttp?.(req, res);
        if (isApiMcp(req)) return serveApiMcp(apiMcpGateway(this, cfg, guardOptions.trusted), req, res).catch((err: unknown) => this.renderError(req, res, err));
        const params = this.published.target(req);
        // The app and SSO answer only on the instance's own host: on a site's hostname their paths are the site's.
        if (this.published.foreignHost(req) && OWN_HOST_PATH.test((req.url ?? "/").split("?")[0])) {
          const requestID = settleRequestId(req, res);
          if (!params) return this.published.notHere(req, res);
          if (!this.admitReader(req, res)) return undefined;
          return this.published.serve(this.broker, req, res, params, requestID).then(
            (served) => (served ? undefined : this.published.notHere(req, res)),
            (err: unknown) => this.renderError(req, res, err),
          );
        }
        if (!params && app.matches(req)) return this.admitReader(req, res) ? app.serve(this.broker, req, res, settleRequestId(req, res)).catch((err: unknown) => this.renderError(req, res, err)) : undefined;
        if (!params) return apiHandler.call(this, req, res, next);
        const requestID = settleRequestId(req, null);
        if (!this.admitReader(req, res)) return undefined;
        return this.published.serve(this.broker, req, res, params, requestID).then(
          (served) => (served ? undefined : apiHandler.call(this, req, res, next)),
          (err: unknown) => this.renderError(req, res, err),
        );
      },

      /**
       * Counts a published-site request against its client address (SITE_RATE_LIMIT_PER_MINUTE, across
       * gateways like the API's limits); past the limit answers the 429 page itself and returns false.
       */
      admitReader(req: IncomingMessage, res: ServerResponse): boolean {
        const limiter = this.openedGuards?.limiter;
        if (!limiter) return true;
        let decision;
        try {
          decision = limiter.hit({ kind: "reader", address: clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], guardOptions.trusted) });
        } catch (err) {
          this.logger.warn({ err }, "rate limit counter unavailable; page request not counted");
          return true;
        }
        if (!decision || decision.allowed) return true;
        this.published.refuse(req, res, decision.retryAfter);
        return false;
      },

      /**
       * moleculer-web's answer when no route takes a request: 405 with `Allow` when the path is one of
       * the API's with other methods, else 404; both in the error body.
       */
      send404(req: IncomingMessage & { $next?: () => void; parsedUrl?: string }, res: ServerResponse) {
        if (req.$next) return req.$next();
        const path = req.parsedUrl ?? (req.url ?? "/").split("?")[0];
        const allowed = allowedMethods(this.aliases ?? [], path);
        if (allowed.length > 0 && !allowed.includes(req.method ?? "")) {
          res.setHeader("Allow", allowed.join(", "));
          return this.renderError(req, res, { code: 405, type: "METHOD_NOT_ALLOWED", message: `The method ${req.method} is not allowed here; this path takes ${allowed.join(", ")}.` });
        }
        return (ApiGateway.methods as { send404(this: unknown, ...args: unknown[]): void }).send404.call(this, req, res);
      },

      /** moleculer-web's own lookup, without trying every alias: the same first match (see alias-index.ts). */
      resolveAlias(url: string, method = "GET") {
        let index = this.aliasIndex;
        if (!index || index.aliases !== this.aliases || index.length !== this.aliases.length) {
          index = this.aliasIndex = buildAliasIndex(this.aliases);
        }
        return resolveIndexed(index, url, method);
      },

      /** moleculer-web sorts its alias list in place after changing it: the index is rebuilt on the next lookup. */
      optimizeAliasesOrder() {
        (ApiGateway.methods as { optimizeAliasesOrder(this: unknown): void }).optimizeAliasesOrder.call(this);
        this.aliasIndex = undefined;
      },

      /**
       * A WebSocket upgrade: only the block editor's collaboration path on the instance's own host, from a page
       * of the same origin (a cross-site page cannot open it, whatever cookies it carries), counted against
       * the published sites' per-address limit like the app's pages; the relay authorizes the rest (collab.ts).
       */
      collabUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
        socket.on("error", () => undefined);
        const websocket = String(req.headers.upgrade ?? "").toLowerCase() === "websocket";
        if (!websocket && (req.method === "GET" || req.method === "HEAD") && head.length === 0) {
          // Another protocol asked for (curl --http2's h2c on plain http): answered as the plain request it also is,
          // as node:http did before the gateway listened for upgrades; a body after such headers is not read.
          const res = new ServerResponse(req);
          res.shouldKeepAlive = false;
          res.assignSocket(socket as Socket);
          res.on("finish", () => {
            res.detachSocket(socket as Socket);
            socket.end();
          });
          (this as unknown as { server: Server }).server.emit("request", req, res);
          return undefined;
        }
        if (!websocket || !isCollabPath(req.url) || this.published.foreignHost(req)) return refuseUpgrade(socket, 404, "Not found.");
        const secure = requestIsSecure(req, cfg.publicUrl.startsWith("https:"), guardOptions.trusted);
        const own = [`${secure ? "https" : "http"}://${req.headers.host ?? ""}`, new URL(cfg.publicUrl).origin];
        if (typeof req.headers.origin !== "string" || !own.includes(req.headers.origin)) return refuseUpgrade(socket, 403, "Live editing is opened from the editor's own page only.");
        const limiter = this.openedGuards?.limiter;
        try {
          const decision = limiter?.hit({ kind: "reader", address: clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], guardOptions.trusted) });
          if (decision && !decision.allowed) return refuseUpgrade(socket, 429, "Too many requests.", { "Retry-After": String(decision.retryAfter) });
        } catch (err) {
          this.logger.warn({ err }, "rate limit counter unavailable; live editing upgrade not counted");
        }
        this.collab.upgrade(req, socket, head).catch((err: unknown) => {
          this.logger.warn({ err: { message: (err as Error)?.message } }, "a live editing upgrade failed");
          socket.destroy();
        });
      },

      guards(): Promise<Guards> {
        return this.opening;
      },

      /** Stores the first attempt's answer, or releases the key; at most once per request. */
      async settleIdempotency(req: GatewayRequest, answer) {
        const held = req.$idempotency;
        if (!held || held.settled) return;
        held.settled = true;
        try {
          const { stores } = await this.opening;
          if (answer) await stores.idempotency.complete(held.key, held.fingerprint, answer);
          else await stores.idempotency.release(held.key);
        } catch (err) {
          // The lease runs out by itself, so a lost release only delays a retry.
          this.logger.warn({ err }, "could not settle an idempotency key");
        }
      },

      renderError(req: IncomingMessage, res: ServerResponse, err: unknown) {
        const bodyParserError = err as { type?: string; status?: number };
        let mapped = err;
        if (bodyParserError?.type === "entity.too.large") mapped = { code: 413, type: "PAYLOAD_TOO_LARGE", message: "The request body is too large." };
        else if (typeof bodyParserError?.type === "string" && bodyParserError.type.startsWith("entity.")) mapped = { code: 400, type: "INVALID_REQUEST_BODY" };
        const { status, body, retryAfter } = toErrorResponse(mapped);
        if (status >= 500 && status !== 503 && status !== 504) {
          this.logger.error({ err, url: req.url?.split("?")[0] }, "request failed");
        }
        if (res.headersSent) return res.end();
        res.statusCode = status;
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        if (retryAfter !== undefined) res.setHeader("Retry-After", String(retryAfter));
        res.end(JSON.stringify(body));
      },
    },

    created() {
      // moleculer-web made the HTTP server in its own created(), which runs first.
      const server = (this as unknown as { server: Server }).server;
      answerClientErrors(server);
      const broker = this.broker;
      const gateways = () =>
        (broker.registry as unknown as { getServiceList(o: { onlyAvailable: boolean }): Array<{ name: string; nodeID: string }> })
          .getServiceList({ onlyAvailable: true })
          .filter((s) => s.name === "gateway" && s.nodeID !== broker.nodeID)
          .map((s) => s.nodeID);
      this.collab = new CollabRelay({
        authorize: (target, cookie, csrf) => broker.call<CollabGrant, Record<string, unknown>>("app.collab", { ...target, cookie, csrf }, { timeout: cfg.requestTimeoutMs }),
        async remotePeers(room) {
          if (!broker.transit) return 0;
          const counts = await Promise.all(
            [...new Set(gateways())].map((nodeID) => broker.call<number, { room: string }>("gateway.collabPeers", { room }, { nodeID, timeout: 2000 }).catch(() => 0)),
          );
          return counts.reduce((a, b) => a + (typeof b === "number" ? b : 0), 0);
        },
        publish(room, frame, text) {
          const message = { room, origin: broker.nodeID, frame: frame.toString("base64"), ...(text ? { text: true } : {}) };
          if (broker.transit) void broker.broadcast("gateway.collab.relay", message, { groups: ["gateway"] });
        },
        transporterFrameLimit: () => fileLimitForPayload(transporterMaxPayload(broker)),
        warn: (fields, message) => this.logger.warn(fields, message),
      });
      server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => this.collabUpgrade(req, socket, head));
      this.tokens = new TokenCache(cfg.authCacheTtlMs);
      this.published = publishedSites(cfg.publicUrl, cfg.requestTimeoutMs);
      this.observeHttp = httpMetrics(this.broker);
      // Opened here, not in started(): moleculer-web's started() may already take requests, and the
      // guards wait on this promise. started() below makes a failure to open them stop start-up.
      this.counterErrorLoggedAt = 0;
      const onCounterError = (err: unknown) => {
        // Flushes run every 200 ms: a bucket that stays unreachable is logged now and then, not each time.
        if (Date.now() - this.counterErrorLoggedAt < COUNTER_ERROR_LOG_EVERY_MS) return;
        this.counterErrorLoggedAt = Date.now();
        this.logger.warn({ err }, "could not share rate limit counts; this gateway counts alone until the bucket answers");
      };
      this.opening = openStores(cfg, onCounterError).then((stores) => {
        const guards = {
          stores,
          limiter: new RateLimiter(stores.counters, { perUser: cfg.rateLimitPerMinute, perAddress: cfg.rateLimitAnonPerMinute, perReader: cfg.siteRateLimitPerMinute }),
        };
        this.openedGuards = guards;
        return guards;
      });
      this.opening.catch(() => undefined);
    },

    async started() {
      await this.opening;
    },

    async stopped() {
      this.collab?.close();
      const guards = await this.opening.catch(() => undefined);
      await guards?.stores.close();
    },
  };
}

export default gatewaySchema;
