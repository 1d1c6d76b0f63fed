// Keeps `broker.transit.connected` true to the NATS connection, which Moleculer's NATS transporter never updates.
import type { Middleware, ServiceBroker } from "moleculer";

interface NatsStatus {
  type: string;
}
interface NatsClient {
  status(): AsyncIterable<NatsStatus>;
}
interface WatchedTransit {
  connected: boolean;
  tx?: { client?: NatsClient; onConnected?(wasReconnect: boolean): Promise<void> };
}

/**
 * nats.js reconnects by itself and buffers while the server is away, so Moleculer keeps saying
 * "connected". Readiness needs the truth: a disconnect clears the flag at once, and a reconnect sets it
 * and goes through the transporter's own reconnect path (announce this node, discover the others).
 */
export function connectionWatch(): Middleware {
  const watched = new WeakSet<object>();
  return {
    name: "ConnectionWatch",
    created(broker: ServiceBroker) {
      broker.localBus.on("$transporter.connected", () => {
        const transit = broker.transit as unknown as WatchedTransit | undefined;
        const client = transit?.tx?.client;
        if (!transit || !client || typeof client.status !== "function" || watched.has(client)) return;
        watched.add(client);
        const logger = broker.getLogger("connection-watch");
        void (async () => {
          for await (const status of client.status()) {
            if (status.type === "disconnect") {
              transit.connected = false;
              broker.metrics?.set("moleculer.transit.connected", 0);
              logger.warn("transporter disconnected; readiness reports 503 until it is back");
            } else if (status.type === "reconnect") {
              logger.info("transporter reconnected");
              // Connected again, so say so before announcing: the transit sends no INFO while `connected` is
              // false, and the nodes that dropped this one during the outage (no heartbeat for heartbeatTimeout)
              // would lack its services until its next heartbeat made them ask for it.
              transit.connected = true;
              await transit.tx?.onConnected?.(true).catch((err: Error) => logger.error({ err }, "re-announcing this node failed"));
            }
          }
        })().catch(() => undefined);
      });
    },
  } as Middleware;
}
