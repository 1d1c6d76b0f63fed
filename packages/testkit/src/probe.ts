// Another tenant's reads during an attack (issue 36): the resource-exhaustion suites and bench/tenant-isolation.
import type { ApiClient } from "./http";

export interface Latencies {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Requests that did not answer 200. */
  failures: number;
}

/**
 * Polls `GET path` as `api` back to back (a short pause between), in `loops` loops at once, until `stop()` is
 * called; `stop()` waits for the requests in flight and answers the latencies seen. One loop sees a stall of
 * the server once (its request waits it out); several loops see it as several slow reads, so a percentile
 * over them catches even a single stall.
 */
export function probe(api: ApiClient, path: string, loops = 1): { stop(): Promise<Latencies> } {
  const times: number[] = [];
  let failures = 0;
  let running = true;
  const loop = async () => {
    while (running) {
      const started = performance.now();
      const res = await api.get(path).catch(() => undefined);
      times.push(performance.now() - started);
      if (res?.status !== 200) failures++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const all = Promise.all(Array.from({ length: loops }, loop));
  return {
    async stop() {
      running = false;
      await all;
      const sorted = [...times].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
      return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, failures };
    },
  };
}
