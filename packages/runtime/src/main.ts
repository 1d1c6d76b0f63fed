// Process entry point: `npm start` (every service) or one or more services chosen by SERVICES.
import { ConfigError, loadConfig } from "@docshelf/config";
import { createBroker, listeningPort } from "./index";

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
  const stop = async (signal: string) => {
    broker.logger.info(`${signal} received, stopping`);
    await broker.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
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
