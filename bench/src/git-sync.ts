// Git sync bench: import of a 2,000-file markdown repository and export of the resulting space, each
// against `git clone` of the same repository in the same run, everything in one process (embedded).
// Targets (issue 11): import ≤ 15 s, export ≤ 15 s.
//
//   npm run build && node bench/dist/git-sync.js        (BENCH_GIT_FILES=2000)
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadConfig } from "@docshelf/config";
import { createBroker, listeningPort } from "@docshelf/runtime";

const FILES = Number(process.env.BENCH_GIT_FILES ?? 2000);
const TARGET_MS = 15_000;
const USER = "bench";
const PASSWORD = randomBytes(12).toString("hex");
const ENV = { ...process.env, GIT_AUTHOR_NAME: "B", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "B", GIT_COMMITTER_EMAIL: "b@example.com", GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, encoding: "utf8" }).trim();

function makeRepo(root: string): void {
  const bare = join(root, "docs.git");
  mkdirSync(bare, { recursive: true });
  git(bare, "init", "--bare", "-q", "-b", "main");
  git(bare, "config", "http.receivepack", "true");
  const work = mkdtempSync(join(tmpdir(), "bench-git-work-"));
  git(work, "init", "-q", "-b", "main");
  const summary = ["# Table of contents", "", "* [Home](README.md)"];
  writeFileSync(join(work, "README.md"), "# Home\n\nWelcome.\n");
  const perSection = 100;
  for (let s = 0; s * perSection < FILES - 1; s++) {
    summary.push("", `## Section ${s}`, "");
    for (let i = s * perSection; i < Math.min(FILES - 1, (s + 1) * perSection); i++) {
      const path = `section-${s}/page-${i}.md`;
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), `# Page ${i}\n\n${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(20)}\n\n## Details\n\nMore text for page ${i}.\n`);
      summary.push(`* [Page ${i}](${path})`);
    }
  }
  writeFileSync(join(work, "SUMMARY.md"), `${summary.join("\n")}\n`);
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "Docs");
  git(work, "push", "-q", bare, "HEAD:refs/heads/main");
  rmSync(work, { recursive: true, force: true });
}

async function gitServer(root: string) {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`) return void res.writeHead(401, { "WWW-Authenticate": "Basic" }).end();
    const url = new URL(req.url ?? "/", "http://x");
    const cgi = spawn("git", ["http-backend"], {
      env: { ...ENV, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: "1", REMOTE_USER: USER, REQUEST_METHOD: req.method ?? "GET", PATH_INFO: url.pathname, QUERY_STRING: url.search.slice(1), CONTENT_TYPE: req.headers["content-type"] ?? "", ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}) },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let done = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (done) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      done = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const at = line.indexOf(":");
        if (line.slice(0, at).toLowerCase() === "status") status = Number.parseInt(line.slice(at + 1), 10);
        else headers[line.slice(0, at)] = line.slice(at + 1).trim();
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on("end", () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function main(): Promise<void> {
  const reposRoot = mkdtempSync(join(tmpdir(), "bench-git-repos-"));
  const dataDir = mkdtempSync(join(tmpdir(), "bench-git-data-"));
  makeRepo(reposRoot);
  const { server, port } = await gitServer(reposRoot);
  const repoUrl = (auth: boolean) => `http://${auth ? `${USER}:${PASSWORD}@` : ""}127.0.0.1:${port}/docs.git`;

  const cloneDir = mkdtempSync(join(tmpdir(), "bench-git-clone-"));
  // The server runs in this process: the clone must not block its event loop.
  const t = Date.now();
  await new Promise<void>((resolve, reject) =>
    spawn("git", ["clone", "-q", repoUrl(true), "c"], { cwd: cloneDir, env: ENV, stdio: "ignore" }).on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`git clone exited ${code}`)))),
  );
  const cloneMs = Date.now() - t;

  process.env.GIT_SYNC_ALLOW_PRIVATE = `127.0.0.1:${port}`;
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const broker = createBroker(loadConfig({ ...process.env, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOGLEVEL: "warn", PORT: "0", HOST: "127.0.0.1", TRANSPORTER: "", SERVICES: "all" }), { logger: false });
  await broker.start();
  const base = `http://127.0.0.1:${listeningPort(broker)}`;
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, location: res.headers.get("location") };
  };
  const user = await call(adminToken, "POST", "/v1/users", { email: `bench-${Date.now()}@example.com`, displayName: "Bench" });
  const token = (await call(adminToken, "POST", `/v1/users/${user.body.id}/tokens`, { label: "bench" })).body.token as string;
  const org = (await call(token, "POST", "/v1/orgs", { title: "Bench" })).body.id as string;
  const space = (await call(token, "POST", `/v1/orgs/${org}/spaces`, { title: "Bench" })).body.id as string;

  const job = async (kind: "import" | "export", body: Record<string, unknown>) => {
    const started = Date.now();
    const res = await call(token, "POST", `/v1/spaces/${space}/git/${kind}`, body);
    if (res.status !== 204) throw new Error(`${kind} answered ${res.status}`);
    const path = new URL(res.location!).pathname;
    for (;;) {
      const status = (await call(token, "GET", path)).body;
      if (process.env.BENCH_VERBOSE) console.log(status.status, status.stage);
      if (status.status !== "pending" && status.status !== "running") {
        if (status.status !== "succeeded") throw new Error(`${kind} ${status.status}: ${status.error}`);
        return { ms: Date.now() - started, status };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const imported = await job("import", { url: repoUrl(true), ref: "refs/heads/main" });
  // Export to a new branch of the same repository: every file is written again.
  const exported = await job("export", { url: repoUrl(true), ref: "refs/heads/exported", commitMessage: "Bench export" });

  const verdict = (ms: number) => (ms <= TARGET_MS ? "ok" : "OVER TARGET");
  console.log(`Git sync bench, ${FILES} markdown files (${imported.status.pages} pages), embedded, this machine:`);
  console.log(`  git clone (CLI, same server)  ${cloneMs} ms`);
  console.log(`  import (request → job done)   ${imported.ms} ms   target ≤ ${TARGET_MS} ms: ${verdict(imported.ms)}`);
  console.log(`  export (request → job done)   ${exported.ms} ms   target ≤ ${TARGET_MS} ms: ${verdict(exported.ms)}`);

  await broker.stop();
  server.closeAllConnections();
  server.close();
  for (const dir of [reposRoot, dataDir, cloneDir]) rmSync(dir, { recursive: true, force: true });
  if (imported.ms > TARGET_MS || exported.ms > TARGET_MS) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
