// Process entry point: `npm start` (every service) or one or more services chosen by SERVICES.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import type { Config } from "@docshelf/config";

/**
 * A message for the very end of the output: pino writes its buffered lines when the process exits,
 * so a line written now would end up above them. Exit handlers run in the order they were added,
 * after pino's.
 */
function lastWords(message: string, code: number): never {
  process.on("exit", () => process.stderr.write(`\n${message}\n`));
  process.exit(code);
}

/** This program's version: packages/server/package.json's, which every workspace and the root share (CHANGELOG.md). */
function version(): string {
  return (JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version: string }).version;
}

async function main(): Promise<void> {
  if (process.argv.includes("--version")) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  // Loaded only now, so that --version needs none of them.
  const { ConfigError, loadConfig } = await import("@docshelf/config");
  const { startHealthServer } = await import("@docshelf/runtime");
  const { createBroker, listeningPort } = await import("./index.js");
  const { adminTokenNotice, startFailure } = await import("./start-messages.js");
  let cfg: Config;
  try {
    cfg = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  // One shutdown path: Moleculer's own signal handlers would stop the broker a second time.
  const broker = createBroker(cfg, { skipProcessEventRegistration: true });
  let failure: string | undefined;
  const gateway = broker.getLocalService("gateway") as unknown as { server?: Server } | undefined;
  // moleculer-web ends the process itself when its port is taken; this listener runs before it does.
  gateway?.server?.prependListener("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EADDRINUSE" || err.code === "EACCES") {
      failure = startFailure(err, cfg);
      process.on("exit", () => process.stderr.write(`\n${failure}\n`));
    }
  });

  let stopping = false;
  let health: Server | undefined;
  const stop = async (reason: string) => {
    if (stopping) {
      // A second Ctrl-C does not wait for in-flight requests.
      process.stderr.write("docshelf: stopping at once\n");
      process.exit(130);
    }
    stopping = true; // readiness answers 503 from here on
    broker.logger.info(`${reason}, stopping`);
    // broker.stop() waits up to tracking.shutdownTimeout for in-flight requests.
    await broker.stop().catch((err: unknown) => broker.logger.error({ err }, "could not stop every service"));
    health?.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM received"));
  process.on("SIGINT", () => void stop("SIGINT received"));
  // The terminal it ran in was closed: a clean stop too, rather than Node's default of dying on the spot.
  process.on("SIGHUP", () => void stop("SIGHUP received"));
  if (process.argv.includes("--exit-with-parent")) {
    // `npm start` execs this process; should npm itself be killed (SIGKILL cannot be passed on), the
    // server would be left running without anyone to stop it. Its parent changing means exactly that.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void stop("the process that started docshelf is gone");
    }, 500).unref();
  }
  if (cfg.healthPort > 0) health = await startHealthServer(broker, cfg, () => stopping);
  try {
    await broker.start();
  } catch (err) {
    lastWords(failure ?? startFailure(err, cfg), 1);
  }
  const port = listeningPort(broker);
  const where = port !== undefined ? `, listening on http://${cfg.host === "0.0.0.0" ? "localhost" : cfg.host}:${port}` : "";
  broker.logger.info(`docshelf started: ${cfg.services.join(", ")}${where}`);
  const notice = adminTokenNotice(cfg);
  // pino writes its lines a moment later: these, for a person, come after them rather than among them.
  await new Promise((resolve) => setTimeout(resolve, 100));
  if (port !== undefined) {
    const host = cfg.host === "0.0.0.0" || cfg.host === "::" ? "localhost" : cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host;
    process.stdout.write(`docshelf listening on http://${host}:${port} (services: ${cfg.services.join(", ")}; stop with Ctrl-C)\n`);
  }
  if (notice) process.stdout.write(`${notice}\n`);
}

main().catch((err) => lastWords(`failed to start: ${err instanceof Error ? err.message : String(err)}`, 1));
