// Liveness and readiness of one process, served on HEALTH_PORT for processes that run no gateway.
import { createServer, type Server } from "node:http";
import type { ServiceBroker } from "moleculer";
import type { Config } from "@docshelf/config";

export interface Readiness {
  ready: boolean;
  transporter: "connected" | "disconnected" | "none";
  /** Local services that are not started or whose store is not open. */
  notReady: string[];
}

/** Ready: the broker has started, its transporter is connected, and each local service's store is open. */
export async function readiness(broker: ServiceBroker, cfg: Config): Promise<Readiness> {
  const transit = broker.transit as unknown as { connected: boolean } | undefined;
  const transporter = !transit ? "none" : transit.connected ? "connected" : "disconnected";
  const started = (broker as unknown as { started: boolean }).started;
  const answers = await Promise.all(
    cfg.services.map(async (name) => {
      const service = started ? (broker.getLocalService(name) as unknown as { actions?: Record<string, unknown> } | undefined) : undefined;
      if (!service) return false;
      if (!service.actions?.storeReady) return true; // a service without a store of its own
      return broker
        .call<boolean, Record<string, never>>(`${name}.storeReady`, {}, { nodeID: broker.nodeID, timeout: 2000 })
        .then((open) => open === true, () => false);
    }),
  );
  const notReady = cfg.services.filter((_, i) => !answers[i]);
  return { ready: started && transporter !== "disconnected" && notReady.length === 0, transporter, notReady };
}

/**
 * GET /health answers 200 while the process runs; GET /ready 200 when `readiness` says so, else 503;
 * GET /started 200 once the broker has started.
 * It starts before the broker so that a process stuck connecting to NATS is alive but not ready.
 */
export function startHealthServer(broker: ServiceBroker, cfg: Config, isStopping: () => boolean): Promise<Server> {
  let hasStarted = false;
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") return reply(405, { status: "method not allowed" });
    if (path === "/health") return reply(200, { status: "ok" });
    // For startup probes: 200 only once broker.start() has finished (services started, stores open,
    // transporter connected), and from then on, so a later NATS outage fails readiness, not start-up.
    if (path === "/started") {
      const started = (broker as unknown as { started: boolean }).started || hasStarted;
      if (started) hasStarted = true;
      return reply(started ? 200 : 503, { status: started ? "started" : "starting" });
    }
    if (path !== "/ready") return reply(404, { status: "not found" });
    if (isStopping()) return reply(503, { status: "stopping" });
    readiness(broker, cfg).then(
      (state) => reply(state.ready ? 200 : 503, { status: state.ready ? "ready" : "unavailable", transporter: state.transporter, notReady: state.notReady }),
      () => reply(503, { status: "unavailable" }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(cfg.healthPort, cfg.host, () => resolve(server));
  });
}
