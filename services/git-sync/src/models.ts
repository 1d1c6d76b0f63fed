// Git links, jobs and per-space leases as stored (collections in DATA_DIR/git-sync/ or MongoDB).
import type { CollectionSpec } from "@docshelf/store";
import type { Redirect, ResolvedRedirect } from "./layout";

export const JOB_KINDS = ["import", "export"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export type JobStatus = "pending" | "running" | "succeeded" | "failed" | "skipped";
export type JobStage = "repo_fetch" | "config_check" | "content_process" | "finalize";

/** What a request asked for, without credentials. */
export interface JobParams {
  url: string;
  ref: string;
  commitMessage?: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoProjectDirectory?: string;
  force: boolean;
  standalone: boolean;
  gitInfo?: { provider?: "github" | "gitlab"; url?: string };
}

export interface JobDoc {
  id: string;
  spaceId: string;
  organizationId: string;
  kind: JobKind;
  status: JobStatus;
  stage: JobStage;
  /** Time of the triggering event (ms since epoch): jobs of a space run in this order. */
  timestamp: number;
  params: JobParams;
  /** The URL's credentials, sealed (credentials.ts); removed when the job ends. */
  sealedCredentials?: string;
  /** A user id, or `change-requests.merged` for exports of merged change requests. */
  createdBy: string;
  /** The merged change request an export was queued for. */
  changeRequest?: { id: string; number: number };
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  completedAt?: string;
  /** While running: the worker's lease on the job. */
  leaseUntil?: string;
  error?: string;
  errorCode?: string;
  revision?: string;
  commit?: string;
  pages?: number;
}

/** A space's link to a repository: what `GET …/git/info` shows and what ordering needs. */
export interface LinkDoc {
  /** The space id. */
  id: string;
  organizationId: string;
  url: string;
  ref: string;
  repoName: string;
  provider?: "github" | "gitlab";
  treeURL?: string;
  /** Timestamp (ms) of the newest job applied: older events arriving later are skipped. */
  lastTimestamp: number;
  /** The commit last imported or exported. */
  lastCommit?: string;
  /**
   * Where merged change requests are exported: the repository of the space's latest export request,
   * with its credentials sealed. Absent until an export is requested, so an import-only space never pushes.
   */
  exportTarget?: ExportTarget;
  /**
   * `.gitbook.yaml` `redirects` read by the latest import, in the file's order; added to an export's
   * `.gitbook.yaml` when it lacks them. A list, not a map keyed by paths: any source is a value.
   */
  redirectList?: Redirect[];
  /** Links written before `redirectList`: the same as a map (read by `storedRedirects`, removed by the next import). */
  redirects?: Record<string, string>;
  /** Those redirects resolved to the pages their files became by that import (sites serves them). */
  siteRedirects?: ResolvedRedirect[];
  /** When the latest import set `redirects` and `siteRedirects`. */
  redirectsAt?: string;
  /** The page/file <-> repository path mapping of the last sync (see SyncState). */
  sync?: SyncState;
  createdAt: string;
  updatedAt: string;
}

export interface ExportTarget {
  url: string;
  ref: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoProjectDirectory?: string;
  sealedCredentials?: string;
}

/** One worker at a time runs a space's jobs: it holds this lease and renews it. */
export interface LeaseDoc {
  id: string;
  holder: string;
  until: string;
}

export interface SettingDoc {
  id: string;
  value: string;
}

export const collections: Record<"jobs" | "links" | "leases" | "settings", CollectionSpec> = {
  jobs: { name: "jobs", indexes: [{ fields: ["spaceId"] }, { fields: ["status"] }] },
  links: { name: "links" },
  leases: { name: "leases" },
  settings: { name: "settings" },
};

/** What the space last synced a page as (sync-state.ts): its file, and fingerprints of its content. */
export interface PageSync {
  /** Repository path of the page's file; absent for a group, an external link or an empty item. */
  path?: string;
  parent: string | null;
  slug: string;
  title: string;
  /** Hash of the page's body and metadata as content gave them right after the sync. */
  fp: string;
  /** Hash of the front-matter values alone (description, icon, hidden, cover). */
  meta: string;
  /** A SUMMARY.md `##` group; `dir` is where its new children go. */
  group?: boolean;
  dir?: string;
  /** A SUMMARY.md link to no file, external or not (written back as it was). */
  href?: string;
  /** A SUMMARY.md item without a link (`- Guidelines`): written back as plain text while it has no body of its own. */
  plain?: boolean;
  /** The SUMMARY.md link target as written for the page's file (`/a/b.md`, `a/b%20c.md`), reused while the path stays. */
  link?: string;
}

/**
 * The mapping between a space and the repository it last synced with (import or export): which file
 * each page and file came from, so an export touches only what changed and never what it did not manage.
 */
export interface SyncState {
  url: string;
  ref: string;
  projectDir: string;
  /** The commit of that sync. */
  commit: string;
  pages: Record<string, PageSync>;
  files: Record<string, { path: string; name: string; sha256?: string }>;
  /** Hash of the SUMMARY.md the space's tree gives: the file is rewritten only when this changes. */
  summary: string;
  /** The repository had no SUMMARY.md (a tree from folders, an empty content root): none is added while the tree stays as it was. */
  noSummary?: boolean;
  /**
   * The include file (`.gitbook/includes/…`, a repository path) of each reusable content the space imported or wrote,
   * by reusable content id: an export deletes such a file once its reusable content is gone from the space, and no other.
   * Absent in states saved before it (nothing is deleted then).
   */
  reusable?: Record<string, { path: string }>;
  /** Rebuilt from the branch by an export that had no state (deriveState): never stored, never a reason to delete. */
  derived?: boolean;
}
