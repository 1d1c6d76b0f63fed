// The openapi service's shape as its action modules see it: its collections and its shared methods.
import type { WorkerPool } from "@docshelf/worker-pool";
import type { Context, Service } from "moleculer";
import type { Caller, MembershipCache, RoleOrGuest } from "@docshelf/access";
import type { Collection } from "@docshelf/store";
import type { DocumentDoc, SpecDoc, VersionDoc } from "./models";
import type { SpecPermissions } from "./present";
import type { RenderedSpec } from "./render-pages";
import type { OpenAPISettings } from "./settings";
import type { WorkQueue } from "./work-queue";

export interface Vars {
  specs: Collection<SpecDoc>;
  versions: Collection<VersionDoc>;
  documents: Collection<DocumentDoc>;
  memberships: MembershipCache;
  openapiSettings: OpenAPISettings;
  /** The process's worker threads, where specs are parsed and validated. */
  workers: WorkerPool;
  queue: WorkQueue;
  sweepTimer?: NodeJS.Timeout;
  /** Stops sampling docshelf_job_queue_depth. */
  stopQueueGauge?: () => void;
  /** Rendered pages of spec versions for computed pages, by `<versionId>:<models>` (oldest dropped first). */
  renderedVersions: Map<string, RenderedSpec>;
}

/** What the caller may do in an organization's specs. */
export interface SpecAccess {
  role: RoleOrGuest;
  permissions: SpecPermissions;
}

export interface Methods {
  publicUrl(): string;
  /** The caller's access to the organization's specs: 404 for non-members, 403 for members who may not read. */
  readAccess(organizationId: string, caller: Caller): Promise<SpecAccess>;
  /** As readAccess, and 403 unless the caller may create, change and delete specs. */
  writeAccess(organizationId: string, caller: Caller): Promise<SpecAccess>;
  /** The spec by slug, or 404. */
  loadSpec(organizationId: string, slug: string): Promise<SpecDoc>;
  /** Queues a spec for processing in this process (at most WORKER_ORG_CONCURRENCY of one organization's at once). */
  enqueue(spec: Pick<SpecDoc, "id" | "organizationId">): void;
  /** Runs one processing step for a spec (used by the queue). */
  runProcessing(specId: string): Promise<void>;
  /** Queues every spec that waits: pending, abandoned by a dead process, or due for refresh. */
  sweep(): Promise<number>;
}

export type OpenAPIService = Service<Record<string, unknown>> & Vars & Methods;
export type OpenAPIActions = Service.ServiceActionsSchema<OpenAPIService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
