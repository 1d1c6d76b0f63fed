// The git-sync service's shape as its action modules see it: its collections, state and shared methods.
import type { SpaceAccess } from "@docshelf/contracts/content";
import type { Context, Service } from "moleculer";
import type { GitSyncConfig } from "@docshelf/config";
import type { Collection } from "@docshelf/store";
import type { CredentialSealer } from "./credentials";
import type { JobQueue, LinkSaver } from "./job-queue";
import type { MergedEvent } from "./merge-export";
import type { JobDoc, LeaseDoc, LinkDoc, SettingDoc } from "./models";
import type { runImport } from "./run-job";
import type { WakeChannel } from "./wake-channel";

export interface Vars {
  jobs: Collection<JobDoc>;
  links: Collection<LinkDoc>;
  leases: Collection<LeaseDoc>;
  settings: Collection<SettingDoc>;
  /** GIT_SYNC_* of packages/config, read at start. */
  gitSettings: GitSyncConfig;
  sealer: CredentialSealer;
  queue: JobQueue;
  workDir: string;
  sweepTimer?: NodeJS.Timeout;
  /** Stops sampling docshelf_job_queue_depth. */
  stopQueueGauge?: () => void;
  /** Scaled out: wake-ups through NATS JetStream (wake-channel.ts); absent in one process. */
  wakeChannel?: WakeChannel;
}

/** What `content.spaceAccess` answers. */
export type { SpaceAccess };

export interface Methods {
  publicUrl(): string;
  /** The caller's access to the space: 404 when hidden or missing, 403 below `min`. */
  access(ctx: Context, spaceId: string, min: "read" | "edit" | "admin", doing: string): Promise<SpaceAccess & { organizationId: string }>;
  /** Queues the export of a merged change request when the space's link says where to. */
  exportMerged(merged: MergedEvent): Promise<void>;
  /** Sends the space's GitSyncState (or its removal) to content, which shows it as the space's `gitSync`. */
  pushGitSync(spaceId: string, link: LinkDoc | null): Promise<void>;
  runJob(job: JobDoc, signal: AbortSignal, saveLink: LinkSaver): ReturnType<typeof runImport>;
  sweep(): Promise<void>;
  /** Gets a worker to look at the space: one of the group over JetStream when scaled out, else this process. */
  wake(spaceId: string): Promise<void>;
}

export type GitSyncService = Service<Record<string, unknown>> & Vars & Methods;
export type GitSyncActions = Service.ServiceActionsSchema<GitSyncService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
