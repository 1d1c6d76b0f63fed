// Git sync: import a repository into a space and export a space to a repository, as durable jobs
// run one at a time per space in event order. This file holds the schema's lifecycle, events,
// channels and shared methods; the actions are in jobs.actions.ts and integration.actions.ts.
import type * as events from "@docshelf/contracts/events";
import { call, type PayloadOf } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Context, Service, ServiceSchema } from "moleculer";
import { configFor, natsConnectionOptions } from "@docshelf/config";
import { atLeast, type RoleOrGuest } from "@docshelf/access";
import { ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { jobQueueGauge, readJson } from "@docshelf/runtime";
import { newId, newSecret, storeMixin } from "@docshelf/store";
import { CredentialSealer, repoNameOf, scrub } from "./credentials";
import { integrationActions } from "./integration.actions";
import { JobQueue, type LinkSaver } from "./job-queue";
import { jobActions } from "./jobs.actions";
import { mergeExportJob, type MergedEvent } from "./merge-export";
import { collections, type JobDoc, type LinkDoc } from "./models";
import { gitSyncStateOf } from "./present";
import { describeJobError, runExport, runImport, type JobDeps, type Snapshot } from "./run-job";
import type { GitSyncService, Methods, Vars } from "./service-types";
import { MERGED_CHANNEL, startWakeChannel, WAKE_CHANNEL } from "./wake-channel";

export function gitSyncSchema(): ServiceSchema {
  const schema: ServiceSchema<Record<string, unknown>, Methods, Vars> = {
    name: "git-sync",
    mixins: [storeMixin(collections)],

    actions: {
      ...jobActions,
      ...integrationActions,
    },

    events: {
      // A merged change request is exported to the space's repository when one is set up for export.
      "change-requests.merged": {
        async handler(this: GitSyncService, ctx: Context<MergedEvent>) {
          await this.exportMerged(ctx.params);
        },
      },

      // A space moved to another organization: its link (and the redirects sites shows) goes with it.
      "content.space.transferred": {
        async handler(this: GitSyncService, ctx: Context<PayloadOf<typeof events.contentSpaceTransferred>>) {
          await this.links.updateOne({ id: ctx.params.spaceId }, { $set: { organizationId: ctx.params.toOrganizationId } });
        },
      },

      // A deleted space's jobs stop mattering; its link goes with it.
      "content.space.purged": {
        async handler(this: GitSyncService, ctx: Context<PayloadOf<typeof events.contentSpacePurged>>) {
          await this.links.deleteOne({ id: ctx.params.spaceId });
          await this.jobs.deleteMany({ spaceId: ctx.params.spaceId });
        },
      },
    },

    methods: {
      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      async access(ctx: Context, spaceId: string, min: "read" | "edit" | "admin", doing: string) {
        const access = await content.spaceAccessOf(ctx, spaceId);
        if (!access.exists || !access.role || !access.organizationId) throw new NotFoundError(`Space ${spaceId} was not found.`);
        if (!atLeast(access.role as RoleOrGuest, min)) throw new ForbiddenError(`${doing} needs the ${min} role or better on the space.`);
        return { ...access, organizationId: access.organizationId };
      },

      async exportMerged(merged: MergedEvent) {
        const job = mergeExportJob(await this.links.findOne({ id: merged.spaceId }), merged, new Date());
        if (!job) return;
        // Every git-sync replica hears the broadcast; the job's id is the change request's, so the first insert wins.
        try {
          await this.jobs.insert(job);
        } catch (err) {
          if (err instanceof ConflictError) return;
          throw err;
        }
        await this.wake(merged.spaceId);
      },

      /** Sends the space's GitSyncState (or its removal) to content, which shows it as the space's `gitSync`. */
      async pushGitSync(spaceId: string, link: LinkDoc | null) {
        const state = link ? { ...gitSyncStateOf(link), repoName: link.repoName || repoNameOf(link.url) } : null;
        try {
          await call(this.broker, content.setGitSync, { spaceId, gitSync: state });
        } catch (err) {
          // A copy for display: the link stays the record, and the next request pushes it again.
          this.logger.warn({ spaceId, error: String((err as Error)?.message) }, "the space's gitSync field could not be updated");
        }
      },

      async runJob(job: JobDoc, signal: AbortSignal, saveLink: LinkSaver) {
        const credentials = job.sealedCredentials ? this.sealer.open(job.sealedCredentials) ?? undefined : undefined;
        if (job.sealedCredentials && !credentials) throw new Error("The job's credentials cannot be opened with this service's secret.");
        const deps: JobDeps = {
          signal,
          settings: this.gitSettings,
          workDir: this.workDir,
          snapshot: async (spaceId, options = {}) => {
            const stream = await call(this.broker, content.gitSnapshot, { spaceId, ...options }, { timeout: 0 });
            return readJson<Snapshot>(stream);
          },
          importTree: (spaceId, move, body) =>
            call(this.broker, content.gitImport, { spaceId, move }, { stream: body, timeout: 0 }),
          // The space's current revision, without a caller's membership (a job resumed at start-up runs before orgs answers).
          currentRevision: async (spaceId) => (await call(this.broker, content.publishedHeads, { spaceIds: [spaceId] }))[0]?.revisionId ?? null,
          moveSpace: async (spaceId, expected, revision) => {
            await call(this.broker, content.commitRevision, { spaceId, expectedRevisionId: expected, revisionId: revision });
          },
          saveLink,
          setStage: async (j, stage) => {
            await this.jobs.updateOne({ id: j.id }, { $set: { stage, updatedAt: new Date().toISOString() } });
          },
        };
        if (job.kind === "export") {
          const link = await this.links.findOne({ id: job.spaceId });
          return runExport(job, credentials, deps, link ?? {});
        }
        return runImport(job, credentials, deps);
      },

      /** Gets a worker to look at the space: one of the group over JetStream when scaled out, else this process. */
      async wake(spaceId: string) {
        if (this.wakeChannel) {
          try {
            await this.wakeChannel.send(spaceId);
            return;
          } catch (err) {
            this.logger.warn({ spaceId, error: String((err as Error)?.message) }, "the Git job channel refused a wake-up; running here");
          }
        }
        void this.queue.wake(spaceId);
      },

      async sweep() {
        for (const spaceId of await this.queue.spacesWithWork()) void this.queue.wake(spaceId);
      },
    },

    async started() {
      this.gitSettings = configFor(this.broker).gitSync;
      const dataDir = configFor(this.broker).dataDir;
      this.workDir = dataDir === ":memory:" ? join(tmpdir(), `docshelf-git-sync-${process.pid}`) : join(resolve(dataDir), "git-sync");
      let secret = this.gitSettings.secret;
      if (!secret) {
        // Made once and kept, so waiting jobs' credentials survive restarts and open on every replica.
        const kept = await this.settings.findOne({ id: "credentials-key" });
        if (kept) secret = kept.value;
        else {
          secret = newSecret(32);
          try {
            await this.settings.insert({ id: "credentials-key", value: secret });
          } catch (err) {
            if (!(err instanceof ConflictError)) throw err;
            secret = (await this.settings.findOne({ id: "credentials-key" }))!.value;
          }
        }
      }
      this.sealer = new CredentialSealer(secret);
      this.queue = new JobQueue(
        { jobs: this.jobs, links: this.links, leases: this.leases },
        {
          holder: `${this.broker.nodeID}:${newId()}`,
          leaseMs: this.gitSettings.leaseMs,
          run: (job, signal, saveLink) => this.runJob(job, signal, saveLink),
          describeFailure: (job, err) => {
            const failure = describeJobError(err, job.kind);
            const credentials = job.sealedCredentials ? this.sealer.open(job.sealedCredentials) ?? undefined : undefined;
            if (failure.code === "internal") this.logger.error({ jobId: job.id, spaceId: job.spaceId, error: scrub(String((err as Error)?.stack ?? err), credentials) }, "a Git job failed unexpectedly");
            return { code: failure.code, message: scrub(failure.message, credentials) };
          },
          onError: (err, spaceId) => this.logger.error({ spaceId, error: scrub(String((err as Error)?.message ?? err)) }, "running Git jobs stopped; the sweep retries"),
        },
      );
      const nats = configFor(this.broker).nats;
      if (nats) {
        try {
          this.wakeChannel = await startWakeChannel(this as unknown as Service, natsConnectionOptions(nats), nats.streamReplicas);
        } catch (err) {
          // Without JetStream the store and the sweep still run every job, only later.
          this.logger.warn({ error: String((err as Error)?.message) }, "NATS JetStream is not available for Git job wake-ups; relying on the sweep");
        }
      }
      const sweep = () => this.sweep().catch((err: unknown) => this.logger.error({ error: String((err as Error)?.message) }, "sweeping Git jobs failed"));
      void sweep();
      this.sweepTimer = setInterval(sweep, this.gitSettings.sweepIntervalMs);
      this.sweepTimer.unref();
      // The durable queue's depth, from the store (every replica reports the same numbers when scaled out).
      this.stopQueueGauge = jobQueueGauge(this.broker, "git-sync", (state) => this.jobs.count({ status: state }));
    },

    async stopped() {
      if (this.sweepTimer) clearInterval(this.sweepTimer);
      this.stopQueueGauge?.();
      await this.wakeChannel?.stop().catch(() => undefined);
      // Running jobs finish before the store closes; waiting ones are found by the next start's sweep.
      await this.queue?.stop();
      // Without a data directory the kept object stores were this process's alone.
      if (configFor(this.broker).dataDir === ":memory:" && this.workDir) rmSync(this.workDir, { recursive: true, force: true });
    },
  };
  // The JetStream consumer group: any git-sync worker may take a space's wake-up (see wake-channel.ts).
  const channels = {
    [WAKE_CHANNEL]: {
      group: "git-sync",
      handler(this: GitSyncService, payload: { spaceId?: unknown }) {
        if (typeof payload?.spaceId === "string") void this.queue.wake(payload.spaceId);
      },
    },
    // change-requests also publishes merges on a durable channel: a merge made while every git-sync
    // worker was down is exported when one is back (the broadcast above only reaches running ones).
    // The job id makes the two deliveries one export.
    [MERGED_CHANNEL]: {
      group: "git-sync",
      // The stream change-requests makes (kept 7 days); the same settings, so either side may create it first.
      nats: { streamConfig: { max_age: 7 * 24 * 3600 * 1e9 } },
      async handler(this: GitSyncService, payload: Partial<MergedEvent>) {
        if (typeof payload?.spaceId === "string" && typeof payload.changeRequestId === "string") await this.exportMerged(payload as MergedEvent);
      },
    },
  };
  return { ...schema, gitSyncChannels: channels } as unknown as ServiceSchema;
}

export default gitSyncSchema;
