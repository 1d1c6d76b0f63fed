// Worker *processes* for the pool's tasks (WorkerPool with isolation "process"): each forked in a session of
// its own (setsid, `detached`), so that on Linux with autogroup scheduling (most desktop and server kernels)
// the CPU its task burns competes as one group against the service process's group, instead of as one more
// thread beside every process of the instance. Same limits as the threads: time from the task's start (the
// process is killed and replaced), heap (--max-old-space-size; past it V8 ends the process), queue.
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ProcessAnswer, ProcessTaskMessage } from "./process-worker";

export interface ProcessPoolErrors {
  timeout(limitMs: number): Error;
  memory(): Error;
  busy(): Error;
  failed(message: string): Error;
}

interface Job {
  message: ProcessTaskMessage;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  startTimer?: NodeJS.Timeout;
}

interface Worker {
  child: ChildProcess;
  job?: Job;
  /** The end of what the process wrote to stderr (V8 tells a heap overflow there). */
  stderr: string;
  timer?: NodeJS.Timeout;
}

/** The entry file of the processes: next to this one once built; dist/'s when this runs from the TypeScript sources. */
function entryFile(): string {
  const here = join(__dirname, "process-worker.js");
  return existsSync(here) ? here : join(__dirname, "..", "dist", "process-worker.js");
}

export class ProcessPool {
  private readonly workers: Worker[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(
    private readonly options: { processes: number; memoryMb: number; maxQueue: number; autogroupNice: number },
    private readonly errors: ProcessPoolErrors,
  ) {}

  /** Tasks running or waiting. */
  get inFlight(): number {
    return this.queue.length + this.workers.filter((w) => w.job).length;
  }

  run(message: ProcessTaskMessage, timeoutMs: number, startWithinMs: number | undefined): Promise<unknown> {
    if (this.closed) return Promise.reject(this.errors.failed("The worker pool is closed."));
    if (this.inFlight >= this.options.processes + this.options.maxQueue) return Promise.reject(this.errors.busy());
    return new Promise((resolve, reject) => {
      const job: Job = { message, timeoutMs, resolve, reject };
      if (startWithinMs !== undefined) {
        job.startTimer = setTimeout(() => {
          const at = this.queue.indexOf(job);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(this.errors.busy());
          }
        }, startWithinMs);
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Hands waiting tasks to idle processes (starting processes up to the limit). Never throws: it also runs from the processes' events. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.workers.find((w) => !w.job);
      const job = this.queue[0];
      try {
        if (!worker) {
          if (this.workers.length >= this.options.processes) return;
          worker = this.spawn();
        }
        this.queue.shift();
        if (job.startTimer) clearTimeout(job.startTimer);
        worker.job = job;
        worker.child.channel?.ref();
        // Serializes the arguments here (a value that cannot be copied throws).
        worker.child.send(job.message);
      } catch (err) {
        if (this.queue[0] === job) this.queue.shift();
        if (job.startTimer) clearTimeout(job.startTimer);
        if (worker?.job === job) {
          worker.job = undefined;
          worker.child.channel?.unref();
        }
        job.reject(err instanceof Error ? err : this.errors.failed(String(err)));
      }
    }
  }

  private spawn(): Worker {
    const child = fork(entryFile(), [], {
      // setsid(): a session, so an autogroup, of its own.
      detached: true,
      serialization: "advanced",
      execArgv: [`--max-old-space-size=${this.options.memoryMb}`],
      stdio: ["ignore", "inherit", "pipe", "ipc"],
      env: { ...process.env, DOCSHELF_WORKER_AUTOGROUP_NICE: String(this.options.autogroupNice) },
    });
    // Never what keeps this process running: it ends with its IPC channel.
    child.unref();
    const worker: Worker = { child, stderr: "" };
    child.stderr?.on("data", (chunk: Buffer) => {
      worker.stderr = (worker.stderr + String(chunk)).slice(-2000);
    });
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    child.on("message", (answer: ProcessAnswer) => this.answered(worker, answer));
    child.on("exit", (code, signal) => this.exited(worker, code, signal));
    child.on("error", () => undefined);
    this.workers.push(worker);
    return worker;
  }

  private answered(worker: Worker, answer: ProcessAnswer): void {
    const job = worker.job;
    if (!job) return;
    if (answer.kind === "started") {
      worker.timer = setTimeout(() => {
        this.retire(worker);
        job.reject(this.errors.timeout(job.timeoutMs));
      }, job.timeoutMs);
      return;
    }
    if (worker.timer) clearTimeout(worker.timer);
    worker.timer = undefined;
    worker.job = undefined;
    worker.child.channel?.unref();
    if (answer.kind === "done") job.resolve(answer.value);
    else {
      const err = new Error(answer.message);
      err.name = answer.name;
      job.reject(err);
    }
    this.dispatch();
  }

  private exited(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const job = worker.job;
    this.retire(worker);
    if (!job) return;
    if (/heap out of memory|Allocation failed|heap limit/i.test(worker.stderr) || signal === "SIGABRT" || signal === "SIGTRAP" || code === 134) job.reject(this.errors.memory());
    else job.reject(this.errors.failed(`The worker process ended (${signal ?? `exit code ${code}`}) while it ran the task.`));
  }

  /** Ends a worker's process and forgets it; the next task starts another. */
  private retire(worker: Worker): void {
    if (worker.timer) clearTimeout(worker.timer);
    worker.timer = undefined;
    worker.job = undefined;
    const at = this.workers.indexOf(worker);
    if (at >= 0) this.workers.splice(at, 1);
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    if (!this.closed) this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      if (job.startTimer) clearTimeout(job.startTimer);
      job.reject(this.errors.failed("The worker pool is closed."));
    }
    const exits = this.workers.map((w) => new Promise<void>((resolve) => (w.child.exitCode !== null || w.child.signalCode !== null ? resolve() : w.child.once("exit", () => resolve()))));
    for (const worker of [...this.workers]) {
      const job = worker.job;
      this.retire(worker);
      job?.reject(this.errors.failed("The worker pool is closed."));
    }
    await Promise.all(exits);
  }
}
