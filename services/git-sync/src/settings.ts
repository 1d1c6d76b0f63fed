// The git-sync service's own settings, read from the environment once at start (see README.md).
export interface GitSyncSettings {
  /** Largest file accepted in a repository (import) or written to one (export). */
  maxFileBytes: number;
  /** Most pages a space may get from a repository. */
  maxPages: number;
  /** Largest answer of the Git server (a packfile), in bytes. */
  maxFetchBytes: number;
  /** Longest one HTTP request to the Git server may take. */
  requestTimeoutMs: number;
  /** How often the service looks for jobs left waiting (a restart, another replica's crash). */
  sweepIntervalMs: number;
  /** How long a worker holds a space's jobs without renewing before another may take over. */
  leaseMs: number;
  /** Secret the credentials of waiting jobs are sealed with; empty: one made and kept in the service's store. */
  secret: string;
  /** `IP:port` pairs a clone or push may reach although private (tests only). */
  allowedPrivateTargets: string[];
}

export const GIT_SYNC_DEFAULTS = {
  maxFileBytes: 100 * 1024 * 1024,
  maxPages: 5000,
  maxFetchBytes: 1024 * 1024 * 1024,
  requestTimeoutMs: 120_000,
  sweepIntervalMs: 10_000,
  leaseMs: 60_000,
} as const;

const TARGET = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]):\d{1,5}$/i;

export class GitSyncSettingsError extends Error {}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new GitSyncSettingsError(`${name} must be a positive integer, not "${raw}".`);
  return value;
}

export function readGitSyncSettings(env: NodeJS.ProcessEnv = process.env): GitSyncSettings {
  const allowed = (env.GIT_SYNC_ALLOW_PRIVATE ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  for (const target of allowed) {
    if (!TARGET.test(target)) throw new GitSyncSettingsError(`GIT_SYNC_ALLOW_PRIVATE holds "${target}"; give IP:port pairs such as 127.0.0.1:8081.`);
  }
  return {
    maxFileBytes: positiveInt(env, "GIT_SYNC_MAX_FILE_BYTES", GIT_SYNC_DEFAULTS.maxFileBytes),
    maxPages: positiveInt(env, "GIT_SYNC_MAX_PAGES", GIT_SYNC_DEFAULTS.maxPages),
    maxFetchBytes: positiveInt(env, "GIT_SYNC_MAX_FETCH_BYTES", GIT_SYNC_DEFAULTS.maxFetchBytes),
    requestTimeoutMs: positiveInt(env, "GIT_SYNC_REQUEST_TIMEOUT_MS", GIT_SYNC_DEFAULTS.requestTimeoutMs),
    sweepIntervalMs: positiveInt(env, "GIT_SYNC_SWEEP_INTERVAL_MS", GIT_SYNC_DEFAULTS.sweepIntervalMs),
    leaseMs: positiveInt(env, "GIT_SYNC_LEASE_MS", GIT_SYNC_DEFAULTS.leaseMs),
    secret: env.GIT_SYNC_SECRET ?? "",
    allowedPrivateTargets: allowed.map((t) => t.toLowerCase()),
  };
}
