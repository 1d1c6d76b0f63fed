// Broker options for every process: one place that sets transport, logging and fault tolerance.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrokerOptions, Errors } from "moleculer";
import { natsConnectionOptions, type Config } from "@docshelf/config";
import { connectionWatch } from "./connection-watch";
import { nodeLossCheck } from "./node-loss";
import { actionCalls } from "./action-calls";
import { nodeWentAway, safeRetries } from "./safe-retries";
import { StreamingJsonSerializer } from "./serializer";
import { OtlpTraceExporter } from "./otlp-exporter";

/** This docshelf's version (every workspace's package.json carries the same one). */
function ownVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Spans go nowhere, to the log (console), to a Zipkin-compatible collector or to an OTLP/HTTP one (otlp-exporter.ts). */
function tracingExporter(cfg: Config): NonNullable<BrokerOptions["tracing"]> {
  if (cfg.tracingExporter === "none") return { enabled: false };
  const exporter =
    cfg.tracingExporter === "otlp"
      ? new OtlpTraceExporter({ config: cfg.otlp, version: ownVersion() })
      : cfg.tracingExporter === "zipkin"
        ? { type: "Zipkin", options: { baseURL: cfg.zipkinUrl, interval: 5 } }
        : { type: "Console", options: { colors: false, width: 100 } };
  // Every request is sampled: the volume is small, and a trace is worth most for the rare failing request.
  return {
    enabled: true,
    sampling: { rate: 1 },
    exporter: [exporter],
    // Moleculer tags every span with all params by default: request bodies (Git URLs with credentials,
    // token hashes) would leave the process. Spans carry names, timings, request ids and errors only.
    tags: { action: { params: false, meta: false, response: false }, event: { params: false, meta: false } },
  } as NonNullable<BrokerOptions["tracing"]>;
}

export function brokerOptions(cfg: Config): BrokerOptions {
  return {
    namespace: cfg.namespace,
    nodeID: cfg.nodeId || undefined,
    // Empty: every service in this process, no transporter. Otherwise NATS (or Fake in tests).
    // NATS gets the servers and credentials the configuration read (a token or a creds file too, which
    // Moleculer's URL parsing does not know), so the URL's password never reaches a log line.
    transporter: (cfg.nats ? { type: "NATS", options: natsConnectionOptions(cfg.nats) } : cfg.transporter || null) as BrokerOptions["transporter"],
    // JSON, with the chunks of streamed answers sent as bytes (see serializer.ts).
    serializer: new StreamingJsonSerializer(),

    // pino JSON logs; the gateway never logs bodies, and these paths are redacted wherever they appear.
    logger: {
      type: "Pino",
      options: {
        level: cfg.logLevel,
        pino: {
          options: {
            redact: {
              paths: ["token", "*.token", "authorization", "*.authorization", "headers.authorization", "url", "*.url", "password", "*.password", "adminToken", "*.adminToken", "mongoUrl", "*.mongoUrl", "smtpUrl", "*.smtpUrl", "transporter", "*.transporter"],
              censor: "[redacted]",
            },
          },
        },
      },
    },
    logLevel: cfg.logLevel,

    // Moleculer's default is no timeout at all: a lost call would hang for minutes.
    requestTimeout: cfg.requestTimeoutMs,
    // On for the calls that safeRetries marks (those of GET and HEAD requests), and only when their node
    // went away; every other call has 0 retries.
    retryPolicy: { enabled: Boolean(cfg.transporter), retries: 0, delay: 50, maxDelay: 500, factor: 2, check: nodeWentAway },
    // Stop calling a node whose calls keep failing for server reasons; 4xx answers never trip it. Only
    // between nodes: in one process every action has a single endpoint, this one, and opening it would
    // only turn a failing action into 503s for halfOpenTime, at a cost on every call.
    circuitBreaker: {
      enabled: Boolean(cfg.transporter),
      threshold: 0.5,
      minRequestCount: 20,
      windowTime: 60,
      halfOpenTime: 10_000,
      check: (err: Error) => typeof (err as Errors.MoleculerError)?.code === "number" && (err as Errors.MoleculerError).code >= 500,
    },
    // At most this many calls of one action run at once per node; the rest queue, and past the queue, 503.
    bulkhead: { enabled: true, concurrency: 100, maxQueueSize: 1000 },
    registry: { strategy: "RoundRobin", preferLocal: true },
    // Let in-flight requests finish on shutdown.
    tracking: { enabled: true, shutdownTimeout: 10_000 },
    // A node that stops sending heartbeats (killed) is dropped 5–6 s after its last one (nodeLossCheck looks
    // every second): its pending calls are rejected then, and those of GETs retried elsewhere (safe-retries.ts),
    // inside the 10 s timeout.
    heartbeatInterval: 1,
    heartbeatTimeout: 4,
    // Prometheus text on METRICS_PORT/metrics (request counts, latencies, errors, transit, process); off at 0.
    metrics:
      cfg.metricsPort > 0
        ? {
            enabled: true,
            // Moleculer skips process and OS metrics when NODE_ENV is "test"; they are wanted wherever metrics are on.
            collectProcessMetrics: true,
            reporter: [{ type: "Prometheus", options: { host: cfg.host, port: cfg.metricsPort, path: "/metrics" } }],
          }
        : { enabled: false },
    tracing: tracingExporter(cfg),
    // Moleculer's own middlewares in its order, except Timeout and Fallback: `actionCalls` does both, and
    // logs failures with the request id (X-Request-ID) in every process, at a fraction of the cost per
    // call (see action-calls.ts). It sits where Fallback did; Retry, inside it, is off (see retryPolicy),
    // so a retried call would share one deadline. connectionWatch makes readiness see a NATS outage.
    internalMiddlewares: false,
    middlewares: [
      connectionWatch(),
      nodeLossCheck(),
      "ActionHook",
      "Validator",
      "Bulkhead",
      "Cacher",
      "ContextTracker",
      "CircuitBreaker",
      "Retry",
      safeRetries(),
      actionCalls(cfg.logLevel),
      "ErrorHandler",
      "Tracing",
      "Metrics",
      "Debounce",
      "Throttle",
    ],
    validator: true,
  };
}
