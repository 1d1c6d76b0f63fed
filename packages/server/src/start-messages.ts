// What start-up tells a person: why it could not start, and what to do about it.
import type { Config } from "@docshelf/config";

/** The variable that chose a port this process listens on, if any. */
function portVariable(port: number | undefined, cfg: Config): string | undefined {
  if (port === undefined) return undefined;
  if (port === cfg.port) return "PORT";
  if (port === cfg.healthPort) return "HEALTH_PORT";
  if (port === cfg.metricsPort) return "METRICS_PORT";
  return undefined;
}

/** One plain paragraph saying why start-up failed; a taken port names its variable and how to change it. */
export function startFailure(err: unknown, cfg: Config): string {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === "EADDRINUSE" || e?.code === "EACCES") {
    const port = typeof e.port === "number" ? e.port : cfg.port;
    const variable = portVariable(port, cfg) ?? "PORT";
    const problem =
      e.code === "EADDRINUSE"
        ? `port ${port} on ${e.address ?? cfg.host} is already in use (another docshelf, or another program, listens there)`
        : `this user may not listen on port ${port}`;
    return `docshelf could not start: ${problem}. Set ${variable} to another port, e.g. ${variable}=${port === 8081 ? 8082 : 8081} npm start.`;
  }
  return `docshelf could not start: ${err instanceof Error ? err.message : String(err)}`;
}

/** Said once a process that runs identity has started without ADMIN_TOKEN; undefined when there is nothing to say. */
export function adminTokenNotice(cfg: Config): string | undefined {
  if (cfg.adminToken || !cfg.services.includes("identity")) return undefined;
  return (
    "No ADMIN_TOKEN is set, so start-up made no instance administrator token (one made earlier still works). " +
    "While no administrator exists, identity logs a one-time setup link (/sso/setup?token=…) that creates one in the browser. " +
    "For automation: stop, then start with ADMIN_TOKEN=$(openssl rand -hex 32) npm start (README, \"Walk-through\")."
  );
}
