// The entry file of every worker thread of the pool (piscina loads it): runs one export of a task module,
// tells the caller when the task starts (its time limit counts from then: not while it queued, nor while a
// new thread loaded the task's module), and answers what the export returned. A task's module is loaded
// once per thread and kept.
import type { MessagePort } from "node:worker_threads";

export interface TaskMessage {
  /** Absolute path of a compiled CommonJS module. */
  module: string;
  /** The name of its export to call. */
  fn: string;
  args: unknown[];
  /** Told `"started"` as the task begins. */
  port: MessagePort;
}

export default async function runTask({ module, fn, args, port }: TaskMessage): Promise<unknown> {
  let task: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    task = (require(module) as Record<string, unknown>)[fn];
  } finally {
    port.postMessage("started");
    port.close();
  }
  if (typeof task !== "function") throw new Error(`The worker task module has no function ${fn}.`);
  return await (task as (...a: unknown[]) => unknown)(...args);
}
