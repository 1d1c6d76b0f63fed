// The API shapes: a space's Git info (GitBook's GitSyncState) and a job's status (GitSyncOperation plus ids).
import { storedRedirects } from "./layout";
import type { JobDoc, LinkDoc } from "./models";

export interface JobResource {
  object: "git-sync-job";
  id: string;
  spaceId: string;
  direction: JobDoc["kind"];
  /** GitBook's operation state. */
  state: "running" | "success" | "failure";
  /** The precise status: pending and running jobs are both `running` above; skipped ones are `failure`. */
  status: JobDoc["status"];
  stage: JobDoc["stage"];
  dispatchedTasks: number;
  completedTasks: number;
  timestamp: string;
  startedAt: string;
  updatedAt: string;
  completedAt?: string;
  error?: string;
  errorCode?: string;
  revision?: string;
  commit?: string;
  pages?: number;
  /** Set on exports queued by a merged change request. */
  changeRequest?: { id: string; number: number };
  url: string;
  ref: string;
  urls: { location: string };
}

const STATES: Record<JobDoc["status"], JobResource["state"]> = { pending: "running", running: "running", succeeded: "success", failed: "failure", skipped: "failure" };

export function presentJob(job: JobDoc, publicUrl: string): JobResource {
  const done = job.status === "succeeded" || job.status === "failed" || job.status === "skipped";
  const resource: JobResource = {
    object: "git-sync-job",
    id: job.id,
    spaceId: job.spaceId,
    direction: job.kind,
    state: STATES[job.status],
    status: job.status,
    stage: job.stage,
    dispatchedTasks: 1,
    completedTasks: done ? 1 : 0,
    timestamp: new Date(job.timestamp).toISOString(),
    startedAt: job.startedAt ?? job.createdAt,
    updatedAt: job.updatedAt,
    url: job.params.url,
    ref: job.params.ref,
    urls: { location: jobLocation(publicUrl, job.spaceId, job.id) },
  };
  for (const key of ["completedAt", "error", "errorCode", "revision", "commit", "pages", "changeRequest"] as const) {
    if (job[key] !== undefined) (resource as unknown as Record<string, unknown>)[key] = job[key];
  }
  return resource;
}

export function jobLocation(publicUrl: string, spaceId: string, jobId: string): string {
  return `${publicUrl}/v1/spaces/${spaceId}/git/jobs/${jobId}`;
}

/** GitBook's GitSyncState: what `GET …/git/info` starts with and what the space's own `gitSync` field holds. */
export interface GitSyncState {
  repoName: string;
  installationProvider?: "github" | "gitlab";
  integration: string;
  url: string;
  updatedAt: string;
}

export interface GitInfoResource extends GitSyncState {
  /** `.gitbook.yaml` redirects read by the latest import (exported back); absent when there are none. */
  redirects?: Record<string, string>;
  /** The space's latest job. */
  operation?: JobResource;
}

export function gitSyncStateOf(link: LinkDoc): GitSyncState {
  const state: GitSyncState = { repoName: link.repoName, integration: "git-sync", url: link.treeURL ?? link.url, updatedAt: link.updatedAt };
  if (link.provider) state.installationProvider = link.provider;
  return state;
}

export function presentInfo(link: LinkDoc, latest: JobDoc | null, publicUrl: string): GitInfoResource {
  const info: GitInfoResource = gitSyncStateOf(link);
  const redirects = storedRedirects(link);
  if (redirects.length) {
    // An own property per source, whatever it is (`__proto__` included).
    info.redirects = {};
    for (const { source, destination } of redirects) Object.defineProperty(info.redirects, source, { value: destination, enumerable: true, writable: true, configurable: true });
  }
  if (latest) info.operation = presentJob(latest, publicUrl);
  return info;
}
