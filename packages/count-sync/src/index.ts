// Keeps a derived count in step with writes: one run at a time per key, and a run requested while one
// is under way runs again afterwards, so the last value sent was taken after the last write.
//
// With durable marks (`afterWrite`), the write that changes a count is answered without waiting for the count
// to be sent: a mark naming the key is written to the service's own store no later than the write itself, the
// count is sent in the background, and the mark is deleted once the count was sent (and acknowledged by its
// owner). Marks left behind (the process killed before the count went out, or its owner unreachable) are sent
// again by `resume` when the service starts. So the count is eventually right, also after a kill: the write is
// never kept without its mark, and a mark goes only after a count taken after its write was acknowledged.
//
// What that costs is kept small, as each durable commit costs an fsync: the writes of a key within `delayMs` share
// one count sent (and one mark: on a store that keeps writes in order, a write reuses the key's mark once it is
// durable), and marks whose count went out are deleted with the next write made through `afterWrite` (the same
// commit on such a store), or after FORGET_MS when none comes.
interface Waiting {
  done: Promise<void>;
  resolve: () => void;
  /** Marks to delete once this run's count was sent. */
  marks: string[];
}

/** A durable note that `key`'s count must be sent again. */
export interface PendingMark {
  id: string;
  key: string;
}

/** Where the marks are kept: a collection of the service's store (@docshelf/store's Collection fits). */
export interface PendingMarks {
  insert(mark: PendingMark): Promise<unknown>;
  /** In id order, `after` the id given. */
  find(filter: Record<string, never>, options: { limit: number; after?: { values: string[]; id: string } }): Promise<PendingMark[]>;
  deleteOne(filter: { id: string }): Promise<boolean>;
}

export interface DurableMarks {
  marks: PendingMarks;
  /**
   * The store's `writesInOrder`: when true a mark is written in the same breath as the write and neither waits for
   * the other (the write is never kept without it); when false the mark is acknowledged before the write is made.
   */
  inOrder: boolean;
  newId: () => string;
  /** How long the count of a key waits after a write for more writes to send it with (0: sent at once). */
  delayMs?: number;
}

/** Marks read per page by `resume`. */
const RESUME_PAGE = 500;
/** Marks whose count went out wait this long at most for a write to be deleted with. */
const FORGET_MS = 1000;

/** Writes of a key waiting for `delayMs` to send its count, and their marks. */
interface Bucket {
  marks: string[];
  /** A mark of this bucket known to be durable, which a later write of the key may share (ordered stores). */
  reusable?: string;
}

export class CountSync {
  /** Per key: whether a run is under way, and the run that will start after it (shared by its requests). */
  private readonly state = new Map<string, { running: boolean; next: Waiting | null }>();
  /** Per key, marks whose count failed to go out: deleted after the next run that sends it. */
  private readonly unsent = new Map<string, string[]>();
  /** Runs, delays and mark deletions under way, for `idle`. */
  private readonly busy = new Set<Promise<unknown>>();
  /** Per key, the writes waiting for the delay before their count is requested. */
  private readonly buckets = new Map<string, Bucket>();
  /** Marks whose count went out, to delete. */
  private forgotten: string[] = [];
  private forgetTimer?: NodeJS.Timeout;
  constructor(
    private readonly sync: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void,
    private readonly durable?: DurableMarks,
  ) {}

  /**
   * Resolves once a count taken after this call has been sent (or failed and been reported): after the
   * next run that starts after the call, so at most the run under way and one more, however many
   * requests keep arriving meanwhile. `marks` are deleted once that run sent its count.
   */
  request(key: string, marks: string[] = []): Promise<void> {
    let state = this.state.get(key);
    if (!state) this.state.set(key, (state = { running: false, next: null }));
    if (!state.next) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      state.next = { done, resolve, marks: [] };
    }
    state.next.marks.push(...marks);
    const { done } = state.next;
    if (!state.running) this.track(this.drain(key, state));
    return done;
  }

  /**
   * Makes `write`, a change that moves `key`'s count, and answers its result without waiting for the count: the
   * count is sent in the background, its durable mark (see the head of this file) kept until it went out. Without
   * durable marks, or should the mark be refused, the result waits for the count as `request` does.
   */
  async afterWrite<T>(key: string, write: () => Promise<T>): Promise<T> {
    const durable = this.durable;
    if (!durable) {
      const result = await write();
      await this.request(key);
      return result;
    }
    // Marks whose count went out are deleted now: on an ordered store, in this write's commit.
    this.flushForgotten();
    // On an ordered store the key's mark, once durable, covers this write too (made after it, counted by the run
    // that deletes it: that run starts after this call, and the call makes its write before returning).
    const shared = durable.inOrder ? this.buckets.get(key)?.reusable : undefined;
    const mark = shared ?? durable.newId();
    const marked: Promise<boolean> = shared
      ? Promise.resolve(true)
      : durable.marks.insert({ id: mark, key }).then(
          () => {
            const bucket = this.buckets.get(key);
            if (bucket?.marks.includes(mark)) bucket.reusable ??= mark;
            return true;
          },
          (err: unknown) => {
            this.onError(key, err);
            return false;
          },
        );
    // In order: the mark's write is made first, so the write is never kept without it.
    const isMarked = durable.inOrder ? undefined : await marked;
    if (durable.inOrder) this.bucketOf(key).marks.push(mark);
    let result: T;
    try {
      result = await write();
    } catch (err) {
      // Refused: the count did not move; a mark that was written goes with the next count sent. (Without one,
      // the count is sent again anyway: a run may have counted the write before a failed commit undid it.)
      if (await marked) this.later(key, mark);
      else this.track(this.request(key));
      throw err;
    }
    if (isMarked ?? (await marked)) this.later(key, mark);
    else await this.request(key);
    return result;
  }

  /** The key's bucket, made (and its delay started) if there is none. */
  private bucketOf(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      const made: Bucket = { marks: [] };
      this.buckets.set(key, (bucket = made));
      const delay = this.durable?.delayMs ?? 0;
      this.track(
        new Promise<void>((resolve) =>
          setTimeout(() => {
            if (this.buckets.get(key) === made) this.buckets.delete(key);
            this.track(this.request(key, [...new Set(made.marks)]));
            resolve();
          }, delay),
        ),
      );
    }
    return bucket;
  }

  /** Has `key`'s count sent after the delay, with `mark` deleted once it went out. */
  private later(key: string, mark: string): void {
    const bucket = this.bucketOf(key);
    if (!bucket.marks.includes(mark)) bucket.marks.push(mark);
  }

  /**
   * Sends the counts of every key with a mark left in the store (by a process that ended before sending them),
   * deleting the marks once sent; resolves when all were tried. A key whose count fails keeps its marks.
   */
  async resume(): Promise<number> {
    const durable = this.durable;
    if (!durable) return 0;
    let sent = 0;
    let after: string | undefined;
    for (;;) {
      const marks = await durable.marks.find({}, { limit: RESUME_PAGE, ...(after === undefined ? {} : { after: { values: [], id: after } }) });
      if (!marks.length) return sent;
      after = marks[marks.length - 1].id;
      const byKey = new Map<string, string[]>();
      for (const mark of marks) byKey.set(mark.key, [...(byKey.get(mark.key) ?? []), mark.id]);
      await Promise.all([...byKey].map(([key, ids]) => this.request(key, ids)));
      sent += byKey.size;
    }
  }

  /** Resolves once no run and no mark deletion is under way (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      this.flushForgotten();
      if (!this.busy.size) return;
      await Promise.allSettled([...this.busy]);
    }
  }

  private track(work: Promise<unknown>): void {
    this.busy.add(work);
    void work.finally(() => this.busy.delete(work));
  }

  private async drain(key: string, state: { running: boolean; next: Waiting | null }): Promise<void> {
    state.running = true;
    try {
      while (state.next) {
        const run = state.next;
        state.next = null;
        const marks = [...(this.unsent.get(key) ?? []), ...run.marks];
        this.unsent.delete(key);
        let sent = false;
        try {
          await this.sync(key);
          sent = true;
        } catch (err) {
          this.onError(key, err);
        }
        if (sent) this.forget(marks);
        else if (marks.length) this.unsent.set(key, [...(this.unsent.get(key) ?? []), ...marks]);
        run.resolve();
      }
    } finally {
      state.running = false;
      this.state.delete(key);
    }
  }

  /** Deletes marks whose count went out, with the next write or after FORGET_MS (one that fails is sent again at the next start). */
  private forget(marks: string[]): void {
    const durable = this.durable;
    if (!durable || !marks.length) return;
    this.forgotten.push(...marks);
    if (!durable.inOrder) this.flushForgotten();
    else if (!this.forgetTimer) {
      let fired!: () => void;
      this.track(new Promise<void>((resolve) => (fired = resolve)));
      this.forgetTimer = setTimeout(() => {
        this.forgetTimer = undefined;
        this.flushForgotten();
        fired();
      }, FORGET_MS);
      this.forgetTimer.unref?.();
      this.forgetFired = fired;
    }
  }

  private forgetFired?: () => void;

  private flushForgotten(): void {
    const durable = this.durable;
    if (this.forgetTimer) {
      clearTimeout(this.forgetTimer);
      this.forgetTimer = undefined;
      this.forgetFired?.();
    }
    if (!durable || !this.forgotten.length) return;
    const ids = [...new Set(this.forgotten)];
    this.forgotten = [];
    // Every delete is made now (in this turn: one commit with whatever else is written in it).
    const deletes = ids.map((id) => durable.marks.deleteOne({ id }));
    this.track(Promise.all(deletes).catch((err: unknown) => this.onError("(marks)", err)));
  }
}
