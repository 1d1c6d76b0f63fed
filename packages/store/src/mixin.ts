// A Moleculer mixin that opens the service's own collections on start and closes them on stop.
import type { ServiceBroker, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { MongoStore, openStore } from "./index";
import type { Collection, CollectionSpec, Doc, Store } from "./types";

export interface StoreVars {
  store: Store;
}

/** How often the store's size is read for the metric: a directory walk, or a collStats per collection. */
const STORE_SIZE_EVERY_MS = 60_000;

/**
 * `docshelf_store_size_bytes{service}` on the Prometheus endpoint (packages/runtime's sampled gauges do the
 * same for other values; this package does not depend on runtime): read at start, then every minute.
 */
function sampleStoreSize(broker: ServiceBroker, service: string, store: Store): NodeJS.Timeout | undefined {
  if (!broker.isMetricsEnabled()) return undefined;
  const name = "docshelf_store_size_bytes";
  if (!broker.metrics.hasMetric(name)) {
    broker.metrics.register({ type: "gauge", name, labelNames: ["service"], description: "Bytes the service's stored data takes (files under DATA_DIR/<service>, or its MongoDB collections with indexes)" });
  }
  let reading = false;
  const read = async (): Promise<void> => {
    if (reading || !store.isOpen()) return;
    reading = true;
    try {
      broker.metrics.set(name, await store.sizeBytes(), { service });
    } catch (err) {
      broker.logger.debug(`reading the size of ${service}'s store failed: ${(err as Error)?.message}`);
    } finally {
      reading = false;
    }
  };
  void read();
  const timer = setInterval(() => void read(), STORE_SIZE_EVERY_MS);
  timer.unref();
  return timer;
}

/** Opens `specs` as `this.<key>` collections of the service, in the service's own store namespace. */
export function storeMixin(specs: Record<string, CollectionSpec>): Partial<ServiceSchema> {
  return {
    actions: {
      /** Internal: whether this service's store is open, for the gateway's readiness probe. */
      storeReady: {
        visibility: "public",
        handler(): boolean {
          const store = (this as unknown as { store?: Store }).store;
          return !!store && store.isOpen();
        },
      },
    },
    async started() {
      const cfg = configFor(this.broker);
      const store = await openStore(this.name, { mongoUrl: cfg.mongoUrl, dataDir: cfg.dataDir, memory: cfg.dataDir === ":memory:" });
      const self = this as unknown as Record<string, unknown>;
      self.store = store;
      if (store instanceof MongoStore && store.documentLocks) {
        this.logger.info(`${this.name}: ${store.server} applies updates as read-modify-write; updates take per-document locks`);
      }
      for (const [key, spec] of Object.entries(specs)) self[key] = (await store.collection<Doc>(spec)) as Collection<Doc>;
      self.storeSizeTimer = sampleStoreSize(this.broker, this.name, store);
    },
    async stopped() {
      const { store, storeSizeTimer } = this as unknown as { store?: Store; storeSizeTimer?: NodeJS.Timeout };
      if (storeSizeTimer) clearInterval(storeSizeTimer);
      if (store) await store.close();
    },
  };
}
