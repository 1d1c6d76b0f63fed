// Git jobs are durable in the embedded default: a restart resumes waiting and interrupted jobs, in order.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { loadConfig } from "@docshelf/config";
import { createBroker, listeningPort } from "@docshelf/server";
import { ApiClient, createOrg, createSpace, createUser, type TestUser } from "@docshelf/testkit";
import { commitFiles, createRepo, startGitServer, type GitServer } from "./git-sync-server";

describe("Git jobs across a restart of the embedded default", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-git-restart-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  let server: GitServer;
  let broker: ServiceBroker | undefined;

  async function boot(): Promise<ApiClient> {
    // The git-sync service reads its own variables from the process environment.
    process.env.GIT_SYNC_ALLOW_PRIVATE = `127.0.0.1:${server.port}`;
    process.env.GIT_SYNC_SWEEP_INTERVAL_MS = "200";
    const cfg = loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOGLEVEL: "warn",
      PORT: "0",
      HOST: "127.0.0.1",
      TRANSPORTER: "",
      SERVICES: "all",
      // The embedded store on dataDir, even when the run has a MONGO_URL (the store contract's).
      MONGO_URL: "",
    });
    broker = createBroker(cfg, { logger: false });
    await broker.start();
    return new ApiClient(`http://127.0.0.1:${listeningPort(broker)}`, adminToken);
  }

  beforeAll(async () => {
    server = await startGitServer();
  });

  const saved = { allow: process.env.GIT_SYNC_ALLOW_PRIVATE, sweep: process.env.GIT_SYNC_SWEEP_INTERVAL_MS };

  afterAll(async () => {
    await broker?.stop();
    for (const [key, value] of [["GIT_SYNC_ALLOW_PRIVATE", saved.allow], ["GIT_SYNC_SWEEP_INTERVAL_MS", saved.sweep]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a job interrupted by a stop and one waiting behind it both run after the restart, in timestamp order", async () => {
    createRepo(server, "durable", { "README.md": "# First\n" });
    commitFiles(server, "durable", { "README.md": "# Second\n" }, "second");
    const admin = await boot();
    const owner: TestUser = await createUser(admin);
    const orgId = (await createOrg(owner.api)).id;
    const space = await createSpace(owner.api, orgId, { title: "Durable" });

    const resume = server.pause();
    const post = async (ref: string, second: number) => {
      const res = await owner.api.post(`/v1/spaces/${space.id}/git/import`, { url: server.url("durable"), ref, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString() });
      expect(res.status).toBe(204);
      return res.headers.get("location")!.split("/").pop()!;
    };
    const first = await post("refs/heads/main", 1);
    const second = await post("refs/heads/second", 2);
    // The first job is at the Git server (held there) when the process stops.
    const deadline = Date.now() + 10_000;
    while (!server.requests.some((r) => r.includes("durable.git")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await broker!.stop();
    broker = undefined;
    resume();

    const again = await boot();
    const api = again.as(owner.token);
    const status = async (id: string) => (await api.get(`/v1/spaces/${space.id}/git/jobs/${id}`)).body;
    const until = Date.now() + 30_000;
    let a = await status(first);
    let b = await status(second);
    while ((b.status === "pending" || b.status === "running" || a.status === "pending" || a.status === "running") && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      [a, b] = [await status(first), await status(second)];
    }
    expect({ a: a.status, error: a.error }).toEqual({ a: "succeeded", error: undefined });
    expect(b).toMatchObject({ status: "succeeded" });
    expect(a.completedAt <= b.completedAt).toBe(true);
    const content = await api.get(`/v1/spaces/${space.id}/content`);
    expect(content.body.pages.map((p: any) => p.title)).toEqual(["Second"]);
  });
});
