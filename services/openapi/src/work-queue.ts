// A small in-memory queue of spec ids: each id waits at most once, a few run at a time.
export class WorkQueue {
  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly run: (id: string) => Promise<void>,
    private readonly concurrency = 2,
    private readonly onError: (id: string, err: unknown) => void = () => undefined,
  ) {}

  /** Queues `id` unless it is already waiting (one that is running may be queued again). */
  add(id: string): void {
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.waiting.push(id);
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
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.queued.delete(id);
      this.running++;
      this.run(id)
        .catch((err: unknown) => this.onError(id, err))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
  }
}
