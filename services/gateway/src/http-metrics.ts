// HTTP metrics of the gateway by route and status, on the process's Prometheus endpoint (METRICS_PORT):
// docshelf_http_requests_total{route,method,status} and docshelf_http_request_duration_seconds{route,method}.
// A route is the API's route pattern (`/v1/spaces/:spaceId`), never the URL itself, so ids, paths of sites
// and query strings never become labels (a label per URL would grow without bound).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";

export const HTTP_REQUESTS = "docshelf.http.requests.total";
export const HTTP_DURATION = "docshelf.http.request.duration.seconds";

/** The label of a request once answered: the matched API route, or the kind of page it was. */
export function routeLabel(req: IncomingMessage & { $alias?: { fullPath?: string } }): string {
  if (req.$alias?.fullPath) return req.$alias.fullPath;
  const path = (req.url ?? "/").split("?")[0];
  if (path === "/sites" || path.startsWith("/sites/")) return "sites";
  if (/^\/(app|o|s)(\/|$)/.test(path)) return "app";
  if (path === "/mcp" || path.endsWith("/~gitbook/mcp")) return "mcp";
  if (path.startsWith("/sso/")) return "sso";
  if (path.startsWith("/v1/")) return "v1 (no route)";
  // A site on its own hostname, or a path nothing serves.
  return "other";
}

/** Registers the metrics and answers the function that records one request; undefined when metrics are off. */
export function httpMetrics(broker: ServiceBroker): ((req: IncomingMessage, res: ServerResponse) => void) | undefined {
  if (!broker.isMetricsEnabled()) return undefined;
  broker.metrics.register({ type: "counter", name: HTTP_REQUESTS, labelNames: ["route", "method", "status"], description: "HTTP requests answered, by route and status" });
  broker.metrics.register({
    type: "histogram",
    name: HTTP_DURATION,
    labelNames: ["route", "method"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    description: "Time from a request's arrival to the end of its answer",
  });
  return (req, res) => {
    const began = process.hrtime.bigint();
    res.once("close", () => {
      const route = routeLabel(req);
      const method = req.method ?? "GET";
      broker.metrics.increment(HTTP_REQUESTS, { route, method, status: String(res.statusCode) });
      broker.metrics.observe(HTTP_DURATION, Number(process.hrtime.bigint() - began) / 1e9, { route, method });
    });
  };
}
