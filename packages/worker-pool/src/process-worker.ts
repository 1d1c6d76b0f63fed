// The entry file of every worker process of a ProcessPool (forked in a session of its own): runs one export
// of a task module per message, tells the parent when the task starts (its time limit counts from then), and
// answers what the export returned or the error it threw. A task's module is loaded once per process and
// kept. The process ends with its parent: when the IPC channel closes (the parent exited or closed the pool).

export interface ProcessTaskMessage {
  module: string;
  fn: string;
  args: unknown[];
}

export type ProcessAnswer = { kind: "started" } | { kind: "done"; value: unknown } | { kind: "failed"; name: string; message: string };

const send = (answer: ProcessAnswer) => new Promise<void>((resolve) => process.send!(answer, undefined, {}, () => resolve()));

process.on("disconnect", () => process.exit(0));
process.on("message", (message: ProcessTaskMessage) => {
  void (async () => {
    let task: unknown;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      task = (require(message.module) as Record<string, unknown>)[message.fn];
    } catch (err) {
      await send({ kind: "started" });
      await send({ kind: "failed", name: (err as Error).name ?? "Error", message: (err as Error).message ?? String(err) });
      return;
    }
    await send({ kind: "started" });
    try {
      if (typeof task !== "function") throw new Error(`The worker task module has no function ${message.fn}.`);
      const value = await (task as (...a: unknown[]) => unknown)(...message.args);
      await send({ kind: "done", value });
    } catch (err) {
      await send({ kind: "failed", name: (err as Error)?.name ?? "Error", message: (err as Error)?.message ?? String(err) });
    }
  })();
});
