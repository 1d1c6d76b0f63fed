// The HTTP API gateway: maps /v1 routes to actions, authenticates bearer tokens, renders every error one way.
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import type { Config } from "@docshelf/config";
import { hashToken, type Caller } from "@docshelf/access";
import { UnauthorizedError, toErrorResponse } from "@docshelf/errors";
import { TokenCache } from "./token-cache";
import { V1_ROUTES } from "./routes";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{8,256})$/;

interface GatewayVars {
  tokens: TokenCache;
}
interface GatewayMethods {
  authenticate(ctx: Context, route: unknown, req: IncomingMessage): Promise<Caller>;
  renderError(req: IncomingMessage, res: ServerResponse, err: unknown): void;
}

type Next = (err?: unknown) => void;

/** Keeps a caller-supplied request id only when it is short and plain; otherwise makes one. */
function requestIdMiddleware(req: IncomingMessage, res: ServerResponse, next: Next): void {
  const given = req.headers["x-request-id"];
  delete req.headers["x-correlation-id"];
  const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
  req.headers["x-request-id"] = id;
  res.setHeader("X-Request-ID", id);
  next();
}

/** moleculer-web reads its routes when the service is created, so they are built from `cfg` up front. */
export function gatewaySchema(cfg: Config): ServiceSchema<Record<string, unknown>, GatewayMethods, GatewayVars> {
  // Bodies may be JSON only; everything else is refused before it reaches an action.
  const bodyParsers = { json: { strict: true, limit: cfg.jsonBodyLimitBytes }, urlencoded: false };
  return {
    name: "gateway",
    mixins: [ApiGateway as unknown as Partial<ServiceSchema>],

    settings: {
      port: cfg.port,
      ip: cfg.host,
      use: [requestIdMiddleware],
      // Request bodies and response data are never logged: Git URLs and tokens travel in them.
      logRequestParams: null,
      logResponseData: null,
      log4XXResponses: false,
      routes: [
        {
          name: "probes",
          path: "/",
          mappingPolicy: "restrict",
          authentication: false,
          aliases: { "GET health": "gateway.health", "GET ready": "gateway.ready" },
          bodyParsers: { json: false, urlencoded: false },
        },
        {
          name: "v1",
          path: "/v1",
          mappingPolicy: "restrict",
          autoAliases: false,
          authentication: true,
          mergeParams: true,
          aliases: V1_ROUTES,
          bodyParsers,
          callOptions: { timeout: cfg.requestTimeoutMs },
        },
      ],
      onError(this: GatewayMethods, req: IncomingMessage, res: ServerResponse, err: unknown) {
        this.renderError(req, res, err);
      },
    },

    actions: {
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
          const required = ["identity", "orgs", "content"];
          // Each service answers whether its store is open; a missing or silent one is not ready.
          const answers = await Promise.all(
            required.map((name) => ctx.call<boolean, Record<string, never>>(`${name}.storeReady`, {}, { timeout: 2000 }).catch(() => false)),
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
      // Revoking a token drops it from every gateway's cache at once.
      "identity.token.revoked": {
        handler(ctx: Context<{ tokenHash: string }>) {
          this.tokens.drop(ctx.params.tokenHash);
        },
      },
      "identity.user.changed": {
        handler() {
          this.tokens.clear();
        },
      },
    },

    methods: {
      async authenticate(ctx: Context, _route: unknown, req: IncomingMessage): Promise<Caller> {
        const header = req.headers.authorization;
        const match = typeof header === "string" ? BEARER.exec(header.trim()) : null;
        if (!match) throw new UnauthorizedError();
        const tokenHash = hashToken(match[1]);
        const cached = this.tokens.get(tokenHash);
        if (cached) return cached;
        const caller = await ctx.call<Caller | null, { tokenHash: string }>("identity.authenticate", { tokenHash });
        if (!caller) throw new UnauthorizedError("The API token is unknown or was revoked.");
        this.tokens.set(tokenHash, caller);
        return caller;
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
      this.tokens = new TokenCache(cfg.authCacheTtlMs);
    },
  };
}

export default gatewaySchema;
