// The repository side of a job, on isomorphic-git over a bare object store on disk (no checkout):
// find the branch, fetch it, read the project's files (refusing unsafe entries), write a commit, push.
import fs from "node:fs";
import { posix } from "node:path";
import git, { type HttpClient } from "isomorphic-git";
import type { Credentials } from "./credentials";
import { fetchCommit, FetchError } from "./fetch-pack";
import { ObjectStore, PackError, parseCommit, parseTree, UnsafeTreeEntryError, yielder, type CommitInfo, type TreeEntry } from "./pack";
import { joinRepoPath, symlinkStaysInside, unsafePathReason } from "./paths";

export class RepoError extends Error {
  constructor(
    readonly code: "unsafe-entry" | "too-large" | "too-many-pages" | "auth" | "not-found" | "rejected" | "conflict" | "repo",
    message: string,
  ) {
    super(message);
  }
}

export interface Remote {
  /** The URL without credentials. */
  url: string;
  credentials?: Credentials;
  http: HttpClient;
  /** The bare repository directory (a cache entry or a temporary directory). */
  gitdir: string;
  /** Largest object a fetch accepts (inflated); default 1 GiB. */
  maxObjectBytes?: number;
}

/**
 * isomorphic-git's object cache per repository directory, for the length of a job: without it every
 * object read opens and indexes the packfile again (minutes for a 100 MB repository).
 */
const caches = new Map<string, object>();
export function cacheOf(gitdir: string): object {
  let cache = caches.get(gitdir);
  if (!cache) caches.set(gitdir, (cache = {}));
  return cache;
}
/** The store's objects as this service reads them (pack.ts: native inflate, one object at a time), for the length of a job. */
const stores = new Map<string, ObjectStore>();
export function storeOf(gitdir: string): ObjectStore {
  let store = stores.get(gitdir);
  if (!store) stores.set(gitdir, (store = new ObjectStore(gitdir)));
  return store;
}
export function dropCache(gitdir: string): void {
  caches.delete(gitdir);
  stores.get(gitdir)?.close();
  stores.delete(gitdir);
}

/** The author of export commits; an imported commit by it is `createdByService`. */
export const SERVICE_EMAIL = "git-sync@docshelf.invalid";
const AUTHOR = { name: "Docshelf", email: SERVICE_EMAIL };

function auth(remote: Remote) {
  return {
    onAuth: () => (remote.credentials ? { username: remote.credentials.username, password: remote.credentials.password } : { cancel: true }),
    onAuthFailure: () => ({ cancel: true }),
  };
}

/** Turns isomorphic-git's errors into RepoErrors with messages that name no credentials. */
function explain(err: unknown, what: string): never {
  if (err instanceof RepoError) throw err;
  if (err instanceof FetchError) {
    if (err.status === 401 || err.status === 403) throw new RepoError("auth", `${what}: the Git server refused the credentials.`);
    if (err.status === 404) throw new RepoError("not-found", `${what}: the repository was not found.`);
    throw new RepoError("repo", `${what}: ${err.message}`);
  }
  if (err instanceof PackError) throw new RepoError("repo", `${what}: ${err.message}`);
  const e = err as { code?: string; name?: string; data?: { statusCode?: number }; message?: string };
  const status = e.data?.statusCode;
  if (status === 401 || status === 403 || e.code === "UserCanceledError") throw new RepoError("auth", `${what}: the Git server refused the credentials.`);
  if (status === 404) throw new RepoError("not-found", `${what}: the repository was not found.`);
  if (e.code === "PushRejectedError") throw new RepoError("rejected", `${what}: the Git server rejected the push (the branch moved; export again or use force).`);
  if ((e as { reason?: string }).reason || e.name === "SafeFetchError") throw new RepoError("repo", `${what}: ${e.message}`);
  throw new RepoError("repo", `${what}: ${e.code ?? e.name ?? "error"}${status ? ` (HTTP ${status})` : ""}.`);
}

export async function openGitdir(gitdir: string): Promise<void> {
  await fs.promises.mkdir(gitdir, { recursive: true });
  if (!fs.existsSync(posix.join(gitdir, "config"))) await git.init({ fs, gitdir, bare: true, defaultBranch: "main" });
}

/** The commit the remote branch points at, or null when the branch does not exist. */
export async function remoteHead(remote: Remote, ref: string): Promise<string | null> {
  try {
    const refs = await git.listServerRefs({ http: remote.http, url: remote.url, prefix: ref, ...auth(remote) });
    return refs.find((r) => r.ref === ref)?.oid ?? null;
  } catch (err) {
    explain(err, "Reading the repository's branches failed");
  }
}

/**
 * The remote's default branch (what its HEAD points at) and its commit, or null for an empty repository.
 * A new branch exported without a sync state starts from it, as `git switch -c` would, so that it differs
 * only by what the space writes.
 */
export async function remoteDefaultBranch(remote: Remote): Promise<{ ref: string; oid: string } | null> {
  try {
    const refs = await git.listServerRefs({ http: remote.http, url: remote.url, symrefs: true, ...auth(remote) });
    const head = refs.find((r) => r.ref === "HEAD");
    const target = head?.target && refs.find((r) => r.ref === head.target && r.ref.startsWith("refs/heads/"));
    if (target) return { ref: target.ref, oid: target.oid };
    const branch = refs.find((r) => r.ref === "refs/heads/main") ?? refs.find((r) => r.ref === "refs/heads/master") ?? refs.find((r) => r.ref.startsWith("refs/heads/"));
    return branch ? { ref: branch.ref, oid: branch.oid } : null;
  } catch (err) {
    explain(err, "Reading the repository's branches failed");
  }
}

export async function hasObject(gitdir: string, oid: string): Promise<boolean> {
  return storeOf(gitdir).has(oid);
}

/** Bytes of objects a fetch keeps inflated for the job's reads (an import reads every file of the tree next). */
const KEEP_INFLATED_BYTES = 256 * 1024 * 1024;

/** The commits the store's branches point at (what a fetch tells the server it has). */
function localHeads(gitdir: string): string[] {
  const heads: string[] = [];
  const walk = (dir: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of names) {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const oid = fs.readFileSync(path, "utf8").trim();
        if (/^[0-9a-f]{40}$/.test(oid)) heads.push(oid);
      }
    }
  };
  walk(posix.join(gitdir, "refs", "heads"));
  walk(posix.join(gitdir, "refs", "remotes"));
  try {
    for (const line of fs.readFileSync(posix.join(gitdir, "packed-refs"), "utf8").split("\n")) {
      const [oid, name] = line.split(" ");
      if (name && /^[0-9a-f]{40}$/.test(oid) && (name.startsWith("refs/heads/") || name.startsWith("refs/remotes/"))) heads.push(oid);
    }
  } catch {
    // No packed refs.
  }
  return [...new Set(heads)];
}

/**
 * Makes sure commit `oid` of branch `ref` is in the local store (a kept store that has it skips the fetch).
 * Into an empty store the fetch asks for depth 1 (the commit and its tree; the server's whole history only when it
 * cannot do shallow fetches); into a kept store it says which commits the store has, so it gets only what is new
 * (fetch-pack.ts).
 */
export async function fetchBranch(remote: Remote, ref: string, oid: string): Promise<void> {
  const store = storeOf(remote.gitdir);
  if (store.has(oid)) return;
  const haves = localHeads(remote.gitdir).filter((h) => store.has(h));
  try {
    // Depth 1 only into an empty store: with `deepen`, a server sends the whole tree again rather than what the haves lack.
    await fetchCommit(remote, ref, oid, { haves, ...(haves.length ? {} : { depth: 1 }), maxObjectBytes: remote.maxObjectBytes ?? 1024 * 1024 * 1024, store, keepBytes: KEEP_INFLATED_BYTES });
  } catch (err) {
    explain(err, "Fetching the repository failed");
  }
  store.refresh();
  if (!store.has(oid)) throw new RepoError("repo", "Fetching the repository did not bring the branch's commit.");
}

/** The fields of commit `oid` this service uses (tree, parents, author's email, message). */
export function readCommitInfo(gitdir: string, oid: string): CommitInfo {
  const info = parseCommit(storeOf(gitdir).readTyped(oid, "commit"));
  // As isomorphic-git gives it: no carriage returns.
  return { ...info, message: info.message.replace(/\r/g, "") };
}

function readTreeEntries(gitdir: string, oid: string): TreeEntry[] {
  return parseTree(storeOf(gitdir).readTyped(oid, "tree"));
}

export interface RepoEntry {
  oid: string;
  mode: string;
  type: "blob" | "tree" | "commit";
}

export interface ReadLimits {
  maxFileBytes: number;
  /** Pages a space may get: markdown files beyond it (and SUMMARY.md) fail the job before anything is read. */
  maxPages: number;
  /** Leave assets' bytes out (empty buffers): enough to know their paths and blob ids. */
  assetBytes?: boolean;
}

/**
 * The files of `dir` in commit `oid`, relative to `dir`: markdown, `.gitbook.yaml` and assets.
 * Every entry on the way is checked: `..`, `.git` in any spelling and symlinks leaving the tree fail the job.
 */
export async function readProjectFiles(gitdir: string, commitOid: string, dir: string, limits: ReadLimits): Promise<Map<string, { oid: string; data: Buffer }>> {
  const commit = readCommitInfo(gitdir, commitOid);
  // Find the project directory's tree, checking each component on the way.
  let treeOid: string | null = commit.tree;
  for (const part of dir ? dir.split("/") : []) {
    const tree = readTreeEntries(gitdir, treeOid!);
    const entry = tree.find((e) => e.path === part && e.type === "tree");
    if (!entry) throw new RepoError("not-found", `The project directory "${dir}" does not exist in the branch.`);
    treeOid = entry.oid;
  }
  const wanted: Array<{ path: string; oid: string }> = [];
  const visit = async (oid: string, prefix: string): Promise<void> => {
    let tree: TreeEntry[];
    try {
      tree = readTreeEntries(gitdir, oid);
    } catch (err) {
      // Trees with `..` or `.git` names are refused as they are parsed (as isomorphic-git did).
      if (err instanceof UnsafeTreeEntryError) {
        throw new RepoError("unsafe-entry", `The repository holds an unsafe entry under "${joinRepoPath(dir, prefix) || "/"}".`);
      }
      throw err;
    }
    for (const entry of tree) {
      const path = prefix ? `${prefix}/${entry.path}` : entry.path;
      const full = joinRepoPath(dir, path);
      const reason = unsafePathReason(entry.path.includes("/") ? entry.path : path);
      if (reason || entry.path.includes("/")) throw new RepoError("unsafe-entry", `The repository holds an unsafe entry "${full}": it ${reason ?? "has a slash in its name"}.`);
      if (entry.type === "tree") await visit(entry.oid, path);
      else if (entry.mode === "120000") {
        const target = storeOf(gitdir).readTyped(entry.oid, "blob").toString("utf8");
        if (!symlinkStaysInside(full, target)) throw new RepoError("unsafe-entry", `The repository holds a symlink "${full}" that points outside the repository.`);
      } else if (entry.type === "blob" && (/\.md$/i.test(path) || path === ".gitbook.yaml" || path.startsWith(".gitbook/assets/") || path.includes("/.gitbook/assets/") || /(^|\/)\.gitbook\.yaml$/.test(path) || /(^|\/)\.gitbook\/vars\.yaml$/.test(path))) {
        wanted.push({ path, oid: entry.oid });
      }
    }
  };
  await visit(treeOid!, "");
  // Reusable contents (`.gitbook/includes/*.md`) are no pages.
  const markdownCount = wanted.filter((w) => /\.md$/i.test(w.path) && !/(^|\/)\.gitbook\/includes\//.test(w.path)).length;
  if (markdownCount > limits.maxPages + 1) {
    throw new RepoError("too-many-pages", `The repository has ${markdownCount} markdown files; a space takes at most ${limits.maxPages} pages.`);
  }
  const files = new Map<string, { oid: string; data: Buffer }>();
  const pause = yielder();
  for (const { path, oid } of wanted) {
    await pause();
    if (limits.assetBytes === false && !/\.md$/i.test(path) && !/(^|\/)\.gitbook(\.yaml|\/vars\.yaml)$/.test(path)) {
      files.set(path, { oid, data: Buffer.alloc(0) });
      continue;
    }
    const blob = storeOf(gitdir).readTyped(oid, "blob");
    if (blob.length > limits.maxFileBytes) throw new RepoError("too-large", `The file "${joinRepoPath(dir, path)}" is larger than the limit of ${limits.maxFileBytes} bytes.`);
    files.set(path, { oid, data: blob });
  }
  return files;
}

/** Every entry of a commit's tree by path (blobs, symlinks, submodules), for rebuilding it. */
function flatten(gitdir: string, treeOid: string, prefix: string, out: Map<string, { oid: string; mode: string; type: "blob" | "commit" }>): void {
  for (const entry of readTreeEntries(gitdir, treeOid)) {
    const path = prefix ? `${prefix}/${entry.path}` : entry.path;
    if (entry.type === "tree") flatten(gitdir, entry.oid, path, out);
    else out.set(path, { oid: entry.oid, mode: entry.mode, type: entry.type as "blob" | "commit" });
  }
}

async function writeTrees(gitdir: string, entries: Map<string, { oid: string; mode: string; type: "blob" | "commit" }>): Promise<string> {
  interface Dir {
    files: Map<string, { oid: string; mode: string; type: "blob" | "commit" }>;
    dirs: Map<string, Dir>;
  }
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, entry] of entries) {
    const parts = path.split("/");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let next = node.dirs.get(part);
      if (!next) node.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
      node = next;
    }
    node.files.set(parts[parts.length - 1], entry);
  }
  const write = async (node: Dir): Promise<string> => {
    const tree: Array<{ path: string; oid: string; mode: string; type: "blob" | "tree" | "commit" }> = [];
    for (const [name, dir] of node.dirs) tree.push({ path: name, oid: await write(dir), mode: "040000", type: "tree" });
    for (const [name, file] of node.files) tree.push({ path: name, oid: file.oid, mode: file.mode, type: file.type });
    return git.writeTree({ fs, gitdir, tree });
  };
  return write(root);
}

/** Every file of a commit by repository path (blobs, symlinks, submodules). */
export async function listFiles(gitdir: string, commitOid: string): Promise<Map<string, { oid: string; mode: string; type: "blob" | "commit" }>> {
  const entries = new Map<string, { oid: string; mode: string; type: "blob" | "commit" }>();
  flatten(gitdir, readCommitInfo(gitdir, commitOid).tree, "", entries);
  return entries;
}

export interface CommitInput {
  /** The base commit (the branch's, or the one the space last synced for a new branch), or null. */
  parent: string | null;
  /** The base commit's files (listFiles). */
  base: Map<string, { oid: string; mode: string; type: "blob" | "commit" }>;
  /** Files to write, by repository path. */
  writes: Map<string, Buffer>;
  /** Repository paths to remove. */
  deletes: Set<string>;
  message: string;
}

/**
 * A commit whose tree is the base's with `writes` and `deletes` applied; every other entry stays
 * byte for byte. `changed` is false (and the oid the parent's) when the tree would not change.
 */
export async function writeChangesCommit(gitdir: string, input: CommitInput): Promise<{ oid: string; changed: boolean }> {
  const entries = new Map(input.base);
  for (const path of input.deletes) entries.delete(path);
  for (const [path, data] of input.writes) {
    const oid = await git.writeBlob({ fs, gitdir, blob: new Uint8Array(data.buffer, data.byteOffset, data.length) });
    const mode = entries.get(path)?.mode === "100755" ? "100755" : "100644";
    entries.set(path, { oid, mode, type: "blob" });
  }
  const parentTree = input.parent ? readCommitInfo(gitdir, input.parent).tree : null;
  const tree = await writeTrees(gitdir, entries);
  if (tree === parentTree && input.parent) return { oid: input.parent, changed: false };
  const now = Math.floor(Date.now() / 1000);
  const person = { ...AUTHOR, timestamp: now, timezoneOffset: 0 };
  const oid = await git.writeCommit({ fs, gitdir, commit: { tree, parent: input.parent ? [input.parent] : [], author: person, committer: person, message: input.message.endsWith("\n") ? input.message : `${input.message}\n` } });
  return { oid, changed: true };
}

/** Reads one blob of a commit (`.gitbook.yaml` of the project), or undefined. */
export async function readFileAt(gitdir: string, commitOid: string, path: string): Promise<Buffer | undefined> {
  try {
    let oid = readCommitInfo(gitdir, commitOid).tree;
    const parts = path.split("/");
    for (const [i, part] of parts.entries()) {
      const entry = readTreeEntries(gitdir, oid).find((e) => e.path === part);
      if (!entry || (i < parts.length - 1 ? entry.type !== "tree" : entry.type !== "blob")) return undefined;
      oid = entry.oid;
    }
    return storeOf(gitdir).readTyped(oid, "blob");
  } catch {
    return undefined;
  }
}

/** Pushes `oid` to branch `ref`; without force the server refuses anything but a fast-forward. */
export async function pushCommit(remote: Remote, ref: string, oid: string, force: boolean): Promise<void> {
  const local = `refs/heads/docshelf-export`;
  await git.writeRef({ fs, gitdir: remote.gitdir, ref: local, value: oid, force: true });
  try {
    const result = await git.push({ fs, cache: cacheOf(remote.gitdir), http: remote.http, gitdir: remote.gitdir, url: remote.url, ref: local, remoteRef: ref, force, ...auth(remote) });
    if (!result.ok) throw new RepoError("rejected", `The Git server refused the push: ${result.error ?? "unknown reason"}.`);
  } catch (err) {
    explain(err, "Pushing to the repository failed");
  }
}
