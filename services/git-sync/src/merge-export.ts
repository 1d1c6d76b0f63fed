// Exports of merged change requests: the job a `change-requests.merged` event queues for a space whose
// link has an export target (set by the space's latest export request), with GitBook's default message.
import type { ChangeRequestMerged } from "@docshelf/contracts/change-requests";
import type { ExportTarget, JobDoc, JobParams, LinkDoc } from "./models";

/** `change-requests.merged` as change-requests broadcasts it; read as if `number` and `subject` could be missing (the message falls back). */
export type MergedEvent = Omit<ChangeRequestMerged, "number" | "subject"> & Partial<Pick<ChangeRequestMerged, "number" | "subject">>;

/** GitBook's default message of an export made by a merge: `GITBOOK-<number>: <subject>`, on one line. */
export function mergeCommitMessage(number: number | undefined, subject: string | undefined): string {
  const line = (subject ?? "").replace(/\s+/g, " ").trim() || "No subject";
  return `GITBOOK${typeof number === "number" ? `-${number}` : ""}: ${line}`;
}

const TARGET_PARAMS = ["repoCacheID", "repoTreeURL", "repoCommitURL", "repoProjectDirectory"] as const;

/** What an export request leaves on the link for later merges: its repository, options and sealed credentials. */
export function exportTargetOf(params: JobParams, sealedCredentials: string | undefined): ExportTarget {
  const target: ExportTarget = { url: params.url, ref: params.ref };
  for (const key of TARGET_PARAMS) if (params[key]) target[key] = params[key];
  if (sealedCredentials) target.sealedCredentials = sealedCredentials;
  return target;
}

/**
 * The export job for a merge, or null when the space is not set up for export. Its id is derived from
 * the change request, so the replicas that all hear the broadcast queue it once.
 */
export function mergeExportJob(link: LinkDoc | null, merged: MergedEvent, now: Date): JobDoc | null {
  const target = link?.exportTarget;
  if (!link || !target) return null;
  const params: JobParams = { url: target.url, ref: target.ref, force: false, standalone: false, commitMessage: mergeCommitMessage(merged.number, merged.subject) };
  for (const key of TARGET_PARAMS) if (target[key]) params[key] = target[key];
  const job: JobDoc = {
    id: `merge-${merged.changeRequestId}`,
    spaceId: merged.spaceId,
    organizationId: link.organizationId,
    kind: "export",
    status: "pending",
    stage: "repo_fetch",
    timestamp: now.getTime(),
    params,
    createdBy: "change-requests.merged",
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  if (typeof merged.number === "number") job.changeRequest = { id: merged.changeRequestId, number: merged.number };
  if (target.sealedCredentials) job.sealedCredentials = target.sealedCredentials;
  return job;
}
