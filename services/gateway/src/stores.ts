// Picks where counters and idempotency records live: this process, or NATS JetStream when scaled out.
import { natsConnectionOptions, type Config } from "@docshelf/config";
import { MemoryCounterStore, type CounterStore } from "./counter-store";
import { MemoryIdempotencyStore, type IdempotencyStore } from "./idempotency-store";
import { openNatsStores } from "./nats-stores";
import { WINDOW_MS } from "./rate-limiter";

export interface GatewayStores {
  counters: CounterStore;
  idempotency: IdempotencyStore;
  shared: boolean;
  close(): Promise<void>;
}

/**
 * With a nats:// transporter every gateway shares JetStream buckets; otherwise (embedded, or the Fake
 * transporter of the in-process tests) counts and keys are this gateway's own. `onCounterError` hears of
 * shared counts that could not be sent (they are kept and sent with the next flush).
 */
export async function openStores(cfg: Config, onCounterError?: (err: unknown) => void): Promise<GatewayStores> {
  const idempotencyTtlMs = cfg.idempotencyTtlSeconds * 1000;
  if (cfg.nats) {
    const nats = await openNatsStores({ connection: natsConnectionOptions(cfg.nats), replicas: cfg.nats.streamReplicas, namespace: cfg.namespace, counterTtlMs: 2 * WINDOW_MS, idempotencyTtlMs, onCounterError });
    return { counters: nats.counters, idempotency: nats.idempotency, shared: true, close: () => nats.close() };
  }
  const counters = new MemoryCounterStore();
  const idempotency = new MemoryIdempotencyStore(idempotencyTtlMs);
  return {
    counters,
    idempotency,
    shared: false,
    async close() {
      await Promise.all([counters.close(), idempotency.close()]);
    },
  };
}
