// A real Git smart-HTTP server for the Git sync suites: `git http-backend` as CGI behind a small Node
// server with basic auth, over bare repositories in a temporary directory.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { listenOnSharedPort } from "./shared-ports";

export interface GitServer {
  port: number;
  root: string;
  /** Requests by "METHOD path?query", for counting fetches. */
  requests: string[];
  /** `http://user:pass@127.0.0.1:port/<name>.git` (credentials unless `auth` is false). */
  url(name: string, auth?: boolean | { username: string; password: string }): string;
  /** Holds every request from now on until the returned function is called. */
  pause(): () => void;
  close(): Promise<void>;
}

export const GIT_USER = "gitbot";
export const GIT_PASSWORD = "pa55-w0rd-Zq9";

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "Tester", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "Tester", GIT_COMMITTER_EMAIL: "t@example.com", GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] }).trim();
}

export function gitInput(cwd: string, input: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", input }).trim();
}

/**
 * `shared`: on one of the loopback ports the run's shared systems may reach (shared-ports.ts), for a suite on a
 * shared system; otherwise on any port, which a system of the suite's own allows with GIT_SYNC_ALLOW_PRIVATE.
 */
export async function startGitServer(options: { shared?: boolean } = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), "git-sync-repos-"));
  const requests: string[] = [];
  let held: Promise<void> | null = null;
  const server: Server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (held) await held;
    if (req.destroyed || res.destroyed) return;
    const expected = `Basic ${Buffer.from(`${GIT_USER}:${GIT_PASSWORD}`).toString("base64")}`;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end("auth required");
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REMOTE_USER: GIT_USER,
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const at = line.indexOf(":");
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on("end", () => res.end());
    cgi.on("error", () => res.destroy());
  });
  if (options.shared) await listenOnSharedPort(server);
  else await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    root,
    requests,
    url(name, auth = true) {
      const creds = auth === true ? { username: GIT_USER, password: GIT_PASSWORD } : auth || null;
      return `http://${creds ? `${encodeURIComponent(creds.username)}:${encodeURIComponent(creds.password)}@` : ""}127.0.0.1:${port}/${name}.git`;
    },
    pause() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A bare repository `name` on the server whose branch holds `files` (a string, or `{ symlink }`). */
export function createRepo(server: GitServer, name: string, files: Record<string, string | Buffer | { symlink: string }>, branch = "main"): string {
  const bare = join(server.root, `${name}.git`);
  mkdirSync(bare, { recursive: true });
  git(bare, "init", "--bare", "-q", "-b", branch);
  git(bare, "config", "http.receivepack", "true");
  if (Object.keys(files).length) commitFiles(server, name, files, branch, "Initial content");
  return bare;
}

/** Replaces the branch's content with `files` in a new commit; returns its oid. */
export function commitFiles(server: GitServer, name: string, files: Record<string, string | Buffer | { symlink: string }>, branch = "main", message = "Update"): string {
  const bare = join(server.root, `${name}.git`);
  const work = mkdtempSync(join(tmpdir(), "git-sync-work-"));
  try {
    git(work, "init", "-q", "-b", branch);
    for (const [path, content] of Object.entries(files)) {
      const target = join(work, path);
      mkdirSync(dirname(target), { recursive: true });
      if (typeof content === "object" && !Buffer.isBuffer(content)) symlinkSync(content.symlink, target);
      else writeFileSync(target, content);
    }
    git(work, "add", "-A");
    git(work, "commit", "-q", "-m", message);
    git(work, "push", "-q", "--force", bare, `HEAD:refs/heads/${branch}`);
    return git(work, "rev-parse", "HEAD");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A commit whose root tree holds one entry named `entryName` (git's own tools would refuse to make it). */
export function commitRawEntry(server: GitServer, name: string, entryName: string, branch = "main"): string {
  const bare = join(server.root, `${name}.git`);
  const blob = gitInput(bare, "# Hi\n", "hash-object", "-w", "--stdin");
  const readme = gitInput(bare, "# Readme\n", "hash-object", "-w", "--stdin");
  const inner = gitInput(bare, `100644 blob ${blob}\tconfig.md\n`, "mktree", "--missing");
  const tree = gitInput(bare, `100644 blob ${readme}\tREADME.md\n040000 tree ${inner}\t${entryName}\n`, "mktree", "--missing");
  const commit = git(bare, "commit-tree", tree, "-m", "raw entry");
  git(bare, "update-ref", `refs/heads/${branch}`, commit);
  return commit;
}

/** A fresh clone of the branch, to inspect what an export pushed. */
export function cloneRepo(server: GitServer, name: string, branch = "main"): string {
  const work = mkdtempSync(join(tmpdir(), "git-sync-clone-"));
  git(work, "clone", "-q", "-b", branch, join(server.root, `${name}.git`), "c");
  return join(work, "c");
}

/** What the Git jobs helpers need of an API client (testkit's ApiClient). */
interface JobsApi {
  get(path: string): Promise<{ status: number; body: any }>;
  post(path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
}

/**
 * A space's Git jobs as the suites drive them: `runJob` starts an import or an export as `runner` and waits for
 * it; `finished` polls a job as `watcher` until it is neither pending nor running, with a deadline.
 */
export function gitJobs(watcher: JobsApi, runner: JobsApi) {
  async function finished(spaceId: string, jobId: string, timeoutMs = 60_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await watcher.get(`/v1/spaces/${spaceId}/git/jobs/${jobId}`);
      if (res.status === 200 && res.body.status !== "pending" && res.body.status !== "running") return res.body;
      if (Date.now() > deadline) throw new Error(`job ${jobId} not finished after ${timeoutMs} ms (${res.status} ${res.body?.status})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  /** `timeoutMs`: how long the job may take (default 60 s; a large repository on a loaded machine takes longer). */
  async function runJob(spaceId: string, kind: "import" | "export", body: Record<string, unknown>, timeoutMs?: number): Promise<any> {
    const res = await runner.post(`/v1/spaces/${spaceId}/git/${kind}`, kind === "export" ? { commitMessage: "Export", ...body } : body);
    if (res.status !== 204) throw new Error(`starting a Git ${kind}: expected 204, got ${res.status} ${JSON.stringify(res.body)}`);
    return finished(spaceId, res.headers.get("location")!.split("/").pop()!, timeoutMs);
  }
  return { finished, runJob };
}
