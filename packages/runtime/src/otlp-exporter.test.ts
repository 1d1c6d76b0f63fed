import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ServiceBroker, type Context } from "moleculer";
import { OtlpTraceExporter, otlpSpanId, otlpTraceId, type OtlpTraceRequest } from "./otlp-exporter";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: OtlpTraceRequest;
}

async function collector(status = 200): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpTraceRequest });
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, received };
}

function broker(url: string, serviceName = ""): ServiceBroker {
  const exporter = new OtlpTraceExporter({ config: { tracesUrl: url, headers: { "x-api-key": "k1" }, serviceName, timeoutMs: 2000, scheduleDelayMs: 60_000 }, version: "9.9.9" });
  const b = new ServiceBroker({ logger: false, nodeID: "node-1", tracing: { enabled: true, sampling: { rate: 1 }, exporter: [exporter as never] } });
  b.createService({ name: "outer", actions: { run: (ctx: Context) => ctx.call("inner.run") } });
  b.createService({
    name: "inner",
    actions: {
      run: () => "ok",
      fail: () => {
        throw new Error("broken");
      },
    },
  });
  return b;
}

describe("OTLP/HTTP JSON trace exporter", () => {
  test("a call and its nested call arrive on stop as one trace, the inner span's parent the outer one, with the configured headers", async () => {
    const c = await collector();
    const b = broker(c.url);
    await b.start();
    await b.call("outer.run", {}, { requestID: "req-42" });
    await b.stop();
    c.server.close();
    expect(c.received).toHaveLength(1);
    const { path, headers, body } = c.received[0];
    expect(path).toBe("/v1/traces");
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-api-key"]).toBe("k1");
    const resources = body.resourceSpans.map((r) => Object.fromEntries(r.resource.attributes.map((a) => [a.key, Object.values(a.value)[0]])));
    expect(resources.map((r) => r["service.name"]).sort()).toEqual(["docshelf-inner", "docshelf-outer"]);
    expect(resources[0]).toMatchObject({ "service.instance.id": "node-1", "service.version": "9.9.9" });
    const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const outer = spans.find((s) => s.name === "action 'outer.run'")!;
    const inner = spans.find((s) => s.name === "action 'inner.run'")!;
    expect(outer.traceId).toBe(otlpTraceId("req-42"));
    expect(outer.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(inner.traceId).toBe(outer.traceId);
    expect(inner.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(inner.parentSpanId).toBe(outer.spanId);
    expect(outer.parentSpanId).toBeUndefined();
    expect(outer.kind).toBe(2);
    // Moleculer starts each span at Date.now() (whole milliseconds) and adds the elapsed high-resolution time, so
    // two spans' ends compare only to within a millisecond.
    expect(BigInt(outer.endTimeUnixNano) + 1_000_000n).toBeGreaterThanOrEqual(BigInt(inner.endTimeUnixNano));
    expect(BigInt(inner.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(outer.startTimeUnixNano));
    expect(outer.attributes).toContainEqual({ key: "docshelf.request_id", value: { stringValue: "req-42" } });
    expect(outer.attributes).toContainEqual({ key: "action.name", value: { stringValue: "outer.run" } });
  });

  test("a failed action's span has the error status; OTEL_SERVICE_NAME names every span's service", async () => {
    const c = await collector();
    const b = broker(c.url, "docs-prod");
    await b.start();
    await expect(b.call("inner.fail")).rejects.toThrow("broken");
    await b.stop();
    c.server.close();
    const [resource] = c.received[0].body.resourceSpans;
    expect(resource.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "docs-prod" } });
    const span = resource.scopeSpans[0].spans[0];
    expect(span.status).toEqual({ code: 2, message: "broken" });
    expect(span.attributes).toContainEqual({ key: "exception.type", value: { stringValue: "Error" } });
  });

  test("a collector that refuses, or nobody listening, costs the spans and nothing else", async () => {
    const c = await collector(503);
    const b = broker(c.url);
    await b.start();
    await expect(b.call("outer.run")).resolves.toBe("ok");
    await b.stop();
    c.server.close();
    expect(c.received).toHaveLength(1);
    const gone = broker("http://127.0.0.1:1/v1/traces");
    await gone.start();
    await expect(gone.call("outer.run")).resolves.toBe("ok");
    await gone.stop(); // ends although the export failed
  });

  test("ids are the same in every process for the same Moleculer id, and differ between ids", () => {
    expect(otlpTraceId("a")).toBe(otlpTraceId("a"));
    expect(otlpTraceId("a")).not.toBe(otlpTraceId("b"));
    expect(otlpSpanId("a")).toHaveLength(16);
  });
});
