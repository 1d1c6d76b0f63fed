// Line diffs of a change request's pages against their base (jsdiff's Myers diff), with the work of
// one request bounded: a page is compared only when its sides are at most `maxLines` lines and differ
// by at most `maxEdits` lines (counted in linear time first, and enforced by jsdiff's
// `maxEditLength`), and one request compares at most `pages` pages of at most `lines` lines in all,
// spending at most `ms` milliseconds of diffing. Whatever is over a bound is "too large to show" with
// about how many lines changed. Myers costs about (n + m)·D, D the lines changed, so the bounds keep a
// page at a few milliseconds and a request at about `ms`. A request's diffs run together on a worker
// thread (`compareOffThread`), so even the linear work on large pages never holds the event loop; past the
// task's time limit the pages show "too large to show"; with every thread busy they are compared here, as
// bounded as before.
import { diffArrays } from "diff";
import { taskModule, WorkerBusyError, WorkerPoolError, type WorkerPool } from "@docshelf/worker-pool";

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/** A diff not shown: over a bound; `changed`, when known, the number of lines removed plus added (a lower bound). */
export interface DiffTooLarge {
  tooLarge: true;
  changed?: number;
}

export type PageDiff = DiffLine[] | DiffTooLarge;

export interface DiffLimits {
  /** Lines of one side above which a page is not compared. */
  maxLines: number;
  /** Lines changed (removed plus added) above which a page is not compared. */
  maxEdits: number;
}

/** The changes page: each page at most 5,000 lines a side and 200 changed lines. */
export const PAGE_LIMITS: DiffLimits = { maxLines: 5000, maxEdits: 200 };
/** One page's own diff (the link from "too large"): up to 20,000 lines a side and 600 changed lines. */
export const SINGLE_PAGE_LIMITS: DiffLimits = { maxLines: 20_000, maxEdits: 600 };

/** What one request may still spend on diffs; `lineDiff` draws on it. */
export interface DiffBudget {
  pages: number;
  lines: number;
  ms: number;
}

/** The budget of one changes page: 20 pages, 40,000 lines, 150 ms. */
export function requestBudget(): DiffBudget {
  return { pages: 20, lines: 40_000, ms: 150 };
}

export function isTooLarge(diff: PageDiff | null | undefined): diff is DiffTooLarge {
  return diff !== null && diff !== undefined && !Array.isArray(diff);
}

function linesOf(text: string): string[] {
  return text.split("\n");
}

/**
 * Lines in one side and not matched by an equal line in the other (removed plus added, counting
 * repeated lines as often as they occur): a lower bound of what any line diff marks, in linear time.
 */
export function changedLines(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of b) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of counts.values()) removed += n;
  return removed + added;
}

/**
 * The line diff of two texts, or "too large" with about how many lines changed. Results that depend
 * only on the texts and `limits` say so in `deterministic` (a budget or the clock did not decide them),
 * so they may be cached.
 */
export function lineDiff(before: string, after: string, budget?: DiffBudget, limits: DiffLimits = PAGE_LIMITS): PageDiff {
  return compare(before, after, budget, limits).diff;
}

export function compare(before: string, after: string, budget: DiffBudget | undefined, limits: DiffLimits): { diff: PageDiff; deterministic: boolean } {
  const a = linesOf(before);
  const b = linesOf(after);
  if (a.length > limits.maxLines || b.length > limits.maxLines) return { diff: { tooLarge: true, changed: changedLines(a, b) }, deterministic: true };
  const changed = changedLines(a, b);
  if (changed > limits.maxEdits) return { diff: { tooLarge: true, changed }, deterministic: true };
  if (changed === 0 && before === after) return { diff: a.map((text) => ({ kind: "same", text })), deterministic: true };
  if (budget) {
    if (budget.pages <= 0 || budget.lines < a.length + b.length || budget.ms <= 0) return { diff: { tooLarge: true, changed }, deterministic: false };
    budget.pages--;
    budget.lines -= a.length + b.length;
  }
  const started = performance.now();
  const parts = diffArrays(a, b, { maxEditLength: limits.maxEdits, ...(budget ? { timeout: Math.max(1, Math.ceil(budget.ms)) } : {}) });
  if (budget) budget.ms -= performance.now() - started;
  // Aborted: more edits than maxEdits (lines moved around: the counting above sees none of it), or out of time.
  if (!parts) return { diff: { tooLarge: true, changed }, deterministic: false };
  const out: DiffLine[] = [];
  for (const part of parts) {
    const kind = part.added ? "added" : part.removed ? "removed" : "same";
    for (const text of part.value) out.push({ kind, text });
  }
  return { diff: out, deterministic: true };
}

/** Two texts of one page to compare. */
export interface DiffJob {
  before: string;
  after: string;
}

/** `compare` of each job in turn, drawing on one budget: the worker task of `compareOffThread`. */
export function compareAll(jobs: DiffJob[], budget: DiffBudget | undefined, limits: DiffLimits): Array<{ diff: PageDiff; deterministic: boolean }> {
  return jobs.map((job) => compare(job.before, job.after, budget, limits));
}

/** How long one request's diffs may take on a worker thread before its thread is stopped. */
export const DIFF_TASK_TIMEOUT_MS = 2000;
/** How long they may wait for a thread (the threads may be busy with imports) before they run here instead. */
export const DIFF_START_WITHIN_MS = 500;

/**
 * `compareAll` on a worker thread of the process's pool, with DIFF_TASK_TIMEOUT_MS: the event loop that
 * answers requests only copies the texts there and the diffs back. Past the limit, or out of memory, every page
 * of the request is "too large to show" (not cached: another try may succeed). When no thread takes the task
 * within DIFF_START_WITHIN_MS (the pool busy with other work), it runs in this thread: its budget bounds it.
 */
export async function compareOffThread(workers: WorkerPool, jobs: DiffJob[], budget: DiffBudget | undefined, limits: DiffLimits): Promise<Array<{ diff: PageDiff; deterministic: boolean }>> {
  if (!jobs.length) return [];
  try {
    const answer = await workers.run<{ results: Array<{ diff: PageDiff; deterministic: boolean }>; left?: DiffBudget }>(taskModule(__dirname, "diff"), "compareAllTask", [jobs, budget, limits], {
      timeoutMs: DIFF_TASK_TIMEOUT_MS,
      startWithinMs: DIFF_START_WITHIN_MS,
    });
    // The budget was spent on a copy there: what is left counts here (a caller may diff more with it).
    if (budget && answer.left) Object.assign(budget, answer.left);
    return answer.results;
  } catch (err) {
    if (err instanceof WorkerBusyError) return compareAll(jobs, budget, limits);
    if (!(err instanceof WorkerPoolError)) throw err;
    return jobs.map(() => ({ diff: { tooLarge: true }, deterministic: false }));
  }
}

/** The worker task: `compareAll`, and what is left of the budget (the caller's copy does not see it spent). */
export function compareAllTask(jobs: DiffJob[], budget: DiffBudget | undefined, limits: DiffLimits): { results: Array<{ diff: PageDiff; deterministic: boolean }>; left?: DiffBudget } {
  return { results: compareAll(jobs, budget, limits), ...(budget ? { left: budget } : {}) };
}

/**
 * Diffs kept by the revisions and page they compare (revisions never change, so neither does the
 * diff): at most 500 entries holding at most 200,000 lines, least recently used dropped first.
 * Callers look a diff up only after the user's own reads of the change request were allowed.
 */
export class DiffCache {
  private readonly entries = new Map<string, { diff: PageDiff; lines: number }>();
  private lines = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly maxLines = 200_000,
  ) {}

  get(key: string): PageDiff | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.diff;
  }

  set(key: string, diff: PageDiff): void {
    const lines = Array.isArray(diff) ? diff.length : 1;
    if (lines > this.maxLines) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.lines -= old.lines;
    }
    this.entries.set(key, { diff, lines });
    this.lines += lines;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.lines <= this.maxLines) break;
      this.entries.delete(k);
      this.lines -= v.lines;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Lines of context kept around each change when a diff is shown. */
export const CONTEXT_LINES = 3;

export type ShownDiffLine = DiffLine | { kind: "skipped"; count: number };

/** A diff as shown: changed lines with `context` unchanged lines around them, longer unchanged runs folded. */
export function withContext(diff: DiffLine[], context = CONTEXT_LINES): ShownDiffLine[] {
  const near = new Uint8Array(diff.length);
  diff.forEach((l, i) => {
    if (l.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(diff.length - 1, i + context); j++) near[j] = 1;
  });
  const out: ShownDiffLine[] = [];
  let skipped = 0;
  diff.forEach((l, i) => {
    if (near[i]) {
      if (skipped) out.push({ kind: "skipped", count: skipped });
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped) out.push({ kind: "skipped", count: skipped });
  return out;
}
