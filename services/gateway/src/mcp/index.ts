// The gateway's MCP parts: the API's server at /mcp (api.ts) and the forwarding of a published site's
// MCP requests to the sites service (site.ts). `apiMcpGateway` adapts the gateway service for api.ts.
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Context } from "moleculer";
import type { Config } from "@docshelf/config";
import { clientAddress, type TrustedProxies } from "../client-address";
import type { RateLimiter } from "../rate-limiter";
import type { GatewayRequest, Identity } from "../request";
import type { ApiMcpGateway } from "./api";

export { isApiMcp, serveApiMcp, API_MCP_PATH } from "./api";

/** The parts of the gateway service /mcp uses. */
export interface McpGatewayService {
  broker: unknown;
  logger: { warn(...args: unknown[]): void };
  server?: Server;
  openedGuards?: { limiter: RateLimiter };
  identify(ctx: Context, req: GatewayRequest): Identity | Promise<Identity>;
}

/** Where the gateway's own HTTP server listens, as a loopback URL (a wildcard address is reached on loopback). */
export function loopbackOrigin(address: AddressInfo | string | null | undefined, fallbackPort: number): string {
  if (!address || typeof address === "string") return `http://127.0.0.1:${fallbackPort}`;
  const host = address.address === "::" || address.address === "0.0.0.0" || address.address === "" ? "127.0.0.1" : address.address;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}

export function apiMcpGateway(service: unknown, cfg: Config, trusted: TrustedProxies): ApiMcpGateway {
  const gateway = service as McpGatewayService;
  return {
    bodyLimitBytes: cfg.jsonBodyLimitBytes,
    timeoutMs: cfg.requestTimeoutMs,
    async callerId(req: IncomingMessage) {
      if (typeof req.headers.authorization !== "string") return null;
      // The same check as /v1's: the token cache, then identity.authenticate (the broker calls it).
      const identity = await gateway.identify(gateway.broker as Context, req as GatewayRequest);
      return identity.caller?.id ?? null;
    },
    admit(req: IncomingMessage, userId: string | null) {
      const limiter = gateway.openedGuards?.limiter;
      if (!limiter) return { allowed: true };
      try {
        const address = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
        // A user's MCP requests share the reader kind's per-minute budget under a key of their own (never an address).
        const decision = limiter.hit(userId ? { kind: "reader", address: `mcp-user:${userId}` } : { kind: "address", address });
        return !decision || decision.allowed ? { allowed: true } : { allowed: false, retryAfter: decision.retryAfter };
      } catch (err) {
        gateway.logger.warn({ err }, "rate limit counter unavailable; MCP request not counted");
        return { allowed: true };
      }
    },
    loopbackOrigin: () => loopbackOrigin(gateway.server?.address(), cfg.port),
  };
}
