// A Moleculer mixin that opens the service's own collections on start and closes them on stop.
import type { ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { MongoStore, openStore } from "./index";
import type { Collection, CollectionSpec, Doc, Store } from "./types";

export interface StoreVars {
  store: Store;
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
    },
    async stopped() {
      const store = (this as unknown as { store?: Store }).store;
      if (store) await store.close();
    },
  };
}
