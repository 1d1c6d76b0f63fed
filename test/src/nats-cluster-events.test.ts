// The durable events of a three-node NATS cluster (nats-servers.ts) when one node dies: right after a
// SIGKILL of the node most clients are on, before anything reconnected, a change request is merged in a
// space that exports to Git (change-requests' durable `change-requests.merged` channel), a Git import is
// started (git-sync's `git-sync.jobs` channel, the store and the sweep behind it) and a space is deleted
// and purged (`content.space.purged`, whose handlers drop its dependants). Each trigger is retried until
// the API acknowledges it; then every acknowledged event must have had its effect: the export commit is
// in the repository, the import's pages are in the space, the purged space's change requests, Git link
// and jobs are gone from the store. The test logs what it saw.
import { createOrg, createSpace, createUser, startNats, type NatsSystem, type TestUser, overrideEnv } from "@docshelf/testkit";
import { cloneRepo, createRepo, git, startGitServer, type GitServer } from "./git-sync-server";
import { MODES } from "./modes";
import { startNatsCluster, type OwnServers } from "./nats-servers";
import { countStored } from "./store-snapshot";

const maybe = MODES.includes("nats") ? describe : describe.skip;
const DAY = 24 * 3600 * 1000;
/** How long a trigger is retried, and an effect waited for, after the kill. */
const PATIENCE_MS = 45_000;

jest.setTimeout(240_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

maybe("durable events while a node of a three-node NATS cluster is killed", () => {
  let cluster: OwnServers;
  let sys: NatsSystem;
  let server: GitServer;
  let owner: TestUser;
  let orgId: string;
  let restoreEnv: () => void = () => undefined;

  beforeAll(async () => {
    server = await startGitServer();
    restoreEnv = overrideEnv({ GIT_SYNC_ALLOW_PRIVATE: `127.0.0.1:${server.port}` });
    cluster = await startNatsCluster();
    // Three copies of every stream, as deploy/k8s sets it; git-sync's sweep at its default (10 s).
    sys = await startNats({ natsUrl: cluster.urls, env: { RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANON_PER_MINUTE: "0", NATS_STREAM_REPLICAS: "3" } });
    owner = await createUser(sys.admin);
    orgId = (await createOrg(owner.api)).id;
  });

  afterAll(async () => {
    await sys?.stop();
    await cluster?.dispose();
    restoreEnv();
    await server?.close();
  });

  async function poll<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = PATIENCE_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${sys.logs.join("").slice(-3000)}`);
      await sleep(100);
    }
  }

  async function job(spaceId: string, jobId: string): Promise<{ status: string; stage?: string; error?: unknown }> {
    return poll(async () => {
      const res = await owner.api.get(`/v1/spaces/${spaceId}/git/jobs/${jobId}`);
      return res.status === 200 && res.body.status !== "pending" && res.body.status !== "running" ? res.body : undefined;
    }, `Git job ${jobId}`);
  }

  const stored = (service: string, collection: string, match: (doc: Record<string, unknown>) => boolean) => countStored(sys, service, collection, match);

  /** What a purged space left behind: its change requests, its Git link and its Git jobs. */
  async function dependants(spaceId: string): Promise<{ changeRequests: number; gitLinks: number; gitJobs: number }> {
    return {
      changeRequests: await stored("change-requests", "change_requests", (d) => d.spaceId === spaceId),
      gitLinks: await stored("git-sync", "links", (d) => d._id === spaceId),
      gitJobs: await stored("git-sync", "jobs", (d) => d.spaceId === spaceId),
    };
  }

  /** Retries `attempt` until it says the API acknowledged; the ms from `since` to that answer. */
  async function acknowledged(what: string, since: number, attempt: (tries: number) => Promise<boolean>): Promise<{ ms: number; tries: number }> {
    for (let tries = 1; ; tries++) {
      if (await attempt(tries).catch(() => false)) return { ms: Date.now() - since, tries };
      if (Date.now() - since > PATIENCE_MS) throw new Error(`${what} was never acknowledged\n${sys.logs.join("").slice(-3000)}`);
      await sleep(200);
    }
  }

  test("a merge's export, a Git import and a space's purge triggered as a node dies all take effect", async () => {
    // A space exporting to Git, with a change request ready to merge.
    const exported = await createSpace(owner.api, orgId, { title: "Exported" });
    await sys.admin.post(`/v1/_test/spaces/${exported.id}/changes`, { changes: [{ type: "insert_page", title: "Home", markdown: "Home.\n" }] });
    createRepo(server, "exported", {});
    const setUp = await owner.api.post(`/v1/spaces/${exported.id}/git/export`, { url: server.url("exported"), ref: "refs/heads/main", commitMessage: "Set up" });
    expect(setUp.status).toBe(204);
    expect((await job(exported.id, setUp.headers.get("location")!.split("/").pop()!)).status).toBe("succeeded");
    const cr = await owner.api.post(`/v1/spaces/${exported.id}/change-requests`, { subject: "During the kill" });
    expect(cr.status).toBe(201);
    expect((await owner.api.post(`/v1/spaces/${exported.id}/change-requests/${cr.body.id}/content`, { changes: [{ operation: "insert_page", title: "Late", document: { markdown: "Late." } }] })).status).toBe(200);

    // A space to delete, with dependants in two other services: a change request, a Git link and a job.
    const doomed = await createSpace(owner.api, orgId, { title: "Doomed" });
    await sys.admin.post(`/v1/_test/spaces/${doomed.id}/changes`, { changes: [{ type: "insert_page", title: "Home", markdown: "Home.\n" }] });
    expect((await owner.api.post(`/v1/spaces/${doomed.id}/change-requests`, { subject: "Goes with the space" })).status).toBe(201);
    createRepo(server, "doomed", {});
    const doomedExport = await owner.api.post(`/v1/spaces/${doomed.id}/git/export`, { url: server.url("doomed"), ref: "refs/heads/main", commitMessage: "Doomed" });
    expect(doomedExport.status).toBe(204);
    expect((await job(doomed.id, doomedExport.headers.get("location")!.split("/").pop()!)).status).toBe("succeeded");
    const before = await dependants(doomed.id);
    expect(before).toEqual({ changeRequests: 1, gitLinks: 1, gitJobs: 1 });

    // A space to import into, and its repository.
    const imported = await createSpace(owner.api, orgId, { title: "Imported" });
    createRepo(server, "imported", { "README.md": "# Imported home\n\nFrom Git.\n", "setup.md": "# Setup\n\nSteps.\n" });

    const counts = await Promise.all(cluster.nodes.map((n) => n.connections()));
    const victim = counts.indexOf(Math.max(...counts));
    expect(counts[victim]).toBeGreaterThan(0);
    await cluster.nodes[victim].kill();
    const killedAt = Date.now();
    expect(cluster.nodes[victim].running()).toBe(false);

    // All three at once, right after the kill, each retried until acknowledged.
    let importJob = "";
    let deleted = false;
    const [merge, importing, purge] = await Promise.all([
      acknowledged("the merge", killedAt, async () => {
        const res = await owner.api.post(`/v1/spaces/${exported.id}/change-requests/${cr.body.id}/merge`);
        if (res.status === 200) return true;
        // An earlier attempt may have merged without its answer arriving.
        return (await owner.api.get(`/v1/spaces/${exported.id}/change-requests/${cr.body.id}`)).body?.status === "merged";
      }),
      acknowledged("the Git import", killedAt, async () => {
        const res = await owner.api.post(`/v1/spaces/${imported.id}/git/import`, { url: server.url("imported"), ref: "refs/heads/main" });
        if (res.status !== 204) return false;
        importJob = res.headers.get("location")!.split("/").pop()!;
        return true;
      }),
      acknowledged("the deletion and purge", killedAt, async () => {
        if (!deleted) {
          const res = await owner.api.delete(`/v1/spaces/${doomed.id}`);
          // 404: an earlier attempt deleted it without its answer arriving.
          if (res.status !== 204 && res.status !== 404) return false;
          deleted = true;
        }
        // Past the 7-day window, the purge job runs (a repeat finds nothing more to purge).
        const res = await sys.admin.post("/v1/_test/content/clock", { ms: 7 * DAY + 60_000 });
        return res.status === 200 && (await owner.api.get(`/v1/spaces/${doomed.id}`)).status === 404;
      }),
    ]);
    const allAcknowledged = Date.now() - killedAt;

    // Every acknowledged event has its effect, with the node still down (two of three copies of each stream left).
    const exportJob = await job(exported.id, `merge-${cr.body.id}`);
    const exportedMs = Date.now() - killedAt;
    const importDone = await job(imported.id, importJob);
    const importedMs = Date.now() - killedAt;
    const left = await poll(async () => {
      const now = await dependants(doomed.id);
      return now.changeRequests + now.gitLinks + now.gitJobs === 0 ? now : undefined;
    }, "the purged space's dependants to go");
    const purgedMs = Date.now() - killedAt;
    expect(cluster.nodes[victim].running()).toBe(false);

    console.log(
      `nats-cluster-events: clients per node ${counts.join("/")}, node ${victim} killed; acknowledged after the kill (all by ${allAcknowledged} ms): ` +
        `merge ${merge.ms} ms (${merge.tries} tries), import ${importing.ms} ms (${importing.tries}), deletion+purge ${purge.ms} ms (${purge.tries}); ` +
        `done after the kill, the node still down: export ${exportJob.status} at ${exportedMs} ms, import ${importDone.status} at ${importedMs} ms, dependants gone at ${purgedMs} ms ` +
        `(${before.changeRequests} change request, ${before.gitLinks} link, ${before.gitJobs} job before)`,
    );
    expect(exportJob).toMatchObject({ status: "succeeded", changeRequest: { id: cr.body.id, number: cr.body.number } });
    expect(git(cloneRepo(server, "exported"), "log", "--format=%s").split("\n")).toEqual([`GITBOOK-${cr.body.number}: During the kill`, "Set up"]);
    expect(importDone.status).toBe("succeeded");
    const content = await owner.api.get(`/v1/spaces/${imported.id}/content`);
    expect(content.status).toBe(200);
    expect(content.body.pages.map((p: { title: string }) => p.title)).toEqual(["Imported home", "Setup"]);
    expect(left).toEqual({ changeRequests: 0, gitLinks: 0, gitJobs: 0 });
  });

  test("the killed node rejoins after its restart and a Git export runs through the cluster", async () => {
    const victim = cluster.nodes.findIndex((n) => !n.running());
    expect(victim).toBeGreaterThanOrEqual(0);
    const restartedAt = Date.now();
    await cluster.nodes[victim].start();
    const space = await createSpace(owner.api, orgId, { title: "After" });
    await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: [{ type: "insert_page", title: "Home", markdown: "Home.\n" }] });
    createRepo(server, "after", {});
    const setUp = await owner.api.post(`/v1/spaces/${space.id}/git/export`, { url: server.url("after"), ref: "refs/heads/main", commitMessage: "Set up" });
    expect(setUp.status).toBe(204);
    expect((await job(space.id, setUp.headers.get("location")!.split("/").pop()!)).status).toBe("succeeded");
    console.log(`nats-cluster-events: node ${victim} restarted; an export through the cluster succeeded ${Date.now() - restartedAt} ms later`);
  });
});
