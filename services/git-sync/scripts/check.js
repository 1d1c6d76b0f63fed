#!/usr/bin/env node
// `npm run git-sync:check -- <path or URL> [--ref refs/heads/<branch>] [--dir <project directory>]`:
// what Git sync would do to a repository before you trust it. The repository is cloned (bare) into a
// scratch directory and served over HTTP on 127.0.0.1 to a scratch embedded instance (its own DATA_DIR,
// removed afterwards), imported into a space, exported with no edit to a new branch, and that branch is
// compared with the original with the git CLI. It prints the import's result and every file the export
// would change, with the diff; exit status 0 when nothing would change, 1 when something would, 2 when a
// job failed. Nothing is ever pushed to the repository you name.
"use strict";
const { execFileSync, spawn } = require("node:child_process");
const { mkdtempSync, rmSync } = require("node:fs");
const { createServer } = require("node:http");
const { tmpdir } = require("node:os");
const { isAbsolute, join, resolve } = require("node:path");

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" };
const git = (cwd, ...args) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).trim();

function usage(message) {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write("usage: npm run git-sync:check -- <path or URL of a Git repository> [--ref refs/heads/<branch>] [--dir <project directory>]\n");
  process.exit(64);
}

function parseArgs(argv) {
  const out = { source: undefined, ref: undefined, dir: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--ref") out.ref = argv[++i];
    else if (arg === "--dir") out.dir = argv[++i];
    else if (arg === "-h" || arg === "--help") usage();
    else if (!out.source) out.source = arg;
    else usage(`unexpected argument: ${arg}`);
  }
  if (!out.source) usage("a repository is required");
  // npm runs scripts from the repository root; a relative path is the caller's.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(out.source) && !isAbsolute(out.source)) out.source = resolve(process.env.INIT_CWD ?? process.cwd(), out.source);
  if (out.ref && !/^refs\/heads\/\S+$/.test(out.ref)) usage("--ref must have the form refs/heads/<branch>");
  return out;
}

/** git http-backend behind a Node HTTP server, over the repositories under `root` (as the end-to-end suites serve them). */
function serve(root) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REMOTE_USER: "check",
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
    let done = false;
    cgi.stdout.on("data", (chunk) => {
      if (done) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      done = true;
      let status = 200;
      const headers = {};
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
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function finished(api, spaceId, jobId) {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const res = await api.get(`/v1/spaces/${spaceId}/git/jobs/${jobId}`);
    if (res.status === 200 && res.body.status !== "pending" && res.body.status !== "running") return res.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish within 30 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function runJob(api, spaceId, kind, body) {
  const res = await api.post(`/v1/spaces/${spaceId}/git/${kind}`, body);
  if (res.status !== 204) throw new Error(`${kind} was refused: ${res.status} ${JSON.stringify(res.body)}`);
  return finished(api, spaceId, res.headers.get("location").split("/").pop());
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scratch = mkdtempSync(join(tmpdir(), "git-sync-check-"));
  let server;
  let sys;
  try {
    const bare = join(scratch, "repo.git");
    process.stdout.write(`Cloning ${args.source} …\n`);
    execFileSync("git", ["clone", "-q", "--bare", args.source, bare], { env: GIT_ENV, stdio: ["ignore", "ignore", "inherit"] });
    git(bare, "config", "http.receivepack", "true");
    const ref = args.ref ?? git(bare, "symbolic-ref", "HEAD");
    const head = git(bare, "rev-parse", ref);
    server = await serve(scratch);
    const port = server.address().port;
    const url = `http://127.0.0.1:${port}/repo.git`;

    // The scratch instance: testkit's embedded system (its own DATA_DIR, removed when it stops).
    process.env.GIT_SYNC_ALLOW_PRIVATE = `127.0.0.1:${port}`;
    process.env.GIT_SYNC_SWEEP_INTERVAL_MS = "500";
    const { startEmbedded, createUser, createOrg, createSpace } = require("@docshelf/testkit");
    sys = await startEmbedded();
    const user = await createUser(sys.admin);
    const org = await createOrg(user.api);
    const space = await createSpace(user.api, org.id, { title: "git-sync check" });
    const options = { url, ref, ...(args.dir ? { repoProjectDirectory: args.dir } : {}) };

    const imported = await runJob(user.api, space.id, "import", options);
    if (imported.status !== "succeeded") {
      process.stdout.write(`\nThe import FAILED (${imported.errorCode}): ${imported.error}\n`);
      return 2;
    }
    const info = await user.api.get(`/v1/spaces/${space.id}/git/info`);
    const redirects = Object.keys(info.body?.redirects ?? {}).length;
    process.stdout.write(`Imported ${ref} at ${head.slice(0, 12)}: ${imported.pages} pages, ${redirects} redirects.\n`);

    const branch = "refs/heads/docshelf-git-sync-check";
    const exported = await runJob(user.api, space.id, "export", { ...options, ref: branch, commitMessage: "git-sync check" });
    if (exported.status !== "succeeded") {
      process.stdout.write(`\nThe export with no edit FAILED (${exported.errorCode}): ${exported.error}\n`);
      return 2;
    }
    const changes = git(bare, "diff", "--name-status", "--no-renames", head, branch);
    if (!changes) {
      process.stdout.write("An export with no edit changes nothing: every file stays byte for byte.\n");
      return 0;
    }
    const lines = changes.split("\n");
    const kinds = { A: "would be added", M: "would be rewritten", D: "would be DELETED" };
    process.stdout.write(`\nAn export with no edit would change ${lines.length} file(s):\n`);
    for (const line of lines) {
      const [status, path] = line.split("\t");
      process.stdout.write(`  ${path}: ${kinds[status[0]] ?? status}\n`);
    }
    process.stdout.write(`\n${git(bare, "diff", "--no-renames", "--no-color", head, branch)}\n`);
    process.stdout.write("\nPlease report this (with the diff) so that Git sync learns the repository's shape.\n");
    return 1;
  } finally {
    await sys?.stop().catch(() => undefined);
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`git-sync check failed: ${err?.stack ?? err}\n`);
    process.exit(2);
  },
);
