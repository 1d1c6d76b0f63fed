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
