// Keeps a derived count in step with writes: one run at a time per key, and a run requested while one
// is under way runs again afterwards, so the last value sent was taken after the last write.
interface Waiting {
  done: Promise<void>;
  resolve: () => void;
}

export class CountSync {
  /** Per key: whether a run is under way, and the run that will start after it (shared by its requests). */
  private readonly state = new Map<string, { running: boolean; next: Waiting | null }>();
  constructor(
    private readonly sync: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void,
  ) {}

  /**
   * Resolves once a count taken after this call has been sent (or failed and been reported): after the
   * next run that starts after the call, so at most the run under way and one more, however many
   * requests keep arriving meanwhile.
   */
  request(key: string): Promise<void> {
    let state = this.state.get(key);
    if (!state) this.state.set(key, (state = { running: false, next: null }));
    if (!state.next) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      state.next = { done, resolve };
    }
    const { done } = state.next;
    if (!state.running) void this.drain(key, state);
    return done;
  }

  private async drain(key: string, state: { running: boolean; next: Waiting | null }): Promise<void> {
    state.running = true;
    try {
      while (state.next) {
        const run = state.next;
        state.next = null;
        try {
          await this.sync(key);
        } catch (err) {
          this.onError(key, err);
        }
        run.resolve();
      }
    } finally {
      state.running = false;
      this.state.delete(key);
    }
  }
}
