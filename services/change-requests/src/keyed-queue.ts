// Work on one key (a space) run one at a time on this node, in arrival order; other keys run alongside.
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier work of `key` has settled; answers what `work` answers. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
