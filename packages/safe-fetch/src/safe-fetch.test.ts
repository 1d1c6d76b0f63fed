import type http from "node:http";
import { BadRequestError } from "@docshelf/errors";
import { listen, type Listener } from "./__tests__/listener";
import type { ResolvedAddress, Resolver } from "./resolve";
import { SafeFetchError, type RefusalReason } from "./errors";
import { safeFetch, type SafeFetchOptions } from "./safe-fetch";

/** The test-only allowance: exactly the loopback address our listeners use, nothing else. */
const onlyTestListener = (address: string) => address === "127.0.0.1";
const resolveTo =
  (...addresses: string[]): Resolver & jest.Mock =>
    jest.fn(async () => addresses.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 })));

const listeners: Listener[] = [];
async function server(handler: http.RequestListener, host?: string, port?: number): Promise<Listener> {
  const l = await listen(handler, host, port);
  listeners.push(l);
  return l;
}
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

const hello: http.RequestListener = (_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end("<h1>hello</h1>");
};

async function refusal(url: string, options: SafeFetchOptions): Promise<SafeFetchError> {
  const err = await safeFetch(url, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}
function expectReason(err: SafeFetchError, reason: RefusalReason) {
  expect(err.reason).toBe(reason);
  expect(err.data).toEqual({ reason });
}

describe("safeFetch happy path", () => {
  it("fetches through the test allowance, connecting to the checked address with the original Host", async () => {
    const site = await server(hello);
    const resolver = resolveTo("127.0.0.1");
    const res = await safeFetch(`http://docs.test:${site.port}/page?x=1`, { resolver, isAllowedAddress: onlyTestListener, accept: "text/html" });

    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("<h1>hello</h1>");
    expect(res.contentType).toBe("text/html");
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.finalUrl).toBe(`http://docs.test:${site.port}/page?x=1`);
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(resolver).toHaveBeenCalledWith("docs.test");
    expect(site.connections()).toBe(1);
    expect(site.requests[0].headers.host).toBe(`docs.test:${site.port}`);
    expect(site.requests[0].headers.accept).toBe("text/html");
    expect(site.requests[0].url).toBe("/page?x=1");
  });

  it("returns non-2xx answers instead of throwing", async () => {
    const site = await server((_req, res) => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("nope");
    });
    const res = await safeFetch(`${site.origin}/missing`, { isAllowedAddress: onlyTestListener });
    expect(res.status).toBe(404);
    expect(res.body.toString()).toBe("nope");
  });

  it("sends URL credentials as basic auth but never returns them in finalUrl", async () => {
    const site = await server(hello);
    const res = await safeFetch(`http://ada:s3cret@127.0.0.1:${site.port}/`, { isAllowedAddress: onlyTestListener });
    expect(site.requests[0].headers.authorization).toBe(`Basic ${Buffer.from("ada:s3cret").toString("base64")}`);
    expect(res.finalUrl).toBe(`http://127.0.0.1:${site.port}/`);
  });

  it("accepts a body of exactly maxBytes", async () => {
    const site = await server((_req, res) => res.end("x".repeat(100)));
    const res = await safeFetch(site.origin, { isAllowedAddress: onlyTestListener, maxBytes: 100 });
    expect(res.body.length).toBe(100);
  });
});

describe("safeFetch POST (an OpenID Connect token request)", () => {
  it("sends the body and headers to the checked address, and never follows a redirect", async () => {
    let received = "";
    const site = await server((req, res) => {
      req.on("data", (c: Buffer) => (received += c.toString()));
      req.on("end", () => {
        res.writeHead(302, { location: "/elsewhere" });
        res.end();
      });
    });
    const res = await safeFetch(`${site.origin}/token`, { isAllowedAddress: onlyTestListener, method: "POST", body: "grant_type=authorization_code&code=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(302);
    expect(received).toBe("grant_type=authorization_code&code=x");
    expect(site.requests).toHaveLength(1);
    expect(site.requests[0].method).toBe("POST");
    expect(site.requests[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(site.requests[0].headers["content-length"]).toBe("36");
  });

  it("refuses a private address for a POST too", async () => {
    expectReason(await refusal("http://10.0.0.1/token", { method: "POST", body: "x=1" }), "private-address");
  });
});

describe("safeFetch refuses private addresses without connecting", () => {
  it("refuses a literal loopback URL under the default policy", async () => {
    const site = await server(hello);
    const err = await refusal(`${site.origin}/`, {});
    expectReason(err, "private-address");
    expect(site.connections()).toBe(0);
  });

  it("refuses a host name whose DNS answer is private", async () => {
    const site = await server(hello);
    const err = await refusal(`http://internal.test:${site.port}/`, { resolver: resolveTo("127.0.0.1") });
    expectReason(err, "private-address");
    expect(err.message).toContain("internal.test");
    expect(site.connections()).toBe(0);
  });

  it("refuses when any one address of the DNS answer is refused", async () => {
    const site = await server(hello);
    const err = await refusal(`http://mixed.test:${site.port}/`, {
      resolver: resolveTo("127.0.0.1", "127.0.0.2"),
      isAllowedAddress: onlyTestListener,
    });
    expectReason(err, "private-address");
    expect(site.connections()).toBe(0);
  });

  it("refuses an IPv4-mapped IPv6 literal of loopback", async () => {
    const site = await server(hello);
    const err = await refusal(`http://[::ffff:127.0.0.1]:${site.port}/`, {});
    expectReason(err, "private-address");
    expect(site.connections()).toBe(0);
  });

  it("refuses the numeric forms URL parsing turns into loopback", async () => {
    const site = await server(hello);
    for (const host of ["2130706433", "0x7f.1", "127.1"]) {
      expectReason(await refusal(`http://${host}:${site.port}/`, {}), "private-address");
    }
    expect(site.connections()).toBe(0);
  });

  it("never echoes URL credentials in the refusal message", async () => {
    const site = await server(hello);
    const err = await refusal(`http://ada:s3cret@127.0.0.1:${site.port}/`, {});
    expect(err.message).not.toContain("s3cret");
    expect(err.message).not.toContain("ada");
    expect(site.connections()).toBe(0);
  });

  it("throws a BadRequestError so the API answers 400", async () => {
    const err = await refusal("http://127.0.0.1:1/", {});
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.code).toBe(400);
    expect(err.type).toBe("BAD_REQUEST");
  });
});

describe("safeFetch refuses bad URLs and schemes", () => {
  it.each(["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1:70/", "data:text/plain,hi", "javascript:alert(1)"])(
    "refuses %s with reason scheme",
    async (url) => {
      expectReason(await refusal(url, { isAllowedAddress: onlyTestListener }), "scheme");
    },
  );

  it.each(["not a url", "/relative/path", ""])("refuses %j with reason bad-url", async (url) => {
    expectReason(await refusal(url, {}), "bad-url");
  });
});

describe("safeFetch redirects", () => {
  it("follows a redirect and reports the final URL", async () => {
    const site = await server((req, res) => {
      if (req.url === "/old") {
        res.writeHead(301, { location: "/new" });
        res.end();
      } else hello(req, res);
    });
    const res = await safeFetch(`${site.origin}/old`, { isAllowedAddress: onlyTestListener });
    expect(res.status).toBe(200);
    expect(res.finalUrl).toBe(`${site.origin}/new`);
  });

  it("re-checks every hop: a redirect to a private address is refused before connecting to it", async () => {
    const inner = await server(hello, "127.0.0.2");
    const outer = await server((_req, res) => {
      res.writeHead(302, { location: `${inner.origin}/admin` });
      res.end();
    });
    const err = await refusal(`${outer.origin}/`, { isAllowedAddress: onlyTestListener });
    expectReason(err, "private-address");
    expect(outer.connections()).toBe(1);
    expect(inner.connections()).toBe(0);
  });

  it("re-resolves a redirect's host name and refuses a private answer", async () => {
    const outer = await server((_req, res) => {
      res.writeHead(307, { location: `http://metadata.test:${outer.port}/` });
      res.end();
    });
    const resolver = jest.fn(async (host: string): Promise<ResolvedAddress[]> => [{ address: host === "docs.test" ? "127.0.0.1" : "127.0.0.2", family: 4 }]);
    const err = await refusal(`http://docs.test:${outer.port}/`, { resolver, isAllowedAddress: onlyTestListener });
    expectReason(err, "private-address");
    expect(resolver.mock.calls.map((c) => c[0])).toEqual(["docs.test", "metadata.test"]);
    expect(outer.connections()).toBe(1);
  });

  it("refuses a redirect to a non-http scheme", async () => {
    const site = await server((_req, res) => {
      res.writeHead(302, { location: "file:///etc/passwd" });
      res.end();
    });
    expectReason(await refusal(site.origin, { isAllowedAddress: onlyTestListener }), "scheme");
  });

  it("stops after maxRedirects", async () => {
    let n = 0;
    const site = await server((_req, res) => {
      res.writeHead(302, { location: `/loop/${++n}` });
      res.end();
    });
    const err = await refusal(site.origin, { isAllowedAddress: onlyTestListener, maxRedirects: 2 });
    expectReason(err, "too-many-redirects");
    expect(site.requests.map((r) => r.url)).toEqual(["/", "/loop/1", "/loop/2"]);
  });

  it("returns a redirect as it is when asked to handle redirects manually", async () => {
    const inner = await server(hello, "127.0.0.2");
    const site = await server((_req, res) => {
      res.writeHead(302, { location: `${inner.origin}/elsewhere` });
      res.end("ignored body");
    });
    const res = await safeFetch(`${site.origin}/start`, { isAllowedAddress: onlyTestListener, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${inner.origin}/elsewhere`);
    expect(res.body.length).toBe(0);
    expect(res.finalUrl).toBe(`${site.origin}/start`);
    expect(inner.connections()).toBe(0);
  });

  it("drops credentials when a redirect leaves the origin", async () => {
    const second = await server(hello);
    const first = await server((_req, res) => {
      res.writeHead(302, { location: `http://other.test:${second.port}/` });
      res.end();
    });
    const resolver = resolveTo("127.0.0.1");
    await safeFetch(`http://ada:s3cret@docs.test:${first.port}/`, { resolver, isAllowedAddress: onlyTestListener });
    expect(first.requests[0].headers.authorization).toBeDefined();
    expect(second.requests[0].headers.authorization).toBeUndefined();
  });
});

describe("safeFetch size cap", () => {
  it("refuses a body whose Content-Length exceeds maxBytes without reading it", async () => {
    const site = await server((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.end("y".repeat(1000));
    });
    expectReason(await refusal(site.origin, { isAllowedAddress: onlyTestListener, maxBytes: 999 }), "too-large");
  });

  it("cuts off a body without Content-Length once it passes maxBytes", async () => {
    let written = 0;
    let stopped = false;
    const site = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }); // chunked, no length
      const pump = () => {
        while (!stopped && written < 50_000_000) {
          written += 16_384;
          if (!res.write(Buffer.alloc(16_384, 120))) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (stopped = true));
      pump();
    });
    const err = await refusal(site.origin, { isAllowedAddress: onlyTestListener, maxBytes: 100_000 });
    expectReason(err, "too-large");
    expect(written).toBeLessThan(50_000_000);
  });
});

describe("safeFetch time limit", () => {
  it("times out when the server never answers", async () => {
    const site = await server(() => undefined);
    const started = Date.now();
    const err = await refusal(site.origin, { isAllowedAddress: onlyTestListener, timeoutMs: 150 });
    expectReason(err, "timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("times out when the body trickles in too slowly", async () => {
    const site = await server((_req, res) => {
      res.writeHead(200);
      res.write("first byte");
    });
    expectReason(await refusal(site.origin, { isAllowedAddress: onlyTestListener, timeoutMs: 150 }), "timeout");
  });

  it("times out when DNS never answers", async () => {
    const resolver: Resolver = () => new Promise<ResolvedAddress[]>(() => undefined);
    expectReason(await refusal("http://slow-dns.test/", { resolver, timeoutMs: 100 }), "timeout");
  });
});

describe("safeFetch failures", () => {
  it("reports a refused connection as fetch-failed", async () => {
    const site = await server(hello);
    const port = site.port;
    await site.close();
    listeners.length = 0;
    const err = await refusal(`http://127.0.0.1:${port}/`, { isAllowedAddress: onlyTestListener });
    expectReason(err, "fetch-failed");
  });

  it("reports a DNS failure as fetch-failed", async () => {
    const resolver: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expectReason(await refusal("http://nowhere.test/", { resolver }), "fetch-failed");
  });
});
