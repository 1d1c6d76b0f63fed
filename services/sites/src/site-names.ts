// Which basenames and hostnames a site may claim: none that could take over another site's URL, the
// instance's own API, or an address of the machine (docs/SECURITY.md, "Sites, hostnames and the gateway").
import { isIP } from "node:net";

/**
 * A basename is a lower-case slug: letters, digits and inner hyphens. Site ids are 20 base62 characters
 * (packages/store/src/ids.ts), so a basename of 20 letters and digits alone could one day equal an id,
 * and is refused; every other slug can never be an id.
 */
export const BASENAME_PATTERN = /^(?![a-z0-9]{20}$)[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

/** Why a site may not claim `hostname` (already lower case and of the interface's pattern), or undefined. */
export function hostnameRefusal(hostname: string, publicUrl: string, allowedSuffixes: readonly string[]): string | undefined {
  const host = hostname.toLowerCase().replace(/[.]$/, "");
  const bare = host.replace(/^\[|\]$/g, "");
  // A last label of digits only is no top-level domain: 10.0.0.1, and the short forms 127.1 and 0x7f.1 resolve to addresses too.
  if (isIP(bare) || /(^|[.])[0-9]+$/.test(host) || /^0x[0-9a-f]+$/.test(host.split(".").pop() ?? "")) {
    return `${hostname} is an IP address; a site's hostname must be a domain name.`;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return `${hostname} names this machine (localhost).`;
  let own: string;
  try {
    own = new URL(publicUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
  if (host === own) return `${hostname} is this instance's own host (PUBLIC_URL).`;
  if (host.endsWith(`.${own}`) && !allowedSuffixes.some((suffix) => host.endsWith(`.${suffix}`))) {
    return `${hostname} is under this instance's own host (PUBLIC_URL); only subdomains of SITE_HOSTNAME_SUFFIXES may be claimed there.`;
  }
  return undefined;
}
