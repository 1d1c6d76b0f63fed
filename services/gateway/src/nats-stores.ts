// The counter and idempotency stores on NATS JetStream key-value buckets, shared by every gateway.
import { StorageType, connect, type KV, type KvEntry, type NatsConnection } from "nats";
import type { CounterStore } from "./counter-store";
import type { ClaimResult, IdempotencyRecord, IdempotencyStore, StoredAnswer } from "./idempotency-store";

/** JetStream's "wrong last sequence": someone else wrote the key first; read again and retry. */
const WRONG_LAST_SEQUENCE = 10071;
const MAX_ATTEMPTS = 50;

function isCasConflict(err: unknown): boolean {
  const e = err as { api_error?: { err_code?: number } };
  return e?.api_error?.err_code === WRONG_LAST_SEQUENCE;
}

function isLive(entry: KvEntry | null): entry is KvEntry {
  return !!entry && entry.operation === "PUT";
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bucket names allow letters, digits, - and _: the namespace keeps deployments (and test runs) apart. */
export function bucketName(purpose: string, namespace: string): string {
  return `docshelf_${purpose}_${namespace.replace(/[^A-Za-z0-9_-]/g, "_") || "default"}`;
}

async function jittered(attempt: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
}

/** Counts by compare-and-swap on the key's revision, so two gateways incrementing at once never lose one. */
export class NatsCounterStore implements CounterStore {
  constructor(private readonly kv: KV) {}

  async increment(key: string): Promise<number> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.kv.get(key);
      try {
        if (!isLive(entry)) {
          // create() also takes over a deleted or purged key, atomically.
          await this.kv.create(key, encoder.encode("1"));
          return 1;
        }
        const next = Number(decoder.decode(entry.value)) + 1;
        await this.kv.update(key, encoder.encode(String(next)), entry.revision);
        return next;
      } catch (err) {
        if (!isCasConflict(err)) throw err;
        await jittered(attempt);
      }
    }
    throw new Error(`rate counter ${key} stayed contended for ${MAX_ATTEMPTS} attempts`);
  }

  async close(): Promise<void> {}
}

/** Idempotency records; a claim is a create (or a CAS over a stale lease), so only one attempt wins. */
export class NatsIdempotencyStore implements IdempotencyStore {
  constructor(private readonly kv: KV) {}

  async claim(key: string, fingerprint: string, leaseUntil: number): Promise<ClaimResult> {
    const pending = encoder.encode(JSON.stringify({ state: "pending", fingerprint, leaseUntil } satisfies IdempotencyRecord));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.kv.get(key);
      try {
        if (!isLive(entry)) {
          await this.kv.create(key, pending);
          return { claimed: true };
        }
        const record = JSON.parse(decoder.decode(entry.value)) as IdempotencyRecord;
        if (record.state === "pending" && record.leaseUntil <= Date.now()) {
          await this.kv.update(key, pending, entry.revision);
          return { claimed: true };
        }
        return { claimed: false, record };
      } catch (err) {
        if (!isCasConflict(err)) throw err;
        await jittered(attempt);
      }
    }
    throw new Error(`idempotency key stayed contended for ${MAX_ATTEMPTS} attempts`);
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer): Promise<void> {
    await this.kv.put(key, encoder.encode(JSON.stringify({ state: "done", fingerprint, answer } satisfies IdempotencyRecord)));
  }

  async release(key: string): Promise<void> {
    await this.kv.delete(key);
  }

  async close(): Promise<void> {}
}

export interface NatsStores {
  counters: NatsCounterStore;
  idempotency: NatsIdempotencyStore;
  connection: NatsConnection;
  close(): Promise<void>;
}

export interface NatsStoreOptions {
  servers: string;
  namespace: string;
  /** How long a window's counter is kept: longer than the window, so no count is lost mid-window. */
  counterTtlMs: number;
  idempotencyTtlMs: number;
}

/** Connects to NATS on its own connection (the transporter's is Moleculer's) and opens both buckets. */
export async function openNatsStores(options: NatsStoreOptions): Promise<NatsStores> {
  const connection = await connect({ servers: options.servers, name: `docshelf-gateway-${options.namespace || "default"}` });
  try {
    const js = connection.jetstream();
    // Counters are cheap to lose on a NATS restart (a window restarts); idempotency records are kept on disk.
    const counters = await js.views.kv(bucketName("ratelimit", options.namespace), { history: 1, ttl: options.counterTtlMs, storage: StorageType.Memory });
    const records = await js.views.kv(bucketName("idempotency", options.namespace), { history: 1, ttl: options.idempotencyTtlMs, storage: StorageType.File });
    return {
      counters: new NatsCounterStore(counters),
      idempotency: new NatsIdempotencyStore(records),
      connection,
      async close() {
        await connection.drain();
      },
    };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
