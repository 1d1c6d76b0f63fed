// Keeps a derived count in step with writes: one run at a time per key, and a run requested while one
// is under way runs again afterwards, so the last value sent was taken after the last write.
export class CountSync {
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();

  constructor(
    private readonly sync: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void,
  ) {}

  /** Resolves once a count taken after this call has been sent (or failed and been reported). */
  request(key: string): Promise<void> {
    const run = this.running.get(key);
    if (run) {
      run.again = true;
      return run.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          try {
            await this.sync(key);
          } catch (err) {
            this.onError(key, err);
          }
        } while (state.again);
      } finally {
        this.running.delete(key);
      }
    })();
    this.running.set(key, state);
    return state.done;
  }
}
