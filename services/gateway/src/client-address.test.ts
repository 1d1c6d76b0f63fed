// Resolving the client address with and without trusted proxies.
import { clientAddress, normalizeAddress, trustedProxies } from "./client-address";

describe("clientAddress", () => {
  const none = trustedProxies([]);
  const local = trustedProxies(["127.0.0.1"]);
  const chain = trustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);

  test("without trusted proxies X-Forwarded-For is ignored and the socket address is the client", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", none)).toBe("203.0.113.9");
  });

  test("a forwarded header from an untrusted peer is ignored, so spoofing it changes nothing", () => {
    expect(clientAddress("203.0.113.9", "127.0.0.1", local)).toBe("203.0.113.9");
  });

  test("behind a trusted proxy the right-most forwarded address is the client", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.7", local)).toBe("198.51.100.7");
    expect(clientAddress("::ffff:127.0.0.1", "198.51.100.7", local)).toBe("198.51.100.7");
  });

  test("a client cannot choose its address by prepending hops: the right-most untrusted one wins", () => {
    expect(clientAddress("127.0.0.1", "1.2.3.4, 198.51.100.7", local)).toBe("198.51.100.7");
    expect(clientAddress("10.1.2.3", "1.2.3.4, 198.51.100.7, 10.9.9.9", chain)).toBe("198.51.100.7");
    expect(clientAddress("10.1.2.3", ["1.2.3.4", "198.51.100.7, fd00::1"], chain)).toBe("198.51.100.7");
  });

  test("a malformed hop makes the gateway fall back to the socket address", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.7, not-an-ip", local)).toBe("127.0.0.1");
  });

  test("when every hop is trusted the left-most is taken", () => {
    expect(clientAddress("10.0.0.1", "10.0.0.2, 10.0.0.3", chain)).toBe("10.0.0.2");
  });

  test("IPv4-mapped IPv6 addresses and case are normalized", () => {
    expect(normalizeAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("FD00::1")).toBe("fd00::1");
  });
});
