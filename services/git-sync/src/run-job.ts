// What one job does: import (repository -> new revision) and export (revision -> commit pushed).
import fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { GitSyncConfig } from "@docshelf/config";
import { newId } from "@docshelf/store";
import type { Credentials } from "./credentials";
import { safeGitHttp } from "./git-http";
import { addRedirects, countPages, LayoutError, readGitbookConfig, readLayout, resolveRedirects, storedRedirects, writeGitbookConfig, type TreeFile, type TreePage } from "./layout";
import type { JobDoc, LinkDoc, SyncState } from "./models";
import type { JobOutcome, LinkSaver } from "./job-queue";
import { cleanDirectory, joinRepoPath } from "./paths";
import { dropCache, fetchBranch, hasObject, listFiles, openGitdir, SERVICE_EMAIL, pushCommit, readCommitInfo, readFileAt, readProjectFiles, remoteDefaultBranch, remoteHead, RepoError, writeChangesCommit, type Remote } from "./repo";
import { planReusable, type TreeReusableContent } from "./reusable";
import { claimStore, pruneStores, releaseStore, storeKey } from "./stores";
import { deriveState, planExport, stateAfterImport } from "./sync-state";

export interface Snapshot {
  revision: string;
  pages: TreePage[];
  files: TreeFile[];
  /** Absent from a content service that predates them. */
  reusableContents?: TreeReusableContent[];
  variables?: Record<string, string>;
}

/** The limits of GIT_SYNC_* a job applies (packages/config). */
export type JobLimits = Pick<GitSyncConfig, "maxFileBytes" | "maxPages" | "maxFetchBytes" | "requestTimeoutMs" | "allowedPrivateTargets">;

/** What a job needs from the rest of the system. */
export interface JobDeps {
  settings: JobLimits;
  /** Root of this service's clone cache and scratch space. */
  workDir: string;
  /** A revision of the space (default its current one); `fileData: false` leaves the files' bytes out. */
  snapshot(spaceId: string, options?: { revisionId?: string; fileData?: boolean; fileIds?: string[] }): Promise<Snapshot>;
  importTree(spaceId: string, move: boolean, body: Readable): Promise<{ revision: string; moved: boolean; pages: number }>;
  /** The space's current revision. */
  currentRevision(spaceId: string): Promise<string | null>;
  /** Moves the space from `expected` to `revision` by compare-and-swap (a 409 when it moved meanwhile). */
  moveSpace(spaceId: string, expected: string, revision: string): Promise<void>;
  /** Saves the link's changes now; gives back their undo (job-queue.ts). */
  saveLink: LinkSaver;
  setStage(job: JobDoc, stage: JobDoc["stage"]): Promise<void>;
  /** Aborts the job's requests when the worker stops. */
  signal?: AbortSignal;
}

const BRANCH = /^refs\/heads\/[^\s~^:?*[\\]+$/;

/**
 * The bare repository a job works in: the space's kept store for the repository (and `repoCacheID`, when given;
 * stores.ts), so a re-sync fetches only what changed; a scratch directory removed afterwards without a data directory.
 */
function gitdirFor(job: JobDoc, workDir: string): { gitdir: string; temporary: boolean } {
  if (workDir !== ":memory:") return { gitdir: join(workDir, "cache", storeKey(job.spaceId, job.params.url, job.params.repoCacheID)), temporary: false };
  return { gitdir: fs.mkdtempSync(join(tmpdir(), "job-")), temporary: true };
}

/** A failure that says nothing about the store (the repository's content, the space, the credentials): the store stays. */
function storeStays(err: unknown): boolean {
  if (err instanceof LayoutError || err instanceof StateError) return true;
  return err instanceof RepoError && ["unsafe-entry", "too-large", "too-many-pages", "auth", "not-found", "conflict", "rejected"].includes(err.code);
}

function projectDirOf(job: JobDoc): string {
  const dir = cleanDirectory(job.params.repoProjectDirectory);
  if (dir === null) throw new RepoError("unsafe-entry", "repoProjectDirectory leaves the repository.");
  return dir;
}

/** content.gitImport's stream: one line of JSON (files with `size`), then the files' bytes in order. */
function importStream(body: { git: unknown; pages: TreePage[]; files: TreeFile[]; reusableContents: TreeReusableContent[]; variables: Record<string, string> }): Readable {
  const files = body.files.map(({ bytes, data, ...file }) => ({ ...file, size: bytes ? bytes.length : Buffer.from(data, "base64").length }));
  const header = Buffer.from(`${JSON.stringify({ git: body.git, pages: body.pages, files, reusableContents: body.reusableContents, variables: body.variables })}\n`, "utf8");
  const parts: Buffer[] = [];
  for (let i = 0; i < header.length; i += 256 * 1024) parts.push(header.subarray(i, i + 256 * 1024));
  for (const file of body.files) {
    const bytes = file.bytes ?? Buffer.from(file.data, "base64");
    for (let i = 0; i < bytes.length; i += 256 * 1024) parts.push(bytes.subarray(i, i + 256 * 1024));
  }
  // Handed over one piece at a time, with a turn of the event loop every few MiB: read in one go, the pieces would
  // be sent without the process sending its heartbeats meanwhile (a 150 MB repository over NATS took seconds).
  return Readable.from(
    (async function* () {
      for (const [i, part] of parts.entries()) {
        if (i % 8 === 7) await new Promise<void>((resolve) => setImmediate(resolve));
        yield part;
      }
    })(),
    { objectMode: false },
  );
}

async function withRemote<T>(job: JobDoc, credentials: Credentials | undefined, deps: JobDeps, work: (remote: Remote) => Promise<T>): Promise<T> {
  if (!BRANCH.test(job.params.ref)) throw new RepoError("repo", `ref "${job.params.ref}" is not of the form refs/heads/<branch>.`);
  const { gitdir, temporary } = gitdirFor(job, deps.workDir);
  if (!temporary) {
    claimStore(gitdir);
    try {
      pruneStores(join(deps.workDir, "cache"));
    } catch {
      // A store that cannot be removed now is tried again by the next job.
    }
  }
  try {
    await openGitdir(gitdir);
    const http = safeGitHttp({ requestTimeoutMs: deps.settings.requestTimeoutMs, maxResponseBytes: deps.settings.maxFetchBytes, allowedPrivateTargets: deps.settings.allowedPrivateTargets, signal: deps.signal });
    // No single object larger than the whole fetch may be.
    return await work({ url: job.params.url, credentials, http, gitdir, maxObjectBytes: deps.settings.maxFetchBytes });
  } catch (err) {
    // An unexpected failure (a fetch cut short, the worker stopping) may leave the store half written: the next job starts afresh.
    if (!temporary && !storeStays(err)) fs.rmSync(gitdir, { recursive: true, force: true });
    throw err;
  } finally {
    dropCache(gitdir);
    if (temporary) fs.rmSync(gitdir, { recursive: true, force: true });
    else releaseStore(gitdir);
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
    const commit = readCommitInfo(remote.gitdir, head);
    const url = commitUrl(job, head);
    const createdByService = commit.authorEmail === SERVICE_EMAIL;
    // The interface names the flag createdByService; GitBook's schema (and its clients) createdByGitBook.
    const revisionGit = { oid: head, message: commit.message.trim(), createdByService, createdByGitBook: createdByService, ref: job.params.ref, ...(url ? { url } : {}) };
    // All or nothing: the tree goes into a revision of its own first (the space does not move), then the
    // link with its sync state is saved, then the space moves to the revision by compare-and-swap; a
    // failure at any step leaves the space and its link as they were.
    const base = job.params.standalone ? null : await deps.currentRevision(job.spaceId);
    const result = await deps.importTree(job.spaceId, false, importStream({ git: revisionGit, pages: layout.pages, files: layout.files, reusableContents: layout.reusableContents, variables: layout.variables }));
    const fields = { revision: result.revision, commit: head, pages: result.pages };
    if (job.params.standalone) return { applied: false, fields };
    // Which file each page came from, as content holds it in the new revision: what exports keep in place.
    const imported = await deps.snapshot(job.spaceId, { revisionId: result.revision, fileData: false });
    const sync = stateAfterImport({
      snapshot: imported,
      imported: layout.pages,
      config: layout.config,
      hasSummary: layout.hasSummary,
      contentDir: joinRepoPath(projectDir, layout.config.root),
      url: job.params.url,
      ref: job.params.ref,
      projectDir,
      commit: head,
    });
    const link: Partial<LinkDoc> = {
      lastCommit: head,
      redirectList: layout.config.redirects,
      sync,
      // The redirects with their files resolved to pages now, by page id: what sites serves (renames by later exports keep them).
      siteRedirects: resolveRedirects(layout.config.redirects, joinRepoPath(projectDir, layout.config.root), sync.pages),
      redirectsAt: new Date().toISOString(),
    };
    await deps.setStage(job, "finalize");
    let undo: () => Promise<void>;
    try {
      undo = await deps.saveLink(link);
    } catch (err) {
      throw new StateError(`Saving the Git sync state failed (${messageOf(err)}); the space was left as it was.`);
    }
    if (!base) {
      await undo();
      throw new StateError("The space has no revision to import into; the space was left as it was.");
    }
    try {
      await deps.moveSpace(job.spaceId, base, result.revision);
    } catch (err) {
      await undo();
      if ((err as { code?: number }).code === 409) throw new RepoError("conflict", "The space changed while the import ran (an edit was merged); nothing was imported. Import again.");
      throw err;
    }
    return { applied: true, linkSaved: true, fields };
  });
}

/**
 * Without `force`, an export refuses a branch that moved since the space last synced with it
 * (commits the space has not imported); with `force` it overwrites the content either way.
 */
export async function runExport(job: JobDoc, credentials: Credentials | undefined, deps: JobDeps, link: Pick<LinkDoc, "lastCommit" | "redirects" | "redirectList" | "sync"> = {}): Promise<JobOutcome> {
  const { lastCommit } = link;
  const redirects = storedRedirects(link);
  const projectDir = projectDirOf(job);
  // The last sync's mapping counts only for the same repository and project directory.
  let state: SyncState | undefined = link.sync && link.sync.url === job.params.url && link.sync.projectDir === projectDir ? link.sync : undefined;
  return withRemote(job, credentials, deps, async (remote) => {
    await deps.setStage(job, "repo_fetch");
    const head = await remoteHead(remote, job.params.ref);
    if (head && lastCommit && head !== lastCommit && !job.params.force) {
      throw new RepoError("conflict", `The branch ${job.params.ref} has commits the space has not imported; import them first or export with force.`);
    }
    let base = head;
    if (head) await fetchBranch(remote, job.params.ref, head);
    else if (state) {
      // A new branch starts from the commit the space last synced with, so it differs only by the space's changes.
      const source = state.ref === job.params.ref ? null : await remoteHead(remote, state.ref);
      if (source) await fetchBranch(remote, state.ref, source).catch(() => undefined);
      if (await hasObject(remote.gitdir, state.commit)) base = state.commit;
    }
    if (!base) {
      // Without a record, a new branch starts from the repository's default branch (never from nothing,
      // which would drop every file the space did not write); only an empty repository starts fresh.
      const start = await remoteDefaultBranch(remote);
      if (start) {
        await fetchBranch(remote, start.ref, start.oid);
        base = start.oid;
      }
    }
    await deps.setStage(job, "config_check");
    const baseFiles = base ? await listFiles(remote.gitdir, base) : new Map<string, { oid: string; mode: string; type: "blob" | "commit" }>();
    const yamlPath = joinRepoPath(projectDir, ".gitbook.yaml");
    const existingYaml = base && baseFiles.has(yamlPath) ? await readFileAt(remote.gitdir, base, yamlPath) : undefined;
    const config = readGitbookConfig(existingYaml?.toString("utf8"));
    await deps.setStage(job, "content_process");
    // Files' bytes only for those that may have changed: the others are known by their SHA-256.
    const snapshot = await deps.snapshot(job.spaceId, { fileData: false });
    const unchanged = new Set(snapshot.files.filter((f) => {
      const before = state?.files[f.id];
      return before && before.sha256 && before.sha256 === f.sha256 && before.name === f.name && baseFiles.has(before.path);
    }).map((f) => f.id));
    const needed = snapshot.files.filter((f) => !unchanged.has(f.id)).map((f) => f.id);
    if (needed.length) {
      const data = new Map((await deps.snapshot(job.spaceId, { revisionId: snapshot.revision, fileIds: needed })).files.map((f) => [f.id, f.data]));
      for (const file of snapshot.files) if (data.has(file.id)) file.data = data.get(file.id)!;
    }
    if (countPages(snapshot.pages) > deps.settings.maxPages) throw new RepoError("too-many-pages", `The space has more than ${deps.settings.maxPages} pages.`);
    const contentDir = joinRepoPath(projectDir, config.root);
    if (!state && base) {
      // No record of this repository: rebuild one from the branch, so that what the space did not change
      // (or never had) stays byte for byte and nothing is deleted (sync-state.ts deriveState).
      const files = await readProjectFiles(remote.gitdir, base, projectDir, { maxFileBytes: deps.settings.maxFileBytes, maxPages: Number.MAX_SAFE_INTEGER, assetBytes: false });
      let n = 0;
      const layout = readLayout(files, { projectDir, newFileId: () => `#file-${n++}`, ...(job.params.repoTreeURL ? { treeURL: job.params.repoTreeURL } : {}) });
      state = deriveState({ snapshot, layout, contentDir, url: job.params.url, ref: job.params.ref, projectDir, commit: base });
    }
    const plan = await planExport({
      pages: snapshot.pages,
      files: snapshot.files,
      unchangedFiles: unchanged,
      config,
      contentDir,
      state,
      head: baseFiles,
      readText: async (path) => (base ? (await readFileAt(remote.gitdir, base, path))?.toString("utf8") : undefined),
      ...(job.params.repoTreeURL ? { treeURL: job.params.repoTreeURL } : {}),
    });
    // Reusable contents (`.gitbook/includes`) and variables (`vars.yaml`): written only where the space says something else.
    // An include file is deleted only when the record says the space imported or wrote it for a reusable content since deleted.
    const reusablePlan = await planReusable({
      reusableContents: snapshot.reusableContents ?? [],
      variables: snapshot.variables ?? {},
      contentDir,
      head: new Map<string, unknown>([...baseFiles, ...plan.writes]),
      readText: async (path) => (base && baseFiles.has(path) ? (await readFileAt(remote.gitdir, base, path))?.toString("utf8") : undefined),
      ...(state && !state.derived && state.reusable ? { recorded: state.reusable } : {}),
    });
    for (const [path, data] of reusablePlan.writes) plan.writes.set(path, data);
    for (const path of reusablePlan.deletes) if (!plan.writes.has(path)) plan.deletes.add(path);
    const projectPrefix = projectDir ? `${projectDir}/` : "";
    const fresh = ![...baseFiles.keys()].some((p) => p.startsWith(projectPrefix));
    if (!existingYaml && (fresh || redirects.length)) {
      // A repository without `.gitbook.yaml` gets one only when the export starts it, or to hold redirects.
      plan.writes.set(yamlPath, Buffer.from(writeGitbookConfig({ ...config, redirects }), "utf8"));
    } else if (existingYaml && redirects.length) {
      // The space's redirects (from its last import) that the file lacks are added; the file's own are never changed or removed.
      const added = addRedirects(existingYaml.toString("utf8"), config, redirects);
      if (added !== null) plan.writes.set(yamlPath, Buffer.from(added, "utf8"));
    }
    for (const [path, data] of plan.writes) {
      if (data.length > deps.settings.maxFileBytes) throw new RepoError("too-large", `The file "${path}" is larger than the limit of ${deps.settings.maxFileBytes} bytes (GIT_SYNC_MAX_FILE_BYTES); nothing was pushed.`);
    }
    // The whole commit or nothing: it deletes only files the space's record says it wrote or imported.
    const owned = new Set([...Object.values(state?.pages ?? {}).flatMap((p) => (p.path ? [p.path] : [])), ...Object.values(state?.files ?? {}).map((f) => f.path), ...Object.values(state?.reusable ?? {}).map((r) => r.path)]);
    for (const path of plan.deletes) {
      if (state?.derived || !owned.has(path)) throw new StateError(`The export would delete "${path}", which the space has no record of writing; nothing was pushed.`);
    }
    await deps.setStage(job, "finalize");
    const message = job.params.commitMessage || "Update from Docshelf";
    const { oid, changed } = await writeChangesCommit(remote.gitdir, { parent: base, base: baseFiles, writes: plan.writes, deletes: plan.deletes, message });
    const sync: SyncState = { url: job.params.url, ref: job.params.ref, projectDir, commit: oid, pages: plan.pages, files: plan.files, summary: plan.summary, ...(plan.noSummary ? { noSummary: true } : {}), ...(Object.keys(reusablePlan.record).length ? { reusable: reusablePlan.record } : {}) };
    // The state is saved first and undone if the push fails: the branch and the state move together.
    let undo: () => Promise<void>;
    try {
      undo = await deps.saveLink({ lastCommit: oid, sync });
    } catch (err) {
      throw new StateError(`Saving the Git sync state failed (${messageOf(err)}); nothing was pushed.`);
    }
    if (changed || (!head && base)) {
      try {
        await pushCommit(remote, job.params.ref, oid, job.params.force);
      } catch (err) {
        await undo();
        throw err;
      }
    }
    return { applied: true, linkSaved: true, fields: { revision: snapshot.revision, commit: oid, pages: countPages(snapshot.pages) } };
  });
}

/** The sync state could not be saved (or the commit would not be right): the job changed nothing. */
export class StateError extends Error {}

function messageOf(err: unknown): string {
  const text = String((err as Error)?.message ?? err).split("\n")[0].trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text || "unknown error";
}

/** A failure's code and a message fit for the job status, naming the cause (never credentials: the caller scrubs too). */
export function describeJobError(err: unknown, kind: "import" | "export" = "import"): { code: string; message: string } {
  if (err instanceof RepoError) return { code: err.code, message: err.message };
  if (err instanceof LayoutError) return { code: "layout", message: err.message };
  if (err instanceof StateError) return { code: "state", message: err.message };
  const e = err as { message?: string; name?: string; code?: number; type?: string };
  if (e?.name === "SafeFetchError") return { code: "fetch", message: e.message ?? "The repository could not be reached." };
  if (typeof e?.code === "number" && e.code >= 400 && e.code < 500) return { code: "content", message: `The content service refused the ${kind}: ${messageOf(err)}` };
  const left = kind === "import" ? "the space was left as it was" : "nothing was pushed unless the job says so";
  return { code: "internal", message: `The ${kind} failed: ${messageOf(err)} (${left}; the service log has the details).` };
}
