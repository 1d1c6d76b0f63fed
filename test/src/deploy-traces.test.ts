// OpenTelemetry traces over OTLP/HTTP: processes joined by NATS send their spans to a collector stand-in on
// loopback (an HTTP server receiving POST /v1/traces, as an OpenTelemetry collector does on port 4318), and
// one API request comes back as one trace: the gateway's HTTP span at its root, the spans of the services it
// called in other processes below it, every parent link pointing at a span of the same trace. The stand-in also
// passes every request on to a real receiver, Jaeger v2 (built on the OpenTelemetry Collector; scripts/jaeger.sh),
// which must accept it and answer the same trace from its store.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";
import type { ServiceName } from "@docshelf/config";
import { createOrg, createUser, freePort, startNats, type NatsSystem } from "@docshelf/testkit";
import { startOwnNats, type OwnNats } from "./fault-nats";

/** Jaeger: JAEGER, else where scripts/jaeger.sh caches its build (.ci/run builds it). */
function jaegerBin(): string {
  if (process.env.JAEGER) return process.env.JAEGER;
  const cache = process.env.DOCSHELF_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "docshelf");
  const bin = join(cache, "jaeger-v1.76.0");
  if (existsSync(bin)) return bin;
  throw new Error("Jaeger is not installed: scripts/jaeger.sh builds it with Go (or set JAEGER)");
}

interface Jaeger {
  otlp: string;
  query: string;
  stop(): Promise<void>;
}

/** Jaeger v2 on loopback: an OTLP/HTTP receiver into its memory store, and its query API. */
async function startJaeger(): Promise<Jaeger> {
  const [otlpPort, queryPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), "docshelf-jaeger-"));
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      "service:",
      "  extensions: [jaeger_storage, jaeger_query]",
      "  pipelines:",
      "    traces: { receivers: [otlp], processors: [batch], exporters: [jaeger_storage_exporter] }",
      "  telemetry: { metrics: { level: none }, logs: { level: warn } }",
      "extensions:",
      "  jaeger_storage: { backends: { mem: { memory: { max_traces: 10000 } } } }",
      `  jaeger_query: { storage: { traces: mem }, http: { endpoint: "127.0.0.1:${queryPort}" }, grpc: { endpoint: "127.0.0.1:${grpcPort}" } }`,
      `receivers: { otlp: { protocols: { http: { endpoint: "127.0.0.1:${otlpPort}" } } } }`,
      "processors: { batch: { timeout: 100ms } }",
      "exporters: { jaeger_storage_exporter: { trace_storage: mem } }",
      "",
    ].join("\n"),
  );
  const output: string[] = [];
  const child: ChildProcess = spawn(jaegerBin(), ["--config", config], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d) => output.push(String(d)));
  child.stderr?.on("data", (d) => output.push(String(d)));
  const query = `http://127.0.0.1:${queryPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Jaeger exited with ${child.exitCode}: ${output.join("").slice(-2000)}`);
    if ((await fetch(`${query}/api/services`).catch(() => undefined))?.ok) break;
    if (Date.now() > deadline) throw new Error(`Jaeger did not answer within 30 s: ${output.join("").slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    otlp: `http://127.0.0.1:${otlpPort}`,
    query,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Jaeger's query API (/api/traces/{id}): its JSON model of a trace.
interface JaegerTrace {
  traceID: string;
  spans: Array<{ spanID: string; operationName: string; processID: string; references?: Array<{ refType: string; traceID: string; spanID: string }> }>;
  processes: Record<string, { serviceName: string }>;
}

// OTLP/HTTP JSON, as the collector receives it (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding).
type AnyValue = { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: AnyValue }>;
}
interface OtlpTraceRequest {
  resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: AnyValue }> }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
}

/** The OTLP trace id of a request id, as docs/OPERATIONS.md says: the first 16 bytes of SHA-256("trace:" + id). */
const otlpTraceId = (requestId: string): string => createHash("sha256").update(`trace:${requestId}`).digest("hex").slice(0, 32);

interface ReceivedSpan extends OtlpSpan {
  service: string;
  instance: string;
}

async function within(ms: number, what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

const attr = (span: OtlpSpan, key: string): unknown => {
  const found = span.attributes.find((a) => a.key === key);
  return found ? Object.values(found.value)[0] : undefined;
};

describe("traces over OTLP from a multi-process system", () => {
  let nats: OwnNats;
  let system: NatsSystem;
  let collector: Server;
  let jaeger: Jaeger;
  const spans: ReceivedSpan[] = [];
  const requests: Array<{ method: string; path: string; contentType: string; apiKey: string }> = [];
  /** Jaeger's answers to the requests passed on to it (status and body). */
  const passedOn: Array<Promise<{ status: number; body: string }>> = [];
  const groups: ServiceName[][] = [["gateway"], ["content"], ["identity", "orgs", "openapi", "comments", "sites", "change-requests", "git-sync", "app"]];

  beforeAll(async () => {
    jaeger = await startJaeger();
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        requests.push({ method: req.method ?? "", path: req.url ?? "", contentType: String(req.headers["content-type"]), apiKey: String(req.headers["x-api-key"]) });
        const raw = Buffer.concat(chunks);
        // The same request, as sent, to the real receiver.
        passedOn.push(
          fetch(`${jaeger.otlp}${req.url ?? "/v1/traces"}`, { method: "POST", headers: { "content-type": String(req.headers["content-type"]) }, body: raw }).then(async (r) => ({
            status: r.status,
            body: await r.text(),
          })),
        );
        const body = JSON.parse(raw.toString("utf8")) as OtlpTraceRequest;
        for (const resource of body.resourceSpans) {
          const resourceAttrs = Object.fromEntries(resource.resource.attributes.map((a) => [a.key, String(Object.values(a.value)[0])]));
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans) spans.push({ ...span, service: resourceAttrs["service.name"], instance: resourceAttrs["service.instance.id"] });
          }
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    nats = await startOwnNats();
    system = await startNats({
      natsUrl: nats.url,
      processes: groups,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=collector-key", OTEL_BSP_SCHEDULE_DELAY: "200" },
    });
  }, 90_000);

  afterAll(async () => {
    await system?.stop();
    await nats?.dispose();
    collector?.close();
    await jaeger?.stop();
  });

  test("one request is one trace: the gateway's HTTP span at the root, content's span from its own process below it", async () => {
    const owner = await createUser(system.admin);
    const org = await createOrg(owner.api);
    const requestId = `otlp-${randomBytes(6).toString("hex")}`;
    const res = await owner.api.request("GET", `/v1/orgs/${org.id}/spaces`, undefined, { "x-request-id": requestId });
    expect(res.status).toBe(200);

    const traceId = otlpTraceId(requestId);
    const ofTrace = () => spans.filter((s) => attr(s, "docshelf.request_id") === requestId);
    await within(15_000, "spans of gateway and content for the request", () => {
      const services = new Set(ofTrace().map((s) => s.service));
      return ["docshelf-gateway", "docshelf-content"].every((s) => services.has(s));
    }).catch((err: Error) => {
      const seen = spans.slice(-40).map((s) => `${s.service} ${s.name} ${String(attr(s, "docshelf.request_id"))}`);
      throw new Error(`${err.message}; ${spans.length} spans received, the last: ${seen.join(" | ")}`);
    });
    // Spans still in flight in other processes are sent at their next export.
    await new Promise((r) => setTimeout(r, 1_000));
    const trace = ofTrace();

    // Sent as the OTLP/HTTP JSON the collector expects, with the configured header.
    expect(requests.every((r) => r.method === "POST" && r.path === "/v1/traces" && r.contentType === "application/json" && r.apiKey === "collector-key")).toBe(true);
    // One trace id, in OTLP's form.
    expect(new Set(trace.map((s) => s.traceId))).toEqual(new Set([traceId]));
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    // The root is the gateway's HTTP span, named by method and path (with secrets redacted, as in its log lines).
    const roots = trace.filter((s) => !s.parentSpanId);
    expect(roots).toHaveLength(1);
    const [root] = roots;
    expect(root.service).toBe("docshelf-gateway");
    expect(root.kind).toBe(2);
    expect(root.name).toBe(`GET /v1/orgs/${org.id}/spaces`);
    // Every other span's parent is a span of this trace; the services' spans come from their own processes.
    const ids = new Set(trace.map((s) => s.spanId));
    expect(trace.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
    const content = trace.find((s) => s.service === "docshelf-content")!;
    expect(content.instance).not.toBe(root.instance);
    // content's span hangs, through its parents, from the gateway's root.
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    let up: ReceivedSpan | undefined = content;
    for (let hops = 0; up?.parentSpanId && hops < 20; hops++) up = byId.get(up.parentSpanId);
    expect(up).toBe(root);
    for (const span of trace) {
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    // Spans carry no request data: no token, no body, no full URL with its ids.
    const text = JSON.stringify(trace);
    expect(text).not.toContain(owner.token);
    expect(text).not.toContain(system.adminToken);
  }, 60_000);
  test("a real OpenTelemetry receiver (Jaeger) accepts every export and answers the request's trace from its store", async () => {
    const owner = await createUser(system.admin);
    const org = await createOrg(owner.api);
    const requestId = `jaeger-${randomBytes(6).toString("hex")}`;
    expect((await owner.api.request("GET", `/v1/orgs/${org.id}/spaces`, undefined, { "x-request-id": requestId })).status).toBe(200);
    const traceId = otlpTraceId(requestId);

    let trace: JaegerTrace | undefined;
    const services = (t: JaegerTrace): Set<string> => new Set(t.spans.map((s) => t.processes[s.processID]?.serviceName));
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${jaeger.query}/api/traces/${traceId}`);
      if (res.ok) {
        const found = ((await res.json()) as { data: JaegerTrace[] }).data[0];
        if (found && ["docshelf-gateway", "docshelf-content"].every((name) => services(found).has(name))) {
          trace = found;
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    // Every export so far was accepted as it was sent (OTLP/HTTP answers 200; a partial success names the spans it refused).
    const answers = await Promise.all(passedOn);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status !== 200 || /rejected/i.test(a.body))).toEqual([]);
    expect(trace).toBeDefined();
    const found = trace!;
    expect(found.traceID).toBe(traceId);
    // One root, the gateway's HTTP span; every reference points at a span of the same trace.
    const ids = new Set(found.spans.map((s) => s.spanID));
    const roots = found.spans.filter((s) => !(s.references ?? []).some((r) => r.refType === "CHILD_OF"));
    expect(roots.map((s) => [found.processes[s.processID].serviceName, s.operationName])).toEqual([["docshelf-gateway", `GET /v1/orgs/${org.id}/spaces`]]);
    for (const span of found.spans) {
      for (const ref of span.references ?? []) {
        expect(ref.traceID).toBe(traceId);
        expect(ids.has(ref.spanID)).toBe(true);
      }
    }
  }, 60_000);
});
