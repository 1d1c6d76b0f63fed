// Scaled out, a change request merged while every git-sync worker is down is still exported once one is
// back: change-requests publishes merges on a durable JetStream channel git-sync's group reads.
import { ALL_SERVICES } from "@docshelf/config";
import { addMember, createOrg, createSpace, createUser, startNats, type NatsSystem, type TestUser, overrideEnv } from "@docshelf/testkit";
import { cloneRepo, createRepo, git, startGitServer, type GitServer } from "./git-sync-server";
import { MODES } from "./modes";

const maybe = MODES.includes("nats") ? describe : describe.skip;

maybe("exports of merged change requests across a git-sync outage (NATS)", () => {
  let sys: NatsSystem;
  let server: GitServer;
  let owner: TestUser;
  let editor: TestUser;
  let orgId: string;
  let restoreEnv: () => void = () => undefined;
  const gitSyncIndex = ALL_SERVICES.indexOf("git-sync");

  beforeAll(async () => {
    server = await startGitServer();
    restoreEnv = overrideEnv({ GIT_SYNC_ALLOW_PRIVATE: `127.0.0.1:${server.port}`, GIT_SYNC_SWEEP_INTERVAL_MS: "500" });
    sys = await startNats();
    [owner, editor] = await Promise.all([createUser(sys.admin), createUser(sys.admin)]);
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
  });

  afterAll(async () => {
    await sys?.stop();
    restoreEnv();
    await server?.close();
  });

  async function poll<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${sys.logs.join("").slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  test("a merge made while git-sync is stopped is exported after it starts again", async () => {
    const space = await createSpace(owner.api, orgId, { title: "Outage" });
    await sys.admin.post(`/v1/_test/spaces/${space.id}/changes`, { changes: [{ type: "insert_page", title: "Home", markdown: "Home.\n" }] });
    createRepo(server, "outage", {});
    const setUp = await owner.api.post(`/v1/spaces/${space.id}/git/export`, { url: server.url("outage"), ref: "refs/heads/main", commitMessage: "Set up" });
    expect(setUp.status).toBe(204);
    const setUpJob = setUp.headers.get("location")!;
    await poll(async () => {
      const res = await owner.api.get(new URL(setUpJob).pathname);
      return res.body.status === "succeeded" ? res.body : undefined;
    }, "the first export");

    const child = sys.children[gitSyncIndex];
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });

    const cr = await editor.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "While it was down" });
    expect(cr.status).toBe(201);
    expect((await editor.api.post(`/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, { changes: [{ operation: "insert_page", title: "Late", document: { markdown: "Late." } }] })).status).toBe(200);
    expect((await owner.api.post(`/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);

    sys.respawn(gitSyncIndex);
    const job = await poll(async () => {
      const res = await owner.api.get(`/v1/spaces/${space.id}/git/jobs/merge-${cr.body.id}`);
      return res.status === 200 && res.body.status !== "pending" && res.body.status !== "running" ? res.body : undefined;
    }, "the merge's export after the restart");
    expect(job).toMatchObject({ status: "succeeded", changeRequest: { id: cr.body.id, number: cr.body.number } });
    expect(git(cloneRepo(server, "outage"), "log", "--format=%s").split("\n")).toEqual([`GITBOOK-${cr.body.number}: While it was down`, "Set up"]);
  });
});
