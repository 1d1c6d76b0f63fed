// A small in-memory queue of spec ids: each id waits at most once, a few run at a time, and at most
// `limiter.limit` of one organization's at once (the worker pool's KeyedLimiter): an organization that
// queues many specs never holds every slot, so another organization's spec starts as soon as a slot frees.
import { KeyedLimiter } from "@docshelf/worker-pool";

interface Waiting {
  id: string;
  /** The organization whose spec it is ("" when unknown: such ids share one key). */
  key: string;
}

export class WorkQueue {
  private readonly waiting: Waiting[] = [];
  private readonly queued = new Set<string>();
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly run: (id: string) => Promise<void>,
    private readonly concurrency = 2,
    private readonly onError: (id: string, err: unknown) => void = () => undefined,
    private readonly limiter = new KeyedLimiter(concurrency),
  ) {}

  /** Queues `id` (of organization `key`) unless it is already waiting (one that is running may be queued again). */
  add(id: string, key = ""): void {
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.waiting.push({ id, key });
    this.pump();
  }

  get size(): number {
    return this.waiting.length + this.running;
  }

  /** Drops what waits (not what runs): on shutdown, the next start's sweep finds it again. */
  clear(): void {
    this.waiting.splice(0);
    this.queued.clear();
  }

  /** Resolves once nothing waits or runs. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      // The first waiting id whose organization is below its limit: the others keep their place.
      const next = this.waiting.findIndex((w) => this.limiter.active(w.key) < this.limiter.limit);
      if (next < 0) return;
      const [{ id, key }] = this.waiting.splice(next, 1);
      this.queued.delete(id);
      this.running++;
      // The limiter counts the id as running at once (it is below the limit), so the next round sees it.
      this.limiter
        .run(key, () => this.run(id))
        .catch((err: unknown) => this.onError(id, err))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
  }
}
