// Git jobs: start an import or an export of a space (answered at once, run in order by the queue), read a job.
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError, NotFoundError } from "@docshelf/errors";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { repoNameOf, splitRepoUrl } from "./credentials";
import { exportTargetOf } from "./merge-export";
import type { JobDoc, JobKind, JobParams, LinkDoc } from "./models";
import { cleanDirectory } from "./paths";
import { jobLocation, presentJob } from "./present";
import type { Ctx, GitSyncActions, GitSyncService } from "./service-types";

/** What an import or export request carries: the job's parameters (force and standalone optional), its space and the event's time. */
type StartParams = Omit<JobParams, "force" | "standalone"> & Partial<Pick<JobParams, "force" | "standalone">> & {
  spaceId: string;
  timestamp?: string | number;
};

const optionalText = (max: number) => ({ type: "string", max, optional: true }) as const;
const startRules = {
  spaceId: idRule,
  url: { type: "string", min: 1, max: 2048 },
  ref: { type: "string", min: 1, max: 255 },
  repoCacheID: optionalText(256),
  repoTreeURL: optionalText(2048),
  repoCommitURL: optionalText(2048),
  repoProjectDirectory: optionalText(1024),
  timestamp: { type: "multi", optional: true, rules: [{ type: "string", max: 64 }, { type: "number" }] },
  force: { type: "boolean", optional: true },
  standalone: { type: "boolean", optional: true },
  gitInfo: {
    type: "object",
    optional: true,
    strict: "remove",
    props: { provider: { type: "enum", values: ["github", "gitlab"], optional: true }, url: optionalText(2048) },
  },
} as const;

const BRANCH_REF = /^refs\/heads\/(?!.*\.\.)(?!.*\/\/)[^\s~^:?*[\\\x00-\x1f]+$/;

/** A URL param for display (tree or commit prefix): http(s), credentials removed. */
function displayUrl(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === "") return undefined;
  const split = splitRepoUrl(value);
  if (!split) throw new BadRequestError(`Invalid parameters: '${field}' must be an absolute http(s) URL.`);
  return split.url;
}

/** Checks the request, records the job and the space's link, and wakes a worker: 204 with the job's Location. */
async function startJob(service: GitSyncService, ctx: Ctx<StartParams>, kind: JobKind): Promise<null> {
  const p = ctx.params;
  const split = splitRepoUrl(p.url);
  if (!split) throw new BadRequestError("Invalid parameters: 'url' must be an absolute http(s) URL of a Git repository.");
  if (!BRANCH_REF.test(p.ref)) throw new BadRequestError("Invalid parameters: 'ref' must have the form refs/heads/<branch>.");
  const projectDir = cleanDirectory(p.repoProjectDirectory);
  if (projectDir === null) throw new BadRequestError("Invalid parameters: 'repoProjectDirectory' must be a directory inside the repository.");
  let timestamp = Date.now();
  if (p.timestamp !== undefined) {
    timestamp = typeof p.timestamp === "number" ? p.timestamp : Date.parse(p.timestamp);
    if (!Number.isFinite(timestamp)) throw new BadRequestError("Invalid parameters: 'timestamp' must be a date-time.");
  }
  const params: JobParams = { url: split.url, ref: p.ref, force: p.force ?? false, standalone: kind === "import" && (p.standalone ?? false) };
  if (kind === "export") params.commitMessage = p.commitMessage;
  if (p.repoCacheID) params.repoCacheID = p.repoCacheID;
  if (projectDir) params.repoProjectDirectory = projectDir;
  const treeURL = displayUrl(p.repoTreeURL, "repoTreeURL");
  const commitURL = displayUrl(p.repoCommitURL, "repoCommitURL");
  const infoURL = displayUrl(p.gitInfo?.url, "gitInfo.url");
  if (treeURL) params.repoTreeURL = treeURL;
  if (commitURL) params.repoCommitURL = commitURL;
  if (p.gitInfo) params.gitInfo = { ...(p.gitInfo.provider ? { provider: p.gitInfo.provider } : {}), ...(infoURL ? { url: infoURL } : {}) };

  const access = await service.access(ctx, p.spaceId, "edit", kind === "import" ? "Importing from Git" : "Exporting to Git");
  const now = new Date().toISOString();
  const job: JobDoc = {
    id: newId(),
    spaceId: p.spaceId,
    organizationId: access.organizationId,
    kind,
    status: "pending",
    stage: "repo_fetch",
    timestamp,
    params,
    createdBy: callerOf(ctx).id,
    createdAt: now,
    updatedAt: now,
  };
  if (split.credentials) job.sealedCredentials = service.sealer.seal(split.credentials);
  // The link (what GET …/git/info shows) follows the latest request; ordering state stays.
  const link: Partial<LinkDoc> = { url: split.url, ref: p.ref, repoName: repoNameOf(split.url), updatedAt: now };
  if (params.gitInfo?.provider) link.provider = params.gitInfo.provider;
  if (infoURL ?? treeURL) link.treeURL = infoURL ?? treeURL;
  // The repository merged change requests go to from now on (README: "Exports of merged change requests").
  if (kind === "export") link.exportTarget = exportTargetOf(params, job.sealedCredentials);
  if (!params.standalone && !(await service.links.updateOne({ id: p.spaceId }, { $set: link }))) {
    try {
      await service.links.insert({ id: p.spaceId, organizationId: access.organizationId, lastTimestamp: 0, createdAt: now, ...link } as LinkDoc);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      await service.links.updateOne({ id: p.spaceId }, { $set: link });
    }
  }
  if (!params.standalone) await service.pushGitSync(p.spaceId, await service.links.findOne({ id: p.spaceId }));
  await service.jobs.insert(job);
  await service.wake(p.spaceId);
  ctx.meta.$statusCode = 204;
  ctx.meta.$responseHeaders = { Location: jobLocation(service.publicUrl(), p.spaceId, job.id) };
  return null;
}

export const jobActions: GitSyncActions = {
  import: {
    params: startRules,
    handler(ctx: Ctx<StartParams>) {
      return startJob(this, ctx, "import");
    },
  },

  export: {
    params: { ...startRules, commitMessage: { type: "string", min: 1, max: 10_000 } },
    handler(ctx: Ctx<StartParams>) {
      return startJob(this, ctx, "export");
    },
  },

  getJob: {
    params: { spaceId: idRule, jobId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; jobId: string }>) {
      await this.access(ctx, ctx.params.spaceId, "read", "Reading Git jobs");
      const job = await this.jobs.findOne({ id: ctx.params.jobId, spaceId: ctx.params.spaceId });
      if (!job) throw new NotFoundError(`Git job ${ctx.params.jobId} was not found.`);
      return presentJob(job, this.publicUrl());
    },
  },
};
