// Keeps a derived count in step with writes: one run at a time per key, and a run requested while one
// is under way runs again afterwards, so the last value sent was taken after the last write.
//
// With durable marks (`afterWrite`), the write that changes a count is answered without waiting for the count
// to be sent: a mark naming the key is written to the service's own store no later than the write itself, the
// count is sent in the background, and the mark is deleted once the count was sent (and acknowledged by its
// owner). Marks left behind (the process killed before the count went out, or its owner unreachable) are sent
// again by `resume` when the service starts. So the count is eventually right, also after a kill: the write is
// never kept without its mark, and a mark goes only after a count taken after its write was acknowledged.
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
}

/** Marks read per page by `resume`. */
const RESUME_PAGE = 500;

export class CountSync {
  /** Per key: whether a run is under way, and the run that will start after it (shared by its requests). */
  private readonly state = new Map<string, { running: boolean; next: Waiting | null }>();
  /** Per key, marks whose count failed to go out: deleted after the next run that sends it. */
  private readonly unsent = new Map<string, string[]>();
  /** Runs and mark deletions under way, for `idle`. */
  private readonly busy = new Set<Promise<unknown>>();
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
    const mark: PendingMark = { id: durable.newId(), key };
    const marked = durable.marks.insert(mark).then(
      () => true,
      (err: unknown) => {
        this.onError(key, err);
        return false;
      },
    );
    // In order: the mark's write is made first, so the write is never kept without it.
    const isMarked = durable.inOrder ? undefined : await marked;
    let result: T;
    try {
      result = await write();
    } catch (err) {
      // Refused: the count did not move; a mark that was written goes with the next count sent.
      if (await marked) void this.request(key, [mark.id]);
      throw err;
    }
    if (isMarked ?? (await marked)) void this.request(key, [mark.id]);
    else await this.request(key);
    return result;
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
    while (this.busy.size) await Promise.allSettled([...this.busy]);
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
        if (sent) this.forget(key, marks);
        else if (marks.length) this.unsent.set(key, [...(this.unsent.get(key) ?? []), ...marks]);
        run.resolve();
      }
    } finally {
      state.running = false;
      this.state.delete(key);
    }
  }

  /** Deletes marks whose count went out (not awaited by anyone; one that fails is sent again at the next start). */
  private forget(key: string, marks: string[]): void {
    const durable = this.durable;
    if (!durable || !marks.length) return;
    this.track(
      Promise.all(marks.map((id) => durable.marks.deleteOne({ id }))).catch((err: unknown) => this.onError(key, err)),
    );
  }
}
