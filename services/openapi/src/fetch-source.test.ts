import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addressPolicyFor } from "@docshelf/safe-fetch";
import { fetchSource, type FetchLimits } from "./fetch-source";
import { ProcessingFailure } from "./processing-failure";

interface Listener {
  server: Server;
  port: number;
  connections: number;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Listener> {
  const server = createServer(handler);
  const listener: Listener = { server, port: 0, connections: 0 };
  server.on("connection", () => listener.connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listener.port = (server.address() as AddressInfo).port;
  return listener;
}

let docs: Listener;
let internal: Listener;
const limitsFor = (allowed: string[], over: Partial<FetchLimits> = {}): FetchLimits => ({ timeoutMs: 2000, maxBytes: 1024, allowedPrivateTargets: allowed, ...over });

beforeAll(async () => {
  internal = await listen((_req, res) => res.end("secret"));
  docs = await listen((req, res) => {
    if (req.url === "/spec.json") return res.end('{"openapi":"3.1.0"}');
    if (req.url === "/hop") return res.writeHead(302, { location: "/spec.json" }).end();
    if (req.url === "/to-internal") return res.writeHead(302, { location: `http://127.0.0.1:${internal.port}/` }).end();
    if (req.url === "/huge") return res.end("x".repeat(4096));
    if (req.url === "/slow") return; // never answers
    res.writeHead(404).end();
  });
});

afterAll(async () => {
  for (const l of [docs, internal]) {
    l.server.closeAllConnections();
    await new Promise((resolve) => l.server.close(resolve));
  }
});

async function failureOf(url: string, limits: FetchLimits): Promise<ProcessingFailure> {
  const err = await fetchSource(url, limits).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProcessingFailure);
  return err as ProcessingFailure;
}

describe("the address policy (safe-fetch's addressPolicyFor)", () => {
  test("allows public addresses and exactly the listed private address and port", () => {
    const policy = addressPolicyFor(new URL("http://127.0.0.1:8081/x"), ["127.0.0.1:8081"]);
    expect(policy("127.0.0.1")).toBe(true);
    expect(policy("8.8.8.8")).toBe(true);
    expect(policy("10.0.0.1")).toBe(false);
    expect(addressPolicyFor(new URL("http://127.0.0.1:8082/x"), ["127.0.0.1:8081"])("127.0.0.1")).toBe(false);
    expect(addressPolicyFor(new URL("http://127.0.0.1/x"), [])("127.0.0.1")).toBe(false);
  });
});

describe("fetchSource", () => {
  test.each(["[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "[::1]", "0.0.0.0", "169.254.169.254", "[fc00::1]", "[fdff::1]", "100.64.0.1"])(
    "refuses a spec URL on %s as private, even with an allowance for another port",
    async (host) => {
      const failure = await failureOf(`http://${host}:${docs.port}/spec.json`, limitsFor([`127.0.0.1:${docs.port + 1}`]));
      expect(failure.code).toBe("FETCH_ERROR");
      expect(failure.message).toMatch(/private/);
    },
  );

  test("fetches an allowed test server, following a redirect on the same host and port", async () => {
    const fetched = await fetchSource(`http://127.0.0.1:${docs.port}/hop`, limitsFor([`127.0.0.1:${docs.port}`]));
    expect(fetched).toEqual({ text: '{"openapi":"3.1.0"}', finalUrl: `http://127.0.0.1:${docs.port}/spec.json` });
  });

  test("without an allowance a loopback URL is a FETCH_ERROR and the server sees no connection", async () => {
    const before = docs.connections;
    expect((await failureOf(`http://127.0.0.1:${docs.port}/spec.json`, limitsFor([]))).code).toBe("FETCH_ERROR");
    expect(docs.connections).toBe(before);
  });

  test("a redirect to a private address:port outside the allowance is refused before connecting", async () => {
    const before = internal.connections;
    const failure = await failureOf(`http://127.0.0.1:${docs.port}/to-internal`, limitsFor([`127.0.0.1:${docs.port}`]));
    expect(failure.code).toBe("FETCH_ERROR");
    expect(failure.message).toMatch(/private/);
    expect(internal.connections).toBe(before);
  });

  test("a server slower than the timeout is a FETCH_TIMEOUT", async () => {
    expect((await failureOf(`http://127.0.0.1:${docs.port}/slow`, limitsFor([`127.0.0.1:${docs.port}`], { timeoutMs: 200 }))).code).toBe("FETCH_TIMEOUT");
  });

  test("a body over the size cap and an HTTP error status are FETCH_ERRORs", async () => {
    const limits = limitsFor([`127.0.0.1:${docs.port}`]);
    expect((await failureOf(`http://127.0.0.1:${docs.port}/huge`, limits)).code).toBe("FETCH_ERROR");
    const missing = await failureOf(`http://127.0.0.1:${docs.port}/missing`, limits);
    expect(missing.code).toBe("FETCH_ERROR");
    expect(missing.message).toContain("404");
  });
});
