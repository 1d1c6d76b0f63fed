// Gauges whose value is read from somewhere (a count in the store, bytes on disk) rather than counted as
// things happen: read at start and then every `everyMs`, and set on the broker's metrics, which the
// Prometheus endpoint (METRICS_PORT) shows. Nothing is read when metrics are off.
import type { ServiceBroker } from "moleculer";

/** The gauges services sample; named here so the dashboard (deploy/grafana) and the docs have one list. */
export const JOB_QUEUE_DEPTH = "docshelf_job_queue_depth";
export const STORE_SIZE_BYTES = "docshelf_store_size_bytes";

export interface SampledGaugeOptions {
  name: string;
  description: string;
  labelNames: string[];
  everyMs: number;
  /** The current values, one per label set; a throw keeps the previous values. */
  sample: () => Promise<Array<{ labels: Record<string, string>; value: number }>>;
}

/** Starts sampling; the returned function stops it. Several services of one process may share a gauge (other labels). */
export function sampledGauge(broker: ServiceBroker, options: SampledGaugeOptions): () => void {
  if (!broker.isMetricsEnabled()) return () => undefined;
  if (!broker.metrics.hasMetric(options.name)) {
    broker.metrics.register({ type: "gauge", name: options.name, labelNames: options.labelNames, description: options.description });
  }
  let running = false;
  const read = async (): Promise<void> => {
    if (running) return; // a slow read (a large directory) is not started twice
    running = true;
    try {
      for (const { labels, value } of await options.sample()) broker.metrics.set(options.name, value, labels);
    } catch (err) {
      broker.logger.debug(`sampling ${options.name} failed: ${(err as Error)?.message}`);
    } finally {
      running = false;
    }
  };
  void read();
  const timer = setInterval(() => void read(), options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A durable queue's depth (JOB_QUEUE_DEPTH): its jobs pending and running, counted in the store every 15 s. */
export function jobQueueGauge(broker: ServiceBroker, queue: string, count: (state: "pending" | "running") => Promise<number>): () => void {
  return sampledGauge(broker, {
    name: JOB_QUEUE_DEPTH,
    description: "Jobs waiting or running in a durable queue, by queue and state",
    labelNames: ["queue", "state"],
    everyMs: 15_000,
    sample: async () => Promise.all((["pending", "running"] as const).map(async (state) => ({ labels: { queue, state }, value: await count(state) }))),
  });
}
