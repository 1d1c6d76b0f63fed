// The openapi service's own settings, read from the environment once at start (defaults documented in README.md).
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

const TARGET = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]):\d{1,5}$/i;

export class OpenAPISettingsError extends Error {}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new OpenAPISettingsError(`${name} must be a positive integer, not "${raw}".`);
  return value;
}

/** Reads and validates the service's variables; a bad value throws, naming the variable. */
export function readOpenAPISettings(env: NodeJS.ProcessEnv = process.env): OpenAPISettings {
  const allowed = (env.OPENAPI_FETCH_ALLOW_PRIVATE ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  for (const target of allowed) {
    if (!TARGET.test(target)) throw new OpenAPISettingsError(`OPENAPI_FETCH_ALLOW_PRIVATE holds "${target}"; give IP:port pairs such as 127.0.0.1:8081.`);
  }
  const refreshIntervalMs = positiveInt(env, "OPENAPI_REFRESH_INTERVAL_MS", OPENAPI_DEFAULTS.refreshIntervalMs);
  return {
    fetchTimeoutMs: positiveInt(env, "OPENAPI_FETCH_TIMEOUT_MS", OPENAPI_DEFAULTS.fetchTimeoutMs),
    maxBytes: positiveInt(env, "OPENAPI_MAX_BYTES", OPENAPI_DEFAULTS.maxBytes),
    refreshIntervalMs,
    sweepIntervalMs: Math.min(positiveInt(env, "OPENAPI_SWEEP_INTERVAL_MS", OPENAPI_DEFAULTS.sweepIntervalMs), refreshIntervalMs),
    allowedPrivateTargets: allowed.map((t) => t.toLowerCase()),
  };
}
