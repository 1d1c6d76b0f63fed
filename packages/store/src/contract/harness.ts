// What every part of the store contract uses: fresh collections on the store under test, seeding,
// keyset walks, and cleaning up after each test.
import { cursorOf, normalizeSort } from "../cursor";
import type { Filter } from "../filter";
import { newId } from "../ids";
import type { Collection, Cursor, Doc, IndexSpec, Sort, Store } from "../types";

export interface ContractOptions {
  /** The store keeps its data when closed: `open()` again must see what an earlier store wrote. */
  persistent?: boolean;
}

export type Rec = Doc & Record<string, unknown>;

/** Something that came from a request body, shaped to look like a query operator. */
export function hostile<T>(value: unknown): T {
  return value as T;
}

export function ids(docs: Array<{ id: string }>): string[] {
  return docs.map((d) => d.id);
}

export function sortedIds(docs: Array<{ id: string }>): string[] {
  return ids(docs).sort();
}

export interface Harness {
  /** A store from the adapter under test, closed after the test. */
  openStore(): Promise<Store>;
  /** A collection name no other test (or earlier run against the same database) uses. */
  uniqueName(): string;
  /** A collection emptied after the test, on `store` (default: a new one) under `name`. */
  fresh(indexes?: IndexSpec[], store?: Store, name?: string): Promise<Collection<Rec>>;
  seed(collection: Collection<Rec>, docs: Array<Record<string, unknown>>): Promise<Rec[]>;
  /** Walks `find` page by page with keyset cursors, calling `between` after each full page. */
  walk(collection: Collection<Rec>, filter: Filter, sort: Sort, pageSize: number, between?: (lastSeen: Rec) => Promise<void>): Promise<Rec[]>;
}

/** The harness for the store `open` returns; registers the cleanup after each test of the enclosing describe. */
export function harnessFor(open: () => Promise<Store>): Harness {
  const opened: Store[] = [];
  const used: Array<Collection<Rec>> = [];
  let seq = 0;

  afterEach(async () => {
    // Leave nothing behind (a MongoDB database outlives the test run), then close every store.
    for (const collection of used.splice(0)) await collection.deleteMany({}).catch(() => undefined);
    for (const store of opened.splice(0)) if (store.isOpen()) await store.close();
  });

  const h: Harness = {
    async openStore() {
      const store = await open();
      opened.push(store);
      return store;
    },
    uniqueName() {
      seq += 1;
      return `c${seq}x${newId().slice(-6)}`;
    },
    async fresh(indexes = [], store, name = h.uniqueName()) {
      const s = store ?? (await h.openStore());
      const collection = await s.collection<Rec>({ name, indexes });
      used.push(collection);
      return collection;
    },
    async seed(collection, docs) {
      const out: Rec[] = [];
      for (const doc of docs) out.push(await collection.insert({ id: newId(), ...doc } as Rec));
      return out;
    },
    async walk(collection, filter, sort, pageSize, between) {
      const seen: Rec[] = [];
      let after: Cursor | undefined;
      for (let pages = 0; pages < 1000; pages++) {
        const page = await collection.find(filter, { sort, limit: pageSize, after });
        expect(page.length).toBeLessThanOrEqual(pageSize);
        seen.push(...page);
        if (page.length < pageSize) return seen;
        const last = page[page.length - 1];
        after = cursorOf(normalizeSort(sort), last);
        if (between) await between(last);
      }
      throw new Error("the walk did not end");
    },
  };
  return h;
}
