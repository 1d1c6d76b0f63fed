// The entry file of every worker process of a ProcessPool (forked in a session of its own): runs one export
// of a task module per message, tells the parent when the task starts (its time limit counts from then), and
// answers what the export returned or the error it threw. A task's module is loaded once per process and
// kept. The process ends with its parent: when the IPC channel closes (the parent exited or closed the pool).

import { writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

export interface ProcessTaskMessage {
  module: string;
  fn: string;
  args: unknown[];
}

export type ProcessAnswer = { kind: "started" } | { kind: "done"; value: unknown } | { kind: "failed"; name: string; message: string };

const send = (answer: ProcessAnswer) => new Promise<void>((resolve) => process.send!(answer, undefined, {}, () => resolve()));

process.on("disconnect", () => process.exit(0));

// When DOCSHELF_WORKER_AUTOGROUP_NICE is positive (the pool's PROCESS_AUTOGROUP_NICE, 0 for now), below the
// service's processes in the scheduler's eyes: on Linux the session's autogroup at that nice (10: weight 110
// against a group's 1,024 at 0). Elsewhere (no /proc/self/autogroup,
// or autogroup off) the process keeps its priority, and lowers its own nice instead.
{
  const nice = Number(process.env.DOCSHELF_WORKER_AUTOGROUP_NICE ?? "0");
  if (nice > 0) {
    try {
      writeFileSync("/proc/self/autogroup", String(nice));
    } catch {
      try {
        setPriority(Math.min(19, getPriority() + nice));
      } catch {
        // not allowed here: the process keeps its priority
      }
    }
  }
}
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
