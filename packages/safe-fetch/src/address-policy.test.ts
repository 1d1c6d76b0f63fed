import { addressPolicyFor, canonicalAddress, isPublicAddress } from "./address-policy";

describe("isPublicAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback range"],
    ["10.1.2.3", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["172.31.255.254", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "CGNAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["240.0.0.1", "reserved"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["fc00::1", "IPv6 unique-local"],
    ["fd12:3456::1", "IPv6 unique-local"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["64:ff9b::a00:1", "NAT64 of a private address"],
    ["2002:7f00:1::", "6to4 of loopback"],
    ["2001:db8::1", "IPv6 documentation"],
    ["not-an-ip", "not an address"],
    ["0x7f.1", "a non-canonical IPv4 form"],
    ["010.0.0.1", "an octal-looking IPv4 form"],
  ])("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"])(
    "allows the public address %s",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("canonicalAddress", () => {
  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:7f00:1", "127.0.0.1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["FD00::1", "fd00::1"],
    ["10.0.0.1", "10.0.0.1"],
  ])("%s is %s", (address, canonical) => {
    expect(canonicalAddress(address)).toBe(canonical);
  });
});

describe("addressPolicyFor", () => {
  const url = new URL("http://127.0.0.1:8081/");

  test("without an allowance it is isPublicAddress itself", () => {
    expect(addressPolicyFor(url, [])).toBe(isPublicAddress);
  });

  test("an allowance admits exactly its address and port, in any spelling of the address", () => {
    const allowed = ["127.0.0.1:8081", "[::1]:9000"];
    expect(addressPolicyFor(url, allowed)("127.0.0.1")).toBe(true);
    expect(addressPolicyFor(url, allowed)("::ffff:127.0.0.1")).toBe(true);
    expect(addressPolicyFor(new URL("http://[::1]:9000/"), allowed)("0:0:0:0:0:0:0:1")).toBe(true);
    expect(addressPolicyFor(new URL("http://127.0.0.1:8082/"), allowed)("127.0.0.1")).toBe(false);
    expect(addressPolicyFor(url, allowed)("127.0.0.2")).toBe(false);
    expect(addressPolicyFor(new URL("http://127.0.0.1/"), allowed)("127.0.0.1")).toBe(false);
    expect(addressPolicyFor(new URL("http://[::1]:8081/"), allowed)("::1")).toBe(false);
    expect(addressPolicyFor(url, allowed)("8.8.8.8")).toBe(true);
  });

  // The addresses every fetching path (git-sync remotes, website import, OpenAPI specs) must refuse.
  test.each(["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::1", "0.0.0.0", "169.254.169.254", "fc00::1", "fdff:ffff::1", "100.64.0.1", "100.127.255.254"])(
    "%s is refused, with or without an allowance for another target",
    (address) => {
      expect(addressPolicyFor(url, [])(address)).toBe(false);
      expect(addressPolicyFor(url, ["127.0.0.2:8081"])(address)).toBe(false);
    },
  );
});
