// The counter and idempotency stores on NATS JetStream key-value buckets, shared by every gateway.
import { StorageType, connect, type ConnectionOptions, type KV, type KvEntry, type NatsConnection } from "nats";
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

/** How often a gateway sends its counts to the shared bucket and reads the totals back. */
export const COUNTER_FLUSH_MS = 200;
/** A key hit this recently has its shared total read back at every flush even without new counts of its own. */
const REFRESH_AFTER_HIT_MS = 2_000;
/** How long closing waits for the last flush. */
const CLOSE_FLUSH_MS = 2_000;

interface Tally {
  /** The shared total as read back at this gateway's last flush of the key (its own flushed counts included). */
  shared: number;
  /** Counted here since, not yet sent. */
  pending: number;
  /** Sent in the flush under way, not yet in `shared`. */
  sending: number;
  expires: number;
  lastHit: number;
}

/**
 * Counts in memory and shares them through the bucket: every COUNTER_FLUSH_MS (and on close) each key's
 * new counts are added to the shared value by compare-and-swap on the key's revision (so two gateways
 * never lose a count), and the total read back. A request is decided on that total plus this gateway's
 * counts since, with no NATS round trip. The price is a bounded overshoot: until the next flush a gateway
 * does not see what the others admitted, so together the gateways may let through the limit plus what
 * the other gateways admitted within one flush interval (plus a round trip).
 */
export class NatsCounterStore implements CounterStore {
  private readonly tallies = new Map<string, Tally>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly kv: KV,
    private readonly options: { flushMs?: number; onError?: (err: unknown) => void } = {},
  ) {
    this.timer = setInterval(() => {
      this.flush().catch((err: unknown) => this.options.onError?.(err));
    }, options.flushMs ?? COUNTER_FLUSH_MS);
    this.timer.unref();
  }

  increment(key: string, ttlMs: number): number {
    const now = Date.now();
    let tally = this.tallies.get(key);
    if (!tally || tally.expires <= now) {
      tally = { shared: 0, pending: 0, sending: 0, expires: now + ttlMs, lastHit: now };
      this.tallies.set(key, tally);
    }
    tally.pending += 1;
    tally.lastHit = now;
    return tally.shared + tally.sending + tally.pending;
  }

  /** One flush at a time; a call while one runs waits for it and then runs its own. */
  flush(): Promise<void> {
    const previous = this.flushing ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.flushOnce());
    const settled = next.finally(() => {
      if (this.flushing === settled) this.flushing = undefined;
    });
    this.flushing = settled;
    return settled;
  }

  private async flushOnce(): Promise<void> {
    const now = Date.now();
    const work: Array<Promise<void>> = [];
    for (const [key, tally] of this.tallies) {
      if (tally.expires <= now) {
        // Unsent counts of a finished window no longer matter.
        this.tallies.delete(key);
      } else if (tally.pending > 0) {
        work.push(this.send(key, tally));
      } else if (now - tally.lastHit < REFRESH_AFTER_HIT_MS) {
        work.push(this.readBack(key, tally));
      }
    }
    const results = await Promise.allSettled(work);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /** Adds this gateway's new counts to the shared value and keeps the total. */
  private async send(key: string, tally: Tally): Promise<void> {
    const delta = tally.pending;
    tally.pending = 0;
    tally.sending += delta;
    try {
      tally.shared = await this.add(key, delta);
      tally.sending -= delta;
    } catch (err) {
      // Kept for the next flush: a bucket that cannot be reached loses no count of this gateway.
      tally.sending -= delta;
      tally.pending += delta;
      throw err;
    }
  }

  private async readBack(key: string, tally: Tally): Promise<void> {
    const entry = await this.kv.get(key);
    if (isLive(entry)) tally.shared = Math.max(tally.shared, Number(decoder.decode(entry.value)) || 0);
  }

  private async add(key: string, delta: number): Promise<number> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.kv.get(key);
      try {
        if (!isLive(entry)) {
          // create() also takes over a deleted or purged key, atomically.
          await this.kv.create(key, encoder.encode(String(delta)));
          return delta;
        }
        const next = Number(decoder.decode(entry.value)) + delta;
        await this.kv.update(key, encoder.encode(String(next)), entry.revision);
        return next;
      } catch (err) {
        if (!isCasConflict(err)) throw err;
        await jittered(attempt);
      }
    }
    throw new Error(`rate counter ${key} stayed contended for ${MAX_ATTEMPTS} attempts`);
  }

  /** Stops the timer and sends what is left; a bucket that does not answer within CLOSE_FLUSH_MS does not hold up the stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_FLUSH_MS);
      timer.unref();
    });
    try {
      await Promise.race([this.flush(), gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }
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
  /** Servers and credentials (the configuration's natsConnectionOptions). */
  connection: ConnectionOptions;
  /** Copies of each bucket's stream (NATS_STREAM_REPLICAS); default 1. */
  replicas?: number;
  /** How often counts are sent to the shared bucket (COUNTER_FLUSH_MS). */
  counterFlushMs?: number;
  /** Told when a flush of the counts fails; the counts are kept for the next one. */
  onCounterError?: (err: unknown) => void;
  namespace: string;
  /** How long a window's counter is kept: longer than the window, so no count is lost mid-window. */
  counterTtlMs: number;
  idempotencyTtlMs: number;
}

/** Connects to NATS on its own connection (the transporter's is Moleculer's) and opens both buckets. */
export async function openNatsStores(options: NatsStoreOptions): Promise<NatsStores> {
  // nats.js gives up after 10 reconnect attempts (about 20 s) and stays closed; like Moleculer's transporter,
  // this connection must outlive any NATS outage, or rate limits and Idempotency-Keys fail until a restart.
  const connection = await connect({ ...options.connection, name: `docshelf-gateway-${options.namespace || "default"}`, maxReconnectAttempts: -1 });
  try {
    const js = connection.jetstream();
    // Counters are cheap to lose on a NATS restart (a window restarts); idempotency records are kept on disk.
    const counters = await js.views.kv(bucketName("ratelimit", options.namespace), { history: 1, ttl: options.counterTtlMs, storage: StorageType.Memory, replicas: options.replicas ?? 1 });
    const records = await js.views.kv(bucketName("idempotency", options.namespace), { history: 1, ttl: options.idempotencyTtlMs, storage: StorageType.File, replicas: options.replicas ?? 1 });
    const counterStore = new NatsCounterStore(counters, { flushMs: options.counterFlushMs, onError: options.onCounterError });
    return {
      counters: counterStore,
      idempotency: new NatsIdempotencyStore(records),
      connection,
      async close() {
        // The last counts go out before the connection does.
        await counterStore.close().catch((err: unknown) => options.onCounterError?.(err));
        await connection.drain();
      },
    };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
