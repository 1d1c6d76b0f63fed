// The container image's filesystem, without Docker: deploy/image/assemble.sh (which the Dockerfile runs too)
// makes it from this built checkout, the result is moved away from the repository, and the server is started
// from that directory alone with Node.js 22, the way the image's CMD starts it. A release filesystem that
// lacks a module, a workspace or a nested node_modules fails here, as it would crash-loop in a container.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ApiClient, createOrg, createSpace, createUser, freePort } from "@docshelf/testkit";

const ROOT = join(__dirname, "..", "..");
const ASSEMBLE = join(ROOT, "deploy", "image", "assemble.sh");
const DOCKERFILE = readFileSync(join(ROOT, "deploy", "Dockerfile"), "utf8");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const MAIN = join("packages", "server", "dist", "main.js");

/** Only what a container gives the process: no NODE_PATH, no npm variables, no workspace. */
function containerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: tmpdir(), NODE_ENV: "production", LOGLEVEL: "warn", ...extra };
}

describe("the release filesystem (deploy/image/assemble.sh), started from its own directory", () => {
  let work: string;
  let app: string;
  let dataDir: string;
  let server: ChildProcess | undefined;
  let exited: number | null | undefined;
  let output = "";
  let url: string;
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;

  beforeAll(async () => {
    expect(process.versions.node.split(".")[0]).toBe("22");
    work = mkdtempSync(join(tmpdir(), "docshelf-image-"));
    const staged = join(work, "staged");
    // Node.js 22 (this process's) first on PATH: the script runs node and npm.
    const assembled = spawnSync(ASSEMBLE, [staged], { env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` }, encoding: "utf8", timeout: 240_000 });
    if (assembled.status !== 0) throw new Error(`assemble.sh failed (${assembled.status}):\n${assembled.stderr}`);
    // Moved (renamed) to a directory of its own: every path inside it must be relative.
    app = join(work, "elsewhere", "app");
    spawnSync("mkdir", ["-p", dirname(app)]);
    renameSync(staged, app);
    dataDir = join(work, "data");
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [MAIN], {
      cwd: app,
      env: containerEnv({ PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, SERVICES: "all" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.on("exit", (code) => (exited = code));
    // Until /ready answers 200; a server that exits says why in its output, which the failure then shows.
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (exited !== undefined) throw new Error(`the server exited with ${exited}:\n${output}`);
      if ((await fetch(`${url}/ready`).catch(() => undefined))?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`GET /ready did not answer 200 within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 300_000);

  afterAll(async () => {
    if (server && exited === undefined) {
      const gone = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await gone;
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("holds production dependencies and the server's workspaces' dist only, nothing of the repository around it", () => {
    // No node_modules in any folder above it: every module comes from the directory itself.
    for (let dir = dirname(app); dir !== dirname(dir); dir = dirname(dir)) expect({ dir, modules: existsSync(join(dir, "node_modules")) }).toEqual({ dir, modules: false });
    const workspaces = ["packages", "services"].flatMap((group) => readdirSync(join(app, group)).map((name) => `${group}/${name}`));
    expect(workspaces).toEqual(expect.arrayContaining(["packages/server", "services/gateway", "services/openapi", "services/sites"]));
    // Tests, benchmarks and the test kit are not part of the program.
    for (const absent of ["packages/testkit", "test", "bench", "node_modules/jest", "node_modules/typescript", "node_modules/@docshelf/testkit", "node_modules/turbo"]) {
      expect({ absent, exists: existsSync(join(app, absent)) }).toEqual({ absent, exists: false });
    }
    for (const workspace of workspaces) {
      expect(readdirSync(join(app, workspace)).filter((f) => f !== "node_modules").sort()).toEqual(["dist", "package.json"]);
      expect(readdirSync(join(app, workspace, "dist"), { recursive: true }).filter((f) => /\.(ts|map)$|\.test\.js$/.test(String(f)))).toEqual([]);
    }
  });

  test("--version prints package.json's version and exits 0, the same version as every workspace and the Dockerfile's label", () => {
    const run = spawnSync(process.execPath, [MAIN, "--version"], { cwd: app, env: containerEnv({}), encoding: "utf8", timeout: 30_000 });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: "" });
    for (const group of ["packages", "services"]) {
      for (const name of readdirSync(join(ROOT, group))) {
        const file = join(ROOT, group, name, "package.json");
        if (existsSync(file)) expect({ file: `${group}/${name}`, version: JSON.parse(readFileSync(file, "utf8")).version }).toEqual({ file: `${group}/${name}`, version: VERSION });
      }
    }
    expect(DOCKERFILE).toContain(`ARG VERSION=${VERSION}`);
  });

  test("the Dockerfile makes its release stage with assemble.sh and labels the image (OCI annotations)", () => {
    expect(DOCKERFILE).toMatch(/RUN [^\n]*deploy\/image\/assemble\.sh \/release/);
    expect(DOCKERFILE).toMatch(/COPY --from=build [^\n]*\/release\/ \.\//);
    for (const label of ["title", "description", "version", "revision", "created", "source", "licenses"]) expect(DOCKERFILE).toContain(`org.opencontainers.image.${label}=`);
    expect(DOCKERFILE).toContain('org.opencontainers.image.licenses="MIT"');
    expect(DOCKERFILE).toMatch(/CMD \["node", "packages\/server\/dist\/main\.js"\]/);
  });

  test("answers /health and /ready, the admin token works and a missing one is refused", async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const admin = new ApiClient(url, adminToken);
    const me = await admin.get("/v1/user");
    expect(me.status).toBe(200);
    expect(me.body.id).toEqual(expect.any(String));
    expect((await admin.as(undefined).get("/v1/user")).status).toBe(401);
  });

  test("a site published through the API is served as a web page", async () => {
    const admin = new ApiClient(url, adminToken);
    const owner = await createUser(admin);
    const org = await createOrg(owner.api);
    const space = await createSpace(owner.api, org.id, { title: "Handbook" });
    expect((await owner.api.post(`/v1/spaces/${space.id}/content/template`, { id: "getting-started" })).status).toBeLessThan(300);
    const site = await owner.api.post(`/v1/orgs/${org.id}/sites`, { title: "Image check", spaces: [space.id] });
    expect(site.status).toBe(201);
    const basename = `image-${randomBytes(4).toString("hex")}`;
    expect((await owner.api.patch(`/v1/orgs/${org.id}/sites/${site.body.id}`, { basename })).status).toBe(200);
    expect((await owner.api.post(`/v1/orgs/${org.id}/sites/${site.body.id}/publish`)).status).toBe(200);
    const page = await fetch(`${url}/sites/${basename}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const text = await page.text();
    for (const title of ["Welcome", "Quickstart", "Configuration"]) expect(text).toContain(title);
  });

  test("an import run and an OpenAPI spec are processed on the worker threads, whose entry files resolve from dist", async () => {
    const admin = new ApiClient(url, adminToken);
    const owner = await createUser(admin);
    const org = await createOrg(owner.api);
    const space = await createSpace(owner.api, org.id, { title: "Imported" });
    const file = `data:text/markdown;name=hello.md;base64,${Buffer.from("# Hello\n\nFrom a worker thread.").toString("base64")}`;
    const run = await owner.api.post(`/v1/org/${org.id}/imports`, { source: { type: "file", files: [file] }, target: { space: space.id } });
    expect(run.status).toBe(201);
    const spec = await owner.api.post(`/v1/orgs/${org.id}/openapi`, {
      slug: "tiny",
      source: { text: JSON.stringify({ openapi: "3.0.3", info: { title: "Tiny", version: "1" }, paths: {} }) },
    });
    expect(spec.status).toBe(201);
    const deadline = Date.now() + 30_000;
    let ran: { status?: string } = {};
    let processed: { processingState?: string; lastVersion?: string } = {};
    while (Date.now() < deadline && !(ran.status === "completed" && processed.processingState === "complete")) {
      await new Promise((r) => setTimeout(r, 200));
      ran = (await owner.api.get(`/v1/org/${org.id}/imports/${run.body.id}`)).body;
      processed = (await owner.api.get(`/v1/orgs/${org.id}/openapi/tiny`)).body;
    }
    expect(ran.status).toBe("completed");
    expect(processed).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
    expect((await owner.api.get(`/v1/spaces/${space.id}/content/path/hello`)).body.title).toBe("Hello");
    expect(existsSync(join(app, "packages", "worker-pool", "dist", "worker.js"))).toBe(true);
  });

  describe("deploy/make-secrets.mjs (the Kubernetes Job that makes the Secrets, run with this image)", () => {
    let api: Server;
    let apiUrl: string;
    const secrets = new Map<string, Record<string, string>>();
    const requests: string[] = [];
    const accountToken = randomBytes(16).toString("hex");

    beforeAll(async () => {
      // The part of the Kubernetes API the script uses: read and create Secrets in one namespace.
      api = createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        const answer = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
        if (req.headers.authorization !== `Bearer ${accountToken}`) return answer(401, { message: "Unauthorized" });
        const match = /^\/api\/v1\/namespaces\/docs-ns\/secrets(?:\/([a-z0-9-]+))?$/.exec(req.url ?? "");
        if (!match) return answer(404, { message: "no such path" });
        if (req.method === "GET" && match[1]) return secrets.has(match[1]) ? answer(200, { data: secrets.get(match[1]) }) : answer(404, { message: "not found" });
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString()));
        req.on("end", () => {
          if (req.method === "PATCH" && match[1]) {
            // A JSON merge patch of data: keys added (or replaced), others kept.
            if (!secrets.has(match[1])) return answer(404, { message: "not found" });
            if (req.headers["content-type"] !== "application/merge-patch+json") return answer(415, { message: "unsupported media type" });
            secrets.set(match[1], { ...secrets.get(match[1]), ...(JSON.parse(body) as { data: Record<string, string> }).data });
            return answer(200, { data: secrets.get(match[1]) });
          }
          const secret = JSON.parse(body) as { metadata: { name: string }; data: Record<string, string> };
          if (secrets.has(secret.metadata.name)) return answer(409, { message: "already exists" });
          secrets.set(secret.metadata.name, secret.data);
          answer(201, secret);
        });
      });
      await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
      apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

    function run(tokenValue: string): Promise<{ code: number | null; out: string }> {
      const tokenFile = join(work, `token-${randomBytes(4).toString("hex")}`);
      writeFileSync(tokenFile, `${tokenValue}\n`);
      const child = spawn(process.execPath, ["deploy/make-secrets.mjs"], {
        cwd: app,
        env: containerEnv({ KUBERNETES_API: apiUrl, KUBERNETES_TOKEN_FILE: tokenFile, POD_NAMESPACE: "docs-ns", MONGO_HOSTS: "db-0.db:27017,db-1.db:27017" }),
      });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
      return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out })));
    }
    const decoded = (name: string) => Object.fromEntries(Object.entries(secrets.get(name) ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));

    test("refused by the API server, it fails and makes nothing", async () => {
      const result = await run("not-the-token");
      expect(result.code).not.toBe(0);
      expect(result.out).toContain("HTTP 401");
      expect(secrets.size).toBe(0);
    });

    test("makes each missing Secret with random values, keeps one made beforehand, and a second run changes nothing", async () => {
      const own = { NATS_TOKEN: Buffer.from("an-operator-made-token").toString("base64") };
      secrets.set("docshelf-nats", own);
      const first = await run(accountToken);
      expect(first).toEqual({ code: 0, out: expect.stringContaining("secrets are in place") });
      expect([...secrets.keys()].sort()).toEqual(["docshelf-nats", "docshelf-secrets", "mongodb-auth"]);
      expect(secrets.get("docshelf-nats")).toBe(own);
      const auth = decoded("mongodb-auth");
      expect(auth.MONGO_ROOT_PASSWORD).toMatch(/^[A-Za-z0-9]{40}$/);
      expect(auth.keyfile).toMatch(/^[A-Za-z0-9]{756}$/);
      const app = decoded("docshelf-secrets");
      expect(app.ADMIN_TOKEN).toMatch(/^dsk_[A-Za-z0-9]{43}$/);
      // A user and a database per service that keeps data, each with its own random password.
      const stores = ["identity", "orgs", "content", "openapi", "comments", "sites", "change-requests", "git-sync", "app"];
      const passwords = new Set<string>([auth.MONGO_ROOT_PASSWORD]);
      for (const service of stores) {
        const key = service.toUpperCase().replace(/-/g, "_");
        const password = auth[`MONGO_PASSWORD_${key}`];
        expect(password).toMatch(/^[A-Za-z0-9]{40}$/);
        passwords.add(password);
        expect(app[`MONGO_URL_${key}`]).toBe(`mongodb://docshelf-${service}:${password}@db-0.db:27017,db-1.db:27017/docshelf-${service}?replicaSet=rs0&authSource=admin`);
      }
      expect(passwords.size).toBe(stores.length + 1);
      expect(Object.keys(app).sort()).toEqual(["ADMIN_TOKEN", ...stores.map((s) => `MONGO_URL_${s.toUpperCase().replace(/-/g, "_")}`)].sort());

      const before = JSON.stringify([...secrets]);
      const posts = requests.filter((r) => r.startsWith("POST")).length;
      expect((await run(accountToken)).code).toBe(0);
      expect(JSON.stringify([...secrets])).toBe(before);
      expect(requests.filter((r) => r.startsWith("POST")).length).toBe(posts);
    });

    test("Secrets an older version made get the keys they lack, and keep every value they had", async () => {
      const older = (data: Record<string, string>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
      secrets.clear();
      secrets.set("mongodb-auth", older({ MONGO_ROOT_PASSWORD: "root-kept", MONGO_APP_PASSWORD: "app-kept", keyfile: "k".repeat(756) }));
      secrets.set("docshelf-secrets", older({ ADMIN_TOKEN: "dsk_kept-admin-token", MONGO_URL: "mongodb://docshelf:app-kept@old/docshelf" }));
      secrets.set("docshelf-nats", older({ NATS_TOKEN: "nats-kept" }));
      const result = await run(accountToken);
      expect(result).toEqual({ code: 0, out: expect.stringContaining("added MONGO_PASSWORD_IDENTITY") });
      const auth = decoded("mongodb-auth");
      expect(auth).toMatchObject({ MONGO_ROOT_PASSWORD: "root-kept", MONGO_APP_PASSWORD: "app-kept", keyfile: "k".repeat(756) });
      expect(auth.MONGO_PASSWORD_CONTENT).toMatch(/^[A-Za-z0-9]{40}$/);
      const app = decoded("docshelf-secrets");
      expect(app).toMatchObject({ ADMIN_TOKEN: "dsk_kept-admin-token", MONGO_URL: "mongodb://docshelf:app-kept@old/docshelf" });
      expect(app.MONGO_URL_CONTENT).toContain(`docshelf-content:${auth.MONGO_PASSWORD_CONTENT}@`);
      expect(decoded("docshelf-nats")).toEqual({ NATS_TOKEN: "nats-kept" });
      // No secret value in the Job's output.
      for (const value of [auth.MONGO_PASSWORD_CONTENT, "root-kept", "dsk_kept-admin-token"]) expect(result.out).not.toContain(value);
    });
  });
});
