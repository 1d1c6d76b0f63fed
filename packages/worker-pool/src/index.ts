// A process's pool of worker threads for work that can run long on untrusted input (an import's files
// turned into pages, an OpenAPI spec validated): the work leaves the event loop that answers requests, so
// one tenant's heavy input never delays another tenant's requests. Built on piscina, which keeps the
// threads (started on first use, at most `threads`), bounds its queue, passes `resourceLimits` to every
// thread and ends the thread of an aborted task, starting another in its place. This module adds the time
// limit of one task (counted from when it starts running), errors that say which limit was hit, and a
// limit of tasks at once per key (an organization) for background jobs.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { ProcessPool } from "./process-pool";
import type { TaskMessage } from "./worker";

export interface WorkerPoolOptions {
  /** Threads at most (started as tasks come, kept while the process runs). */
  threads: number;
  /** How long one task may run before its thread is ended and the task fails with WorkerTimeoutError. */
  taskTimeoutMs: number;
  /** The V8 heap (old generation) of each thread, in MiB; past it the task fails with WorkerMemoryError. */
  memoryMb: number;
  /** Tasks that may wait for a thread; one more fails with WorkerBusyError at once. */
  maxQueue: number;
  /**
   * Where tasks run: worker threads of this process ("thread", the default), or worker processes each in a
   * session of its own ("process": on Linux its CPU then competes as its own autogroup, see process-pool.ts).
   * `threads` is then the count of processes.
   */
  isolation?: WorkerIsolation;
}

export type WorkerIsolation = "thread" | "process";

/** The threads' default count: one core less than the machine has (the event loop keeps one), one at least, two at most. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

export const DEFAULT_OPTIONS: Readonly<WorkerPoolOptions> = Object.freeze({
  threads: defaultThreads(),
  taskTimeoutMs: 60_000,
  memoryMb: 512,
  maxQueue: 64,
});

/** How much lower than the process the worker threads run (nice), so requests win a contended core. */
export const NICE_INCREMENT = 10;

/**
 * The autogroup nice of worker processes (isolation "process"). 0: at 10, on a two-core machine shared with other
 * busy sessions, a page read as a document on a worker process timed out (10 s) where at 0 it took 6 s, as
 * threads at nice +19 starved imports before: a low group weight starves the worker whenever other sessions are busy.
 */
export const PROCESS_AUTOGROUP_NICE = 0;

/** Base of the pool's own failures (not the task's): each names the limit it hit. */
export class WorkerPoolError extends Error {
  constructor(
    message: string,
    readonly code: "WORKER_TIMEOUT" | "WORKER_OUT_OF_MEMORY" | "WORKER_BUSY" | "WORKER_FAILED",
  ) {
    super(message);
    this.name = "WorkerPoolError";
  }
}

/** The task ran past its time limit; its thread was ended. */
export class WorkerTimeoutError extends WorkerPoolError {
  constructor(readonly limitMs: number) {
    super(`The work took longer than its limit of ${limitMs} ms and was stopped.`, "WORKER_TIMEOUT");
  }
}

/** The task needed more memory than a worker thread has; its thread ended. */
export class WorkerMemoryError extends WorkerPoolError {
  constructor(readonly limitMb: number) {
    super(`The work needed more than its memory limit of ${limitMb} MiB and was stopped.`, "WORKER_OUT_OF_MEMORY");
  }
}

/** Every thread is busy and the queue is full: try again later (a 503). */
export class WorkerBusyError extends WorkerPoolError {
  constructor(readonly maxQueue: number) {
    super(`The instance is busy (${maxQueue} tasks already wait for a worker); try again later.`, "WORKER_BUSY");
  }
}

/** The pool's entry file: next to this one once built; dist/'s when this runs from the TypeScript sources (unit tests). */
function workerFile(): string {
  const here = join(__dirname, "worker.js");
  return existsSync(here) ? here : join(__dirname, "..", "dist", "worker.js");
}

/**
 * The path of a task module named `name` (no extension) in `dir` (its caller's `__dirname`): the compiled
 * `.js` beside the caller once built; the `.ts` source when the caller runs from its sources (unit tests),
 * which WorkerPool.run then runs in the calling thread.
 */
export function taskModule(dir: string, name: string): string {
  const js = join(dir, `${name}.js`);
  return existsSync(js) ? js : join(dir, `${name}.ts`);
}

/** Limits of one task, beside the pool's own. */
export interface RunLimits {
  /** How long the task may run (from when it starts on a thread); the pool's taskTimeoutMs when not given. */
  timeoutMs?: number;
  /** How long the task may wait for a thread; past it it fails with WorkerBusyError and never runs. No bound when not given. */
  startWithinMs?: number;
}

export class WorkerPool {
  private piscina: Piscina | undefined;
  private processPool: ProcessPool | undefined;
  private closed = false;
  /** Tasks given to piscina and not yet ended: running or waiting. */
  private inFlight = 0;

  constructor(readonly options: WorkerPoolOptions) {
    if (!(options.threads >= 1 && options.taskTimeoutMs >= 1 && options.memoryMb >= 1 && options.maxQueue >= 0)) throw new Error("WorkerPool: every limit must be positive.");
  }

  /** The piscina, made on first use: a process that never runs such work starts no thread. */
  private threads(): Piscina {
    if (this.closed) throw new WorkerPoolError("The worker pool is closed.", "WORKER_FAILED");
    if (!this.piscina) {
      this.piscina = new Piscina({
        filename: workerFile(),
        minThreads: 0,
        maxThreads: this.options.threads,
        // Kept while the process runs: starting a thread (and loading a task's modules) costs tens of ms.
        idleTimeout: 2 ** 31 - 1,
        resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
        // Below the threads that answer requests in the scheduler's eyes (Linux: per thread, through piscina's
        // optional @napi-rs/nice; where it is missing the threads keep the process's priority).
        niceIncrement: NICE_INCREMENT,
      });
      // A thread that fails with no task on it: piscina replaces it; nothing to tell a caller.
      this.piscina.on("error", () => undefined);
    }
    return this.piscina;
  }

  /** The worker processes (isolation "process"), made on first use. */
  private processes(): ProcessPool {
    if (this.closed) throw new WorkerPoolError("The worker pool is closed.", "WORKER_FAILED");
    this.processPool ??= new ProcessPool(
      { processes: this.options.threads, memoryMb: this.options.memoryMb, maxQueue: this.options.maxQueue, autogroupNice: PROCESS_AUTOGROUP_NICE },
      {
        timeout: (limitMs) => new WorkerTimeoutError(limitMs),
        memory: () => new WorkerMemoryError(this.options.memoryMb),
        busy: () => new WorkerBusyError(this.options.maxQueue),
        failed: (message) => new WorkerPoolError(message, "WORKER_FAILED"),
      },
    );
    return this.processPool;
  }

  /**
   * Runs `fn` of the compiled module at `module` (an absolute path) with `args` on a worker thread and answers
   * what it returned. Arguments and result are copied (structured clone). The task's own errors come back as
   * thrown there (name and message; other fields of an Error are not kept: a task that fails with domain
   * errors should answer them as data). The pool's own failures are WorkerPoolError subclasses.
   *
   * A module that is not compiled JavaScript (a `.ts` file: unit tests running the sources) runs in this thread.
   * `limits.timeoutMs` replaces the pool's time limit for this task; `limits.startWithinMs` bounds how long it
   * may wait for a thread (past it, it fails with WorkerBusyError, never started): for work a request waits for.
   */
  async run<T>(module: string, fn: string, args: unknown[], limits: RunLimits = {}): Promise<T> {
    if (module.endsWith(".ts")) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (await (require(module) as Record<string, (...a: unknown[]) => unknown>)[fn](...args)) as T;
    }
    if (this.options.isolation === "process") return (await this.processes().run({ module, fn, args }, limits.timeoutMs ?? this.options.taskTimeoutMs, limits.startWithinMs)) as T;
    const piscina = this.threads();
    // The queue's bound is kept here (piscina's own maxQueue lets tasks wait beside a thread's current one uncounted).
    if (this.inFlight >= this.options.threads + this.options.maxQueue) throw new WorkerBusyError(this.options.maxQueue);
    this.inFlight++;
    const timeoutMs = limits.timeoutMs ?? this.options.taskTimeoutMs;
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let timedOut = false;
    let notStarted = false;
    let timer: NodeJS.Timeout | undefined;
    if (limits.startWithinMs !== undefined) {
      timer = setTimeout(() => {
        notStarted = true;
        abort.abort();
      }, limits.startWithinMs);
    }
    port1.once("message", () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, timeoutMs);
    });
    port1.unref();
    const message: TaskMessage = { module, fn, args, port: port2 };
    try {
      return (await piscina.run(message, { transferList: [port2], signal: abort.signal })) as T;
    } catch (err) {
      if (timedOut) throw new WorkerTimeoutError(timeoutMs);
      if (notStarted) throw new WorkerBusyError(this.options.maxQueue);
      const code = (err as { code?: unknown }).code;
      if (code === "ERR_WORKER_OUT_OF_MEMORY") throw new WorkerMemoryError(this.options.memoryMb);
      throw err;
    } finally {
      this.inFlight--;
      if (timer) clearTimeout(timer);
      port1.close();
    }
  }

  /** Ends every thread (tasks running fail). */
  async close(): Promise<void> {
    this.closed = true;
    const piscina = this.piscina;
    const processes = this.processPool;
    this.piscina = undefined;
    this.processPool = undefined;
    await Promise.all([piscina?.destroy(), processes?.close()]);
  }
}

/**
 * At most `limit` tasks at once per key (an organization); the others wait their turn in order. Background
 * jobs of one organization go through it so that organization can't hold every thread of the pool.
 */
export class KeyedLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error("KeyedLimiter: the limit must be at least 1.");
  }

  /** Tasks of `key` running now. */
  active(key: string): number {
    return this.running.get(key) ?? 0;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.active(key) >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(key) ?? [];
        queue.push(resolve);
        this.waiting.set(key, queue);
      });
    } else {
      this.running.set(key, this.active(key) + 1);
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.get(key)?.shift();
      if (next) {
        // The slot passes to the next waiter as it is.
        if (this.waiting.get(key)?.length === 0) this.waiting.delete(key);
        next();
      } else {
        const left = this.active(key) - 1;
        if (left > 0) this.running.set(key, left);
        else this.running.delete(key);
      }
    }
  }
}

let shared: WorkerPool | undefined;

/**
 * The process's pool, made by the first call with its options (every service of the process shares it:
 * in one-process mode they all share the same threads). Later calls answer the same pool.
 */
export function sharedWorkerPool(options: WorkerPoolOptions = DEFAULT_OPTIONS): WorkerPool {
  shared ??= new WorkerPool(options);
  return shared;
}

/** Closes the process's pool (a process stopping, or a test's). The next sharedWorkerPool() makes a new one. */
export async function closeSharedWorkerPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
