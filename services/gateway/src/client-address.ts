// Who is calling: the socket's address, or the forwarded one when the socket is a proxy we trust.
import { BlockList, isIP } from "node:net";

/** Strips the IPv4-mapped IPv6 prefix so "::ffff:10.0.0.1" and "10.0.0.1" are one client. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed.toLowerCase();
}

export interface TrustedProxies {
  has(address: string): boolean;
}

/** Builds the trust list from addresses and CIDRs (already validated by the configuration). */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return {
    has(address: string): boolean {
      const normalized = normalizeAddress(address);
      const family = isIP(normalized);
      return family !== 0 && list.check(normalized, family === 6 ? "ipv6" : "ipv4");
    },
  };
}

/**
 * The client's address. X-Forwarded-For is read only when the socket peer is a trusted proxy, and
 * then from the right: every hop a trusted proxy appended is skipped, and the first untrusted one is
 * the client (anything left of it is whatever the client chose to send, so it is never believed).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  const peer = normalizeAddress(socketAddress ?? "unknown");
  if (!forwardedFor || !trusted.has(peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map(normalizeAddress)
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) return peer; // a malformed hop: believe only what we saw ourselves
    if (!trusted.has(hops[i])) return hops[i];
  }
  // Every hop is a trusted proxy: the left-most one is as close to the client as we can tell.
  return hops[0] ?? peer;
}
