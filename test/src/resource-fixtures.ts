// Fixtures of the resource-exhaustion suites (issue 36): another organization's member keeps reading its
// own space while an attack runs, and the suite checks how long those reads waited.
import type { ApiClient } from "@docshelf/testkit";

export interface Latencies {
  count: number;
  max: number;
  p99: number;
  /** Requests that did not answer 200. */
  failures: number;
}

/**
 * Polls `GET path` as `api` back to back (a short pause between) until `stop()` is called; `stop()` waits
 * for the request in flight and answers the latencies seen.
 */
export function probe(api: ApiClient, path: string): { stop(): Promise<Latencies> } {
  const times: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await api.get(path).catch(() => undefined);
      times.push(performance.now() - started);
      if (res?.status !== 200) failures++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      return { count: sorted.length, max: sorted.at(-1) ?? 0, p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0, failures };
    },
  };
}

/** Polls `check` every 50 ms until it answers something other than undefined, or fails after `ms`. */
export async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
