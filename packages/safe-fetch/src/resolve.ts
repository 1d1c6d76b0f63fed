// Turns a URL's host into the one checked address the request will be pinned to.
import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import type { AddressPolicy } from "./address-policy";
import { SafeFetchError, describeHost } from "./errors";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address its DNS answer holds. Injectable for tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The URL's host name without the brackets WHATWG URLs keep around IPv6 literals. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Resolves the URL's host and checks EVERY address of the answer against the policy: one refused
 * address refuses the whole host, so a mixed answer can't smuggle a private address in. Returns
 * the first address, which the connection is then pinned to.
 */
export async function resolveChecked(url: URL, resolver: Resolver, isAllowed: AddressPolicy): Promise<ResolvedAddress> {
  const hostname = bareHostname(url);
  const literal = isIP(hostname);
  let answers: ResolvedAddress[];
  if (literal) {
    answers = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      answers = await resolver(hostname);
    } catch {
      throw new SafeFetchError("fetch-failed", `The host ${describeHost(url)} could not be resolved.`);
    }
  }
  if (answers.length === 0) throw new SafeFetchError("fetch-failed", `The host ${describeHost(url)} could not be resolved.`);
  if (!answers.every((a) => isAllowed(a.address))) {
    throw new SafeFetchError(
      "private-address",
      `The host ${describeHost(url)} points to a private or reserved network address, which may not be fetched.`,
    );
  }
  return answers[0];
}
