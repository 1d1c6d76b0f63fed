// Which IP addresses a server-side fetch may connect to: public unicast only.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Decides whether a resolved or literal IP address may be connected to. */
export type AddressPolicy = (address: string) => boolean;

/** IPv6 global unicast (2000::/3); everything else in IPv6 is local, special or unassigned. */
const [globalUnicastV6, globalUnicastV6Bits] = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

/**
 * True for public unicast addresses only. Refuses loopback, private (RFC 1918), link-local,
 * unique-local, multicast, broadcast, unspecified, CGNAT and documentation/benchmark/reserved
 * ranges. An IPv4-mapped IPv6 address is judged by the IPv4 address it carries; the other IPv6
 * forms that embed an IPv4 address (IPv4-compatible, NAT64, 6to4, Teredo) are refused outright.
 */
export const isPublicAddress: AddressPolicy = (address) => {
  // Only canonical text: ipaddr.js also reads forms like "0x7f.1" that other code may read differently.
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  return v6.range() === "unicast" && v6.match(globalUnicastV6, globalUnicastV6Bits);
};

/** Canonical text of an address, so "::ffff:7f00:1" and "::ffff:127.0.0.1" compare equal. */
export function normalizeAddress(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.parse(address).toNormalizedString() : address;
}

/**
 * The text an address is matched against an allowance in: an IPv4-mapped IPv6 address as the IPv4
 * address it carries, other IPv6 addresses compressed and lower case ("0:0::1" is "::1").
 */
export function canonicalAddress(address: string): string {
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return address.toLowerCase();
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  return parsed.toString();
}

/** The port a URL connects to: its own, else its scheme's. */
export function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** `address:port` with brackets around an IPv6 address, in canonical text. */
function targetOf(address: string, port: string): string {
  const a = canonicalAddress(address);
  return a.includes(":") ? `[${a}]:${port}` : `${a}:${port}`;
}

/** An allowance entry (`127.0.0.1:8081`, `[::1]:9000`) in the text targetOf gives. */
function canonicalTarget(entry: string): string {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(entry.trim());
  return m ? targetOf(m[1], m[2]) : entry.trim().toLowerCase();
}

/**
 * The address policy of one request to `url`: public addresses (isPublicAddress), plus exactly the
 * allowed private `IP:port` pairs at this URL's port. The allowance is for tests' loopback servers
 * (OPENAPI_FETCH_ALLOW_PRIVATE, CONTENT_IMPORT_ALLOW_PRIVATE, GIT_SYNC_ALLOW_PRIVATE); without one
 * this is isPublicAddress itself. Addresses and entries are compared in canonical text, so an
 * IPv4-mapped `::ffff:127.0.0.1` matches the entry `127.0.0.1:port` and nothing else.
 */
export function addressPolicyFor(url: URL, allowedPrivateTargets: readonly string[]): AddressPolicy {
  if (allowedPrivateTargets.length === 0) return isPublicAddress;
  const port = portOf(url);
  const allowed = new Set(allowedPrivateTargets.map(canonicalTarget));
  return (address) => isPublicAddress(address) || (isIP(address) !== 0 && allowed.has(targetOf(address, port)));
}
