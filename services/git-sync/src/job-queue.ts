// The durable per-space job queue. Jobs live in the store; any worker may run a space's jobs while it
// holds the space's lease, one at a time, oldest `timestamp` first; a job older than one already
// applied to the space is skipped. What wakes a worker (this process, or a channel message when
// scaled out) only says "look at this space": a lost wake-up is found by the next sweep.
import { ConflictError } from "@docshelf/errors";
import { op, type Collection } from "@docshelf/store";
import type { JobDoc, LeaseDoc, LinkDoc } from "./models";

export interface JobOutcome {
  /** Advances the space's applied timestamp (a job that changed the space or the repository). */
  applied: boolean;
  fields: Partial<JobDoc>;
  /** Changes to the space's link when applied (unless the job saved them itself through `saveLink`). */
  link?: Partial<LinkDoc>;
  /** The job saved its link changes itself (LinkSaver), at the point where its other write could still be undone. */
  linkSaved?: boolean;
}

/**
 * Saves a job's changes to the space's link now (advancing its applied timestamp) and gives back what
 * undoes exactly that: a job whose second write (moving the space, pushing) fails after its link was
 * saved puts the link back as it was, so content, repository and link change together or not at all.
 */
export type LinkSaver = (fields: Partial<LinkDoc>) => Promise<() => Promise<void>>;

export interface QueueStores {
  jobs: Collection<JobDoc>;
  links: Collection<LinkDoc>;
  leases: Collection<LeaseDoc>;
}

export interface QueueOptions {
  /** This worker's name in leases. */
  holder: string;
  leaseMs: number;
  /** Runs a job; `signal` aborts when the worker stops (the job then waits for the next start). */
  run: (job: JobDoc, signal: AbortSignal, saveLink: LinkSaver) => Promise<JobOutcome>;
  /** A run that threw: the job fails with this (scrubbed) message. */
  describeFailure: (job: JobDoc, err: unknown) => { code: string; message: string };
  onError?: (err: unknown, spaceId: string) => void;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class JobQueue {
  /** Spaces this worker is draining now, and whether someone knocked meanwhile. */
  private readonly draining = new Map<string, { again: boolean; done: Promise<void> }>();
  private stopped = false;
  private readonly shutdown = new AbortController();

  constructor(
    private readonly stores: QueueStores,
    private readonly options: QueueOptions,
  ) {}

  /** Runs the space's waiting jobs here unless another worker holds its lease. */
  wake(spaceId: string): Promise<void> {
    const current = this.draining.get(spaceId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = this.drain(spaceId, state)
      .catch((err: unknown) => this.options.onError?.(err, spaceId))
      .finally(() => this.draining.delete(spaceId));
    this.draining.set(spaceId, state);
    return state.done;
  }

  /** Interrupts running jobs (they go back to pending, for the next start) and resolves when nothing runs here. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.shutdown.abort();
    await Promise.all([...this.draining.values()].map((s) => s.done));
  }

  /** Spaces with work waiting: pending jobs, and running jobs whose worker stopped renewing. */
  async spacesWithWork(limit = 200): Promise<string[]> {
    const now = iso(Date.now());
    const stale = await this.stores.jobs.find({ status: "running", leaseUntil: op.lt(now) }, { limit });
    for (const job of stale) {
      await this.stores.jobs.updateOne({ id: job.id, status: "running", leaseUntil: job.leaseUntil }, { $set: { status: "pending", updatedAt: now } });
    }
    const pending = await this.stores.jobs.find({ status: "pending" }, { limit });
    return [...new Set([...stale, ...pending].map((j) => j.spaceId))];
  }

  private async acquire(spaceId: string): Promise<boolean> {
    const until = iso(Date.now() + this.options.leaseMs);
    try {
      await this.stores.leases.insert({ id: spaceId, holder: this.options.holder, until });
      return true;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
    const taken = await this.stores.leases.updateOne({ id: spaceId, until: op.lt(iso(Date.now())) }, { $set: { holder: this.options.holder, until } });
    return !!taken;
  }

  private async release(spaceId: string): Promise<void> {
    await this.stores.leases.deleteOne({ id: spaceId, holder: this.options.holder });
  }

  private async nextJob(spaceId: string): Promise<JobDoc | null> {
    const [job] = await this.stores.jobs.find({ spaceId, status: "pending" }, { sort: [["timestamp", 1], ["createdAt", 1]], limit: 1 });
    return job ?? null;
  }

  private async drain(spaceId: string, state: { again: boolean }): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      state.again = false;
      if (!(await this.acquire(spaceId))) return; // its holder runs them, or the sweep finds them when its lease lapses
      try {
        for (let job = await this.nextJob(spaceId); job && !this.stopped; job = await this.nextJob(spaceId)) await this.runOne(job);
      } finally {
        await this.release(spaceId);
      }
      // A job queued between the last look and the release would otherwise wait for the sweep.
      if (!state.again && !(await this.nextJob(spaceId))) return;
    }
  }

  private async runOne(job: JobDoc): Promise<void> {
    const link = await this.stores.links.findOne({ id: job.spaceId });
    const now = () => iso(Date.now());
    if (link && job.timestamp < link.lastTimestamp) {
      await this.stores.jobs.updateOne(
        { id: job.id },
        { $set: { status: "skipped", completedAt: now(), updatedAt: now(), error: "A newer import or export of this space was already applied." }, $unset: ["sealedCredentials"] },
      );
      return;
    }
    const leaseUntil = () => iso(Date.now() + this.options.leaseMs);
    const claimed = await this.stores.jobs.updateOne({ id: job.id, status: "pending" }, { $set: { status: "running", startedAt: now(), updatedAt: now(), leaseUntil: leaseUntil() } });
    if (!claimed) return;
    const renew = setInterval(() => {
      void this.stores.leases.updateOne({ id: job.spaceId, holder: this.options.holder }, { $set: { until: leaseUntil() } }).catch(() => undefined);
      void this.stores.jobs.updateOne({ id: job.id, status: "running" }, { $set: { leaseUntil: leaseUntil() } }).catch(() => undefined);
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    renew.unref();
    try {
      const outcome = await this.options.run(claimed, this.shutdown.signal, (fields) => this.saveLink(claimed, fields));
      if (outcome.applied && !outcome.linkSaved) await this.applyToLink(claimed, outcome.link ?? {});
      await this.stores.jobs.updateOne({ id: job.id }, { $set: { ...outcome.fields, status: "succeeded", stage: "finalize", completedAt: now(), updatedAt: now() }, $unset: ["sealedCredentials", "leaseUntil"] });
    } catch (err) {
      if (this.stopped) {
        // Interrupted by shutdown: not the job's fault. It waits, credentials and all, for the next start.
        await this.stores.jobs.updateOne({ id: job.id }, { $set: { status: "pending", updatedAt: now() }, $unset: ["leaseUntil"] });
        return;
      }
      const failure = this.options.describeFailure(claimed, err);
      await this.stores.jobs.updateOne(
        { id: job.id },
        { $set: { status: "failed", error: failure.message, errorCode: failure.code, completedAt: now(), updatedAt: now() }, $unset: ["sealedCredentials", "leaseUntil"] },
      );
    } finally {
      clearInterval(renew);
    }
  }

  private async saveLink(job: JobDoc, fields: Partial<LinkDoc>): Promise<() => Promise<void>> {
    const before = await this.stores.links.findOne({ id: job.spaceId });
    await this.applyToLink(job, fields);
    return async () => {
      if (!before) {
        await this.stores.links.deleteOne({ id: job.spaceId });
        return;
      }
      const keys = [...Object.keys(fields), "lastTimestamp", "updatedAt"] as Array<keyof LinkDoc>;
      const set: Record<string, unknown> = {};
      const unset: string[] = [];
      for (const key of keys) {
        if (key === "id") continue;
        if (before[key] === undefined) unset.push(key);
        else set[key] = before[key];
      }
      await this.stores.links.updateOne({ id: job.spaceId }, { $set: set as Partial<LinkDoc>, $unset: unset });
    };
  }

  private async applyToLink(job: JobDoc, fields: Partial<LinkDoc>): Promise<void> {
    const now = iso(Date.now());
    const updated = await this.stores.links.updateOne({ id: job.spaceId }, { $set: { ...fields, lastTimestamp: job.timestamp, updatedAt: now } });
    if (!updated) {
      await this.stores.links.insert({
        id: job.spaceId,
        organizationId: job.organizationId,
        url: job.params.url,
        ref: job.params.ref,
        repoName: "",
        lastTimestamp: job.timestamp,
        createdAt: now,
        updatedAt: now,
        ...fields,
      });
    }
  }
}
