// The openapi service's settings: its OPENAPI_* variables, read and validated by @docshelf/config.
import type { Config } from "@docshelf/config";

export interface OpenAPISettings {
  /** Total time to fetch a spec's URL, redirects included. */
  fetchTimeoutMs: number;
  /** Largest spec accepted, fetched or sent as text, in bytes. */
  maxBytes: number;
  /** How often a URL spec is fetched again; a new version only when its content changed. */
  refreshIntervalMs: number;
  /** How often the service looks for specs to process (left pending by a restart) or to refresh. */
  sweepIntervalMs: number;
  /**
   * `address:port` pairs a fetch may reach although they are private (loopback test servers).
   * Empty in production: only public addresses are ever fetched.
   */
  allowedPrivateTargets: string[];
}

export const OPENAPI_DEFAULTS: Readonly<Omit<OpenAPISettings, "allowedPrivateTargets">> = {
  fetchTimeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  refreshIntervalMs: 6 * 60 * 60 * 1000,
  sweepIntervalMs: 60_000,
};

/** The service's settings from the configuration; the sweep never runs less often than the refresh. */
export function openapiSettingsOf(config: Pick<Config, "openapi">): OpenAPISettings {
  const { fetchTimeoutMs, maxBytes, refreshIntervalMs, sweepIntervalMs, fetchAllowPrivate } = config.openapi;
  return { fetchTimeoutMs, maxBytes, refreshIntervalMs, sweepIntervalMs: Math.min(sweepIntervalMs, refreshIntervalMs), allowedPrivateTargets: [...fetchAllowPrivate] };
}
