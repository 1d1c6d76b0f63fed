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
    async tokenValid(req: IncomingMessage) {
      if (typeof req.headers.authorization !== "string") return false;
      // The same check as /v1's: the token cache, then identity.authenticate (the broker calls it).
      const identity = await gateway.identify(gateway.broker as Context, req as GatewayRequest);
      return identity.caller !== null;
    },
    admitAnonymous(req: IncomingMessage) {
      const limiter = gateway.openedGuards?.limiter;
      if (!limiter) return { allowed: true };
      try {
        const decision = limiter.hit({ kind: "address", address: clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted) });
        return !decision || decision.allowed ? { allowed: true } : { allowed: false, retryAfter: decision.retryAfter };
      } catch (err) {
        gateway.logger.warn({ err }, "rate limit counter unavailable; MCP request not counted");
        return { allowed: true };
      }
    },
    loopbackOrigin: () => loopbackOrigin(gateway.server?.address(), cfg.port),
  };
}
