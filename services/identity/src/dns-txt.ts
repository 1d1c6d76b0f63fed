// TXT look-ups for SSO domain verification, against the configured DNS servers, within a time limit.
import { Resolver } from "node:dns/promises";
import type { SsoDomainsConfig } from "@docshelf/config";

/** Why a look-up found nothing: no such record, or DNS did not answer in time. */
export class DnsLookupError extends Error {
  constructor(readonly reason: "timeout" | "failed", message: string) {
    super(message);
  }
}

const NO_RECORD = new Set(["ENODATA", "ENOTFOUND", "ENONAME", "NXDOMAIN"]);

/** The TXT strings at `name` (each record's chunks joined); [] when the name has none. */
export async function txtRecords(name: string, cfg: SsoDomainsConfig): Promise<string[]> {
  const resolver = new Resolver({ timeout: cfg.dnsTimeoutMs, tries: 1 });
  if (cfg.dnsServers.length) resolver.setServers(cfg.dnsServers);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new DnsLookupError("timeout", `DNS did not answer within ${cfg.dnsTimeoutMs} ms`));
    }, cfg.dnsTimeoutMs);
  });
  try {
    const records = await Promise.race([resolver.resolveTxt(name), deadline]);
    return records.map((chunks) => chunks.join(""));
  } catch (err) {
    if (err instanceof DnsLookupError) throw err;
    const code = (err as { code?: string }).code ?? "";
    if (NO_RECORD.has(code)) return [];
    if (code === "ETIMEOUT" || code === "ECANCELLED") throw new DnsLookupError("timeout", `DNS did not answer within ${cfg.dnsTimeoutMs} ms`);
    throw new DnsLookupError("failed", `the DNS look-up failed (${code || "unknown error"})`);
  } finally {
    clearTimeout(timer);
  }
}
