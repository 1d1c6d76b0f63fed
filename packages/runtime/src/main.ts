// Process entry point: `npm start` (every service) or one or more services chosen by SERVICES.
import type { Server } from "node:http";
import { ConfigError, loadConfig } from "@docshelf/config";
import { createBroker, listeningPort } from "./index";
import { startHealthServer } from "./health";

async function main(): Promise<void> {
  let cfg;
  try {
    cfg = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const broker = createBroker(cfg);
  let stopping = false;
  let health: Server | undefined;
  const stop = async (signal: string) => {
    stopping = true; // readiness answers 503 from here on
    broker.logger.info(`${signal} received, stopping`);
    // broker.stop() waits up to tracking.shutdownTimeout for in-flight requests.
    await broker.stop();
    health?.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  if (cfg.healthPort > 0) health = await startHealthServer(broker, cfg, () => stopping);
  await broker.start();
  const port = listeningPort(broker);
  const where = port !== undefined ? `, listening on http://${cfg.host === "0.0.0.0" ? "localhost" : cfg.host}:${port}` : "";
  broker.logger.info(`docshelf started: ${cfg.services.join(", ")}${where}`);
  if (port !== undefined) process.stdout.write(`docshelf listening on http://localhost:${port} (services: ${cfg.services.join(", ")})\n`);
}

main().catch((err) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
