import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { ServiceBroker } from "moleculer";
import { HTTP_DURATION, HTTP_REQUESTS, httpMetrics, routeLabel } from "./http-metrics";

const req = (url: string, alias?: string) => ({ url, ...(alias ? { $alias: { fullPath: alias } } : {}) }) as IncomingMessage;

test("a request's route label is its API route pattern or the kind of page, never its URL", () => {
  expect(routeLabel(req("/v1/spaces/abc123?x=1", "/v1/spaces/:spaceId"))).toBe("/v1/spaces/:spaceId");
  expect(routeLabel(req("/sites/handbook/secret-page?share=k"))).toBe("sites");
  expect(routeLabel(req("/app/sign-in"))).toBe("app");
  expect(routeLabel(req("/s/space1/~/changes/2"))).toBe("app");
  expect(routeLabel(req("/sites/handbook/~gitbook/mcp"))).toBe("sites");
  expect(routeLabel(req("/mcp"))).toBe("mcp");
  expect(routeLabel(req("/v1/nothing/here"))).toBe("v1 (no route)");
  expect(routeLabel(req("/some/page/of/a/site/on/its/own/host"))).toBe("other");
});

test("each answered request is counted by route, method and status, and timed", async () => {
  const broker = new ServiceBroker({ logger: false, metrics: { enabled: true } });
  await broker.start();
  const observe = httpMetrics(broker);
  expect(observe).toBeDefined();
  const server = createServer((request, response) => {
    observe?.(request, response);
    if (request.url?.startsWith("/v1/spaces/")) (request as IncomingMessage & { $alias?: { fullPath: string } }).$alias = { fullPath: "/v1/spaces/:spaceId" };
    response.statusCode = request.url === "/v1/spaces/missing" ? 404 : 200;
    response.end("x");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const path of ["/v1/spaces/a", "/v1/spaces/b", "/v1/spaces/missing", "/sites/x/y"]) await (await fetch(`${base}${path}`)).text();
    await new Promise((r) => setTimeout(r, 50));
    const counts = broker.metrics.getMetric(HTTP_REQUESTS)!.snapshot() as Array<{ labels: Record<string, string>; value: number }>;
    const count = (route: string, status: string) => counts.find((c) => c.labels.route === route && c.labels.status === status)?.value;
    expect(count("/v1/spaces/:spaceId", "200")).toBe(2);
    expect(count("/v1/spaces/:spaceId", "404")).toBe(1);
    expect(count("sites", "200")).toBe(1);
    const timed = broker.metrics.getMetric(HTTP_DURATION)!.snapshot() as Array<{ labels: Record<string, string>; count: number }>;
    expect(timed.find((t) => t.labels.route === "/v1/spaces/:spaceId")?.count).toBe(3);
  } finally {
    server.close();
    await broker.stop();
  }
});

test("with metrics off nothing is registered", () => {
  expect(httpMetrics(new ServiceBroker({ logger: false }))).toBeUndefined();
});
