// What one job does: import (repository -> new revision) and export (revision -> commit pushed).
import { createHash } from "node:crypto";
import fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import git from "isomorphic-git";
import { newId } from "@docshelf/store";
import type { Credentials } from "./credentials";
import { safeGitHttp } from "./git-http";
import { countPages, LayoutError, readGitbookConfig, readLayout, replaceRedirects, writeGitbookConfig, writeLayout, type TreeFile, type TreePage } from "./layout";
import type { JobDoc, LinkDoc } from "./models";
import type { JobOutcome } from "./job-queue";
import { cleanDirectory, joinRepoPath } from "./paths";
import { fetchBranch, openGitdir, SERVICE_EMAIL, pushCommit, readFileAt, readProjectFiles, remoteHead, RepoError, writeLayoutCommit, type Remote } from "./repo";
import type { GitSyncSettings } from "./settings";

export interface Snapshot {
  revision: string;
  pages: TreePage[];
  files: TreeFile[];
}

/** What a job needs from the rest of the system. */
export interface JobDeps {
  settings: GitSyncSettings;
  /** Root of this service's clone cache and scratch space. */
  workDir: string;
  snapshot(spaceId: string): Promise<Snapshot>;
  importTree(spaceId: string, move: boolean, body: Readable): Promise<{ revision: string; moved: boolean; pages: number }>;
  setStage(job: JobDoc, stage: JobDoc["stage"]): Promise<void>;
  /** Aborts the job's requests when the worker stops. */
  signal?: AbortSignal;
}

const BRANCH = /^refs\/heads\/[^\s~^:?*[\\]+$/;

/** The bare repository a job works in: the space's cache entry for `repoCacheID`, else a scratch directory removed afterwards. */
function gitdirFor(job: JobDoc, workDir: string): { gitdir: string; temporary: boolean } {
  if (job.params.repoCacheID) {
    // Keyed by space too: a cache id can never hand one space's clone to another.
    const key = createHash("sha256").update(`${job.spaceId}\0${job.params.repoCacheID}\0${job.params.url}`).digest("hex").slice(0, 40);
    return { gitdir: join(workDir, "cache", key), temporary: false };
  }
  return { gitdir: fs.mkdtempSync(join(workDir === ":memory:" ? tmpdir() : join(workDir, "tmp"), "job-")), temporary: true };
}

function projectDirOf(job: JobDoc): string {
  const dir = cleanDirectory(job.params.repoProjectDirectory);
  if (dir === null) throw new RepoError("unsafe-entry", "repoProjectDirectory leaves the repository.");
  return dir;
}

function streamJson(value: unknown): Readable {
  const json = JSON.stringify(value);
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += 256 * 1024) chunks.push(json.slice(i, i + 256 * 1024));
  return Readable.from(chunks, { objectMode: false });
}

async function withRemote<T>(job: JobDoc, credentials: Credentials | undefined, deps: JobDeps, work: (remote: Remote) => Promise<T>): Promise<T> {
  if (!BRANCH.test(job.params.ref)) throw new RepoError("repo", `ref "${job.params.ref}" is not of the form refs/heads/<branch>.`);
  fs.mkdirSync(join(deps.workDir, "tmp"), { recursive: true });
  const { gitdir, temporary } = gitdirFor(job, deps.workDir);
  try {
    await openGitdir(gitdir);
    const http = safeGitHttp({ requestTimeoutMs: deps.settings.requestTimeoutMs, maxResponseBytes: deps.settings.maxFetchBytes, allowedPrivateTargets: deps.settings.allowedPrivateTargets, signal: deps.signal });
    return await work({ url: job.params.url, credentials, http, gitdir });
  } finally {
    if (temporary) fs.rmSync(gitdir, { recursive: true, force: true });
  }
}

function commitUrl(job: JobDoc, oid: string): string | undefined {
  return job.params.repoCommitURL ? `${job.params.repoCommitURL.replace(/\/+$/, "")}/${oid}` : undefined;
}

export async function runImport(job: JobDoc, credentials: Credentials | undefined, deps: JobDeps): Promise<JobOutcome> {
  const projectDir = projectDirOf(job);
  return withRemote(job, credentials, deps, async (remote) => {
    await deps.setStage(job, "repo_fetch");
    const head = await remoteHead(remote, job.params.ref);
    if (!head) throw new RepoError("not-found", `The branch ${job.params.ref} does not exist in the repository.`);
    await fetchBranch(remote, job.params.ref, head);
    await deps.setStage(job, "config_check");
    const files = await readProjectFiles(remote.gitdir, head, projectDir, { maxFileBytes: deps.settings.maxFileBytes, maxPages: deps.settings.maxPages });
    const layout = readLayout(files, { projectDir, newFileId: () => newId(), ...(job.params.repoTreeURL ? { treeURL: job.params.repoTreeURL } : {}) });
    const pages = countPages(layout.pages);
    if (pages > deps.settings.maxPages) throw new RepoError("too-many-pages", `The repository describes ${pages} pages; a space takes at most ${deps.settings.maxPages}.`);
    await deps.setStage(job, "content_process");
    const { commit } = await git.readCommit({ fs, gitdir: remote.gitdir, oid: head });
    const url = commitUrl(job, head);
    const createdByService = commit.author.email === SERVICE_EMAIL;
    // The interface names the flag createdByService; GitBook's schema (and its clients) createdByGitBook.
    const revisionGit = { oid: head, message: commit.message.trim(), createdByService, createdByGitBook: createdByService, ref: job.params.ref, ...(url ? { url } : {}) };
    const result = await deps.importTree(job.spaceId, !job.params.standalone, streamJson({ git: revisionGit, pages: layout.pages, files: layout.files }));
    return {
      applied: !job.params.standalone,
      fields: { revision: result.revision, commit: head, pages: result.pages },
      link: { lastCommit: head, redirects: layout.config.redirects },
    };
  });
}

/**
 * Without `force`, an export refuses a branch that moved since the space last synced with it
 * (commits the space has not imported); with `force` it overwrites the content either way.
 */
export async function runExport(job: JobDoc, credentials: Credentials | undefined, deps: JobDeps, link: Pick<LinkDoc, "lastCommit" | "redirects"> = {}): Promise<JobOutcome> {
  const { lastCommit, redirects } = link;
  const projectDir = projectDirOf(job);
  return withRemote(job, credentials, deps, async (remote) => {
    await deps.setStage(job, "repo_fetch");
    const head = await remoteHead(remote, job.params.ref);
    if (head && lastCommit && head !== lastCommit && !job.params.force) {
      throw new RepoError("conflict", `The branch ${job.params.ref} has commits the space has not imported; import them first or export with force.`);
    }
    if (head) await fetchBranch(remote, job.params.ref, head);
    await deps.setStage(job, "config_check");
    const yamlPath = joinRepoPath(projectDir, ".gitbook.yaml");
    const existingYaml = head ? await readFileAt(remote.gitdir, head, yamlPath) : undefined;
    const config = readGitbookConfig(existingYaml?.toString("utf8"));
    await deps.setStage(job, "content_process");
    const snapshot = await deps.snapshot(job.spaceId);
    if (countPages(snapshot.pages) > deps.settings.maxPages) throw new RepoError("too-many-pages", `The space has more than ${deps.settings.maxPages} pages.`);
    const existingRedirects = { ...config.redirects };
    if (redirects) config.redirects = { ...redirects };
    const contentDir = joinRepoPath(projectDir, config.root);
    const files = writeLayout(snapshot.pages, snapshot.files, config, { contentDir, ...(job.params.repoTreeURL ? { treeURL: job.params.repoTreeURL } : {}) });
    for (const [path, data] of files) {
      if (data.length > deps.settings.maxFileBytes) throw new RepoError("too-large", `The file "${path}" is larger than the limit of ${deps.settings.maxFileBytes} bytes.`);
    }
    const extra = new Map<string, Buffer>();
    if (!existingYaml) extra.set(yamlPath, Buffer.from(writeGitbookConfig(config), "utf8"));
    else if (redirects) {
      // The space's redirects (from its last import) replace the file's; the rest of the file stays as written.
      const replaced = replaceRedirects(existingYaml.toString("utf8"), { ...config, redirects: existingRedirects }, redirects);
      if (replaced !== null) extra.set(yamlPath, Buffer.from(replaced, "utf8"));
    }
    await deps.setStage(job, "finalize");
    const message = job.params.commitMessage || "Update from Docshelf";
    const { oid, changed } = await writeLayoutCommit(remote.gitdir, { parent: head, contentDir, files, extra, message });
    if (changed) await pushCommit(remote, job.params.ref, oid, job.params.force);
    return { applied: true, fields: { revision: snapshot.revision, commit: oid, pages: countPages(snapshot.pages) }, link: { lastCommit: oid } };
  });
}

/** A failure's code and a message fit for the job status (never credentials: the caller scrubs too). */
export function describeJobError(err: unknown): { code: string; message: string } {
  if (err instanceof RepoError) return { code: err.code, message: err.message };
  if (err instanceof LayoutError) return { code: "layout", message: err.message };
  const e = err as { message?: string; name?: string; code?: number; type?: string };
  if (e?.name === "SafeFetchError") return { code: "fetch", message: e.message ?? "The repository could not be reached." };
  if (typeof e?.code === "number" && e.code >= 400 && e.code < 500) return { code: "content", message: e.message ?? "The content service refused the import." };
  return { code: "internal", message: "The job failed unexpectedly; see the service log." };
}
