// Moleculer's tracing spans sent to an OpenTelemetry collector over OTLP/HTTP with JSON encoding
// (https://opentelemetry.io/docs/specs/otlp/#otlphttp), the format every collector, Jaeger, Grafana Tempo
// and most vendors receive on port 4318.
//
// Written here rather than with @opentelemetry/exporter-trace-otlp-http: that exporter takes the SDK's
// ReadableSpan objects (a resource, an instrumentation scope, span contexts, hrtime pairs), so Moleculer's
// spans would have to be rebuilt as SDK objects, through half a dozen @opentelemetry/* packages, to be
// serialised into the same JSON this file writes directly. The JSON encoding is a stable part of the
// specification (trace and span ids as hex strings, times as nanosecond strings).
//
// Ids: Moleculer's trace id is the request id (X-Request-ID when the client sent one, otherwise a UUID) and
// its span ids are context ids, carried across processes with every call. OTLP wants 16- and 8-byte ids, so
// each is the start of the SHA-256 of Moleculer's id: every process maps the same id to the same value
// without talking to the others, so the spans of one request share a trace id and point at their parents.
// The request id itself is the attribute `docshelf.request_id`.
import { createHash } from "node:crypto";
import { TracerExporters, type Span, type Tracer } from "moleculer";
import type { OtlpConfig } from "@docshelf/config";

/** Spans that may wait for the next export; newer ones are dropped (and counted) beyond this. */
export const OTLP_MAX_QUEUE = 2048;
/** An export starts as soon as this many spans wait. */
export const OTLP_MAX_BATCH = 512;

type AnyValue = { stringValue: string } | { boolValue: boolean } | { intValue: string } | { doubleValue: number };
export interface OtlpAttribute {
  key: string;
  value: AnyValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: number; message?: string };
}
export interface OtlpTraceRequest {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ scope: { name: string; version?: string }; spans: OtlpSpan[] }>;
  }>;
}

// OTLP's SpanKind and StatusCode numbers.
const KIND_INTERNAL = 1;
const KIND_SERVER = 2;
const KIND_CONSUMER = 5;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

const hexOf = (id: string, bytes: number): string => createHash("sha256").update(id).digest("hex").slice(0, bytes * 2);
/** The OTLP trace id (32 hex digits) of a Moleculer trace (request) id. */
export const otlpTraceId = (moleculerTraceId: string): string => hexOf(`trace:${moleculerTraceId}`, 16);
/** The OTLP span id (16 hex digits) of a Moleculer span (context) id. */
export const otlpSpanId = (moleculerSpanId: string): string => hexOf(`span:${moleculerSpanId}`, 8);

const nanos = (ms: number): string => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

function attribute(key: string, value: unknown): OtlpAttribute | undefined {
  if (typeof value === "string") return { key, value: { stringValue: value } };
  if (typeof value === "boolean") return { key, value: { boolValue: value } };
  if (typeof value === "number" && Number.isFinite(value)) return { key, value: Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value } };
  return undefined;
}

/** The span's tags as flat OTLP attributes (`action.name`, `params.req.method`, …); objects are walked, other values skipped. */
function flatAttributes(tags: Record<string, unknown>, prefix = "", out: OtlpAttribute[] = [], depth = 0): OtlpAttribute[] {
  for (const [key, value] of Object.entries(tags)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      if (depth < 4) flatAttributes(value as Record<string, unknown>, name, out, depth + 1);
      continue;
    }
    const attr = attribute(name, value);
    if (attr) out.push(attr);
  }
  return out;
}

/** One Moleculer span as an OTLP span. */
export function toOtlpSpan(span: Span): OtlpSpan {
  const tags = (span.tags ?? {}) as Record<string, unknown>;
  const attributes = flatAttributes(tags);
  attributes.push({ key: "docshelf.request_id", value: { stringValue: String(span.traceID) } });
  if (span.type) attributes.push({ key: "moleculer.span_type", value: { stringValue: span.type } });
  const error = span.error as (Error & { code?: unknown; type?: unknown }) | boolean | null;
  if (error && typeof error === "object") {
    attributes.push({ key: "exception.type", value: { stringValue: String(error.name || "Error") } });
    if (typeof error.code === "number") attributes.push({ key: "moleculer.error_code", value: { intValue: String(error.code) } });
  }
  const kind = span.type === "event" ? KIND_CONSUMER : !span.parentID || tags.remoteCall === true ? KIND_SERVER : KIND_INTERNAL;
  return {
    traceId: otlpTraceId(String(span.traceID)),
    spanId: otlpSpanId(String(span.id)),
    ...(span.parentID ? { parentSpanId: otlpSpanId(String(span.parentID)) } : {}),
    name: span.name,
    kind,
    startTimeUnixNano: nanos(span.startTime ?? 0),
    endTimeUnixNano: nanos(span.finishTime ?? span.startTime ?? 0),
    attributes,
    status: error ? { code: STATUS_ERROR, ...(typeof error === "object" && error.message ? { message: String(error.message) } : {}) } : { code: STATUS_UNSET },
  };
}

interface ExporterOptions {
  config: OtlpConfig;
  /** service.version of every span. */
  version: string;
}

interface SpanService {
  name?: string;
}

/** A Moleculer trace exporter: batches finished spans and POSTs them as OTLP/HTTP JSON. */
export class OtlpTraceExporter extends TracerExporters.Base {
  private readonly settings: ExporterOptions;
  private queue: Span[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private dropped = 0;

  constructor(options: ExporterOptions) {
    super({});
    this.settings = options;
  }

  override init(tracer: Tracer): void {
    super.init(tracer);
    this.timer = setInterval(() => void this.flush(), this.settings.config.scheduleDelayMs);
    this.timer.unref();
  }

  override spanFinished(span: Span): void {
    if (this.queue.length >= OTLP_MAX_QUEUE) {
      this.dropped++;
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= OTLP_MAX_BATCH) void this.flush();
  }

  /** Sends what waits, one export at a time; resolves when that export has ended, well or not. */
  flush(): Promise<void> {
    if (this.inFlight || this.queue.length === 0) return this.inFlight ?? Promise.resolve();
    const batch = this.queue.splice(0, OTLP_MAX_BATCH);
    this.inFlight = this.send(batch).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** The OTLP request body of `spans`: a resource per service name (OTEL_SERVICE_NAME, or docshelf-<Moleculer service>). */
  body(spans: Span[]): OtlpTraceRequest {
    const byService = new Map<string, OtlpSpan[]>();
    for (const span of spans) {
      const service = (span.service as SpanService | undefined)?.name;
      const name = this.settings.config.serviceName || (service ? `docshelf-${service}` : "docshelf");
      const list = byService.get(name) ?? [];
      list.push(toOtlpSpan(span));
      byService.set(name, list);
    }
    const nodeID = this.broker.nodeID;
    return {
      resourceSpans: [...byService].map(([serviceName, list]) => ({
        resource: {
          attributes: [
            { key: "service.name", value: { stringValue: serviceName } },
            { key: "service.namespace", value: { stringValue: this.broker.namespace || "docshelf" } },
            { key: "service.instance.id", value: { stringValue: nodeID } },
            { key: "service.version", value: { stringValue: this.settings.version } },
            { key: "telemetry.sdk.name", value: { stringValue: "docshelf" } },
            { key: "telemetry.sdk.language", value: { stringValue: "nodejs" } },
          ],
        },
        scopeSpans: [{ scope: { name: "moleculer", version: this.broker.MOLECULER_VERSION }, spans: list }],
      })),
    };
  }

  private async send(batch: Span[]): Promise<void> {
    const { tracesUrl, headers, timeoutMs } = this.settings.config;
    const dropped = this.dropped;
    this.dropped = 0;
    try {
      // The collector is the operator's, not a user's URL; still no redirects (headers may hold an API key).
      const res = await fetch(tracesUrl, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(this.body(batch)),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) this.logger.warn(`OTLP export of ${batch.length} spans refused: HTTP ${res.status}`);
    } catch (err) {
      this.logger.warn(`OTLP export of ${batch.length} spans failed: ${(err as Error).name}: ${(err as Error).message}`);
    }
    if (dropped > 0) this.logger.warn(`${dropped} spans dropped: more than ${OTLP_MAX_QUEUE} waited for export`);
  }

  override async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    // What finished before the stop still goes out (bounded by the export timeout).
    while (this.inFlight || this.queue.length > 0) await this.flush();
  }
}
