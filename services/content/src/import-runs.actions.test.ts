// Import runs' state rules on a broker of their own: a run committing can no longer be cancelled, a run
// whose heartbeat stopped reads as failed, the user who started a run may cancel it without the edit role.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Membership, RoleOrGuest } from "@docshelf/access";
import { WorkerBusyError, WorkerMemoryError, WorkerTimeoutError, type WorkerPool } from "@docshelf/worker-pool";
import { contentSchema } from "./content.service";
import { filePagesTask } from "./import-runs/pages-task";
import type { ImportRunDoc } from "./models";
import type { ContentService } from "./service-types";

const ORG = "org00000000000000001";
const as = (id: string) => ({ meta: { user: { id, instanceAdmin: false } } });
const markdownFile = (name: string, text: string) => `data:text/markdown;name=${name};base64,${Buffer.from(text).toString("base64")}`;

describe("import runs", () => {
  let broker: ServiceBroker;
  let dir: string;
  let service: ContentService;
  const roles = new Map<string, RoleOrGuest>([
    ["owner", "admin"],
    ["reader", "read"],
  ]);
  const call = <T,>(name: string, params: object, user = "owner") => broker.call<T, object>(name, params, as(user));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "import-runs-"));
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: dir }));
    broker.createService({
      name: "orgs",
      actions: {
        memberRole: (ctx: { params: { userId: string } }): Membership =>
          roles.has(ctx.params.userId) ? { exists: true, member: true, role: roles.get(ctx.params.userId) ?? null } : { exists: true, member: false, role: null },
      },
    });
    service = broker.createService(contentSchema() as unknown as ServiceSchema) as unknown as ContentService;
    await broker.start();
  });
  afterEach(async () => {
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function storedRun(fields: Partial<ImportRunDoc>): Promise<ImportRunDoc> {
    const space = await call<{ id: string }>("content.createSpace", { organizationId: ORG, title: "S" });
    const now = new Date().toISOString();
    return service.importRuns.insert({
      id: `run${Math.random().toString(36).slice(2, 12)}`,
      organizationId: ORG,
      spaceId: space.id,
      source: { type: "website", url: "https://example.com/" },
      status: "in-progress",
      createdBy: "owner",
      createdAt: now,
      updatedAt: now,
      ...fields,
    });
  }

  async function settled(runId: string): Promise<{ status: string; pages: unknown[] }> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const run = await call<{ status: string; pages: unknown[] }>("content.getImportRun", { organizationId: ORG, importRunId: runId });
      if (!["pending", "in-progress"].includes(run.status) || Date.now() > deadline) return run;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  test("a files run goes pending → completed and lists the pages it wrote", async () => {
    const space = await call<{ id: string }>("content.createSpace", { organizationId: ORG, title: "S" });
    const started = await call<{ id: string; status: string }>("content.startImportRun", {
      organizationId: ORG,
      source: { type: "file", files: [markdownFile("a.md", "# A\n\nText.")] },
      target: { space: space.id },
    });
    expect(started.status).toBe("pending");
    const run = await settled(started.id);
    expect(run).toMatchObject({ status: "completed", pages: [{ type: "page", status: "complete", id: expect.any(String) }] });
  });

  test("a run that claimed its commit can no longer be cancelled (400), and stays as it is", async () => {
    const run = await storedRun({ committing: true });
    await expect(call("content.cancelImportRun", { organizationId: ORG, importRunId: run.id })).rejects.toMatchObject({ code: 400, message: expect.stringContaining("committing") });
    expect((await service.importRuns.findOne({ id: run.id }))!.status).toBe("in-progress");
  });

  test("an active run whose heartbeat stopped reads as failed, in get and in the status filter", async () => {
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    const run = await storedRun({ updatedAt: old });
    const read = await call<{ status: string; reason: string }>("content.getImportRun", { organizationId: ORG, importRunId: run.id });
    expect(read.status).toBe("failed");
    expect(read.reason).toContain("stopped reporting progress");
    const active = await call<{ count: number }>("content.listImportRuns", { organizationId: ORG, status: "active" });
    expect(active.count).toBe(0);
  });

  test("the user who started a run may cancel it without the edit role; another reader may not (403)", async () => {
    roles.set("starter", "read");
    const mine = await storedRun({ createdBy: "starter", status: "pending" });
    await expect(call("content.cancelImportRun", { organizationId: ORG, importRunId: mine.id }, "reader")).rejects.toMatchObject({ code: 403 });
    const cancelled = await call<{ status: string }>("content.cancelImportRun", { organizationId: ORG, importRunId: mine.id }, "starter");
    expect(cancelled.status).toBe("cancelled");
  });

  test("an organization with CONTENT_IMPORT_MAX_ACTIVE_RUNS active runs gets 429 for one more; an ended run frees its place", async () => {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await storedRun({ status: "pending" }));
    const space = await call<{ id: string }>("content.createSpace", { organizationId: ORG, title: "S" });
    const start = () => call("content.startImportRun", { organizationId: ORG, source: { type: "website", url: "https://example.com/" }, target: { space: space.id } });
    await expect(start()).rejects.toMatchObject({ code: 429 });
    await call("content.cancelImportRun", { organizationId: ORG, importRunId: runs[0].id });
    await expect(start()).resolves.toMatchObject({ status: "pending" });
  });

  test("another organization's run id is 404 through this organization's path", async () => {
    const run = await storedRun({ organizationId: "org00000000000000002" });
    await expect(call("content.getImportRun", { organizationId: ORG, importRunId: run.id })).rejects.toMatchObject({ code: 404 });
  });
  describe("on the worker pool", () => {
    /** Puts a pool in the service's place whose run() does what `answer` says with the task's arguments. */
    const usePool = (answer: (module: string, fn: string, args: unknown[]) => Promise<unknown>) => {
      service.workers = { run: answer } as unknown as WorkerPool;
    };
    const startFiles = async (files: string[]) => {
      const space = await call<{ id: string }>("content.createSpace", { organizationId: ORG, title: "S" });
      const started = await call<{ id: string }>("content.startImportRun", { organizationId: ORG, source: { type: "file", files }, target: { space: space.id } });
      return { spaceId: space.id, runId: started.id };
    };

    test("a files run reads its files through pages-task, one task of the organization at a time", async () => {
      const calls: string[] = [];
      let running = 0;
      let most = 0;
      usePool(async (module, fn, args) => {
        calls.push(`${basename(module)} ${fn}`);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 300)); // long enough for the second run to start
        running--;
        return filePagesTask(...(args as Parameters<typeof filePagesTask>));
      });
      const runs = [await startFiles([markdownFile("a.md", "# A\n\nText.")]), await startFiles([markdownFile("b.md", "# B\n\nText.")])];
      for (const { runId } of runs) expect(await settled(runId)).toMatchObject({ status: "completed", pages: [{ type: "page", status: "complete" }] });
      expect(calls).toEqual(["pages-task.ts filePagesTask", "pages-task.ts filePagesTask"]);
      expect(most).toBe(1);
    });

    test("a refusal in the worker fails the run with its message, as in this thread", async () => {
      usePool(async (_module, _fn, args) => filePagesTask(...(args as Parameters<typeof filePagesTask>)));
      // An entry that declares 10 bytes and inflates to more: refused while the run reads it, in the worker.
      const bytes = Buffer.from(zipSync({ "a.md": strToU8(`# A\n\n${"text ".repeat(200)}`) }));
      bytes.writeUInt32LE(10, 22); // the local header's size
      bytes.writeUInt32LE(10, bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24); // the directory's
      const { runId } = await startFiles([`data:application/zip;name=docs.zip;base64,${bytes.toString("base64")}`]);
      expect(await settled(runId)).toMatchObject({ status: "failed", reason: `'source.files[0]': the ZIP entry "a.md" decompresses to more than the 10 bytes its directory declares.` });
    });

    test("past the pool's time or memory limit, or with its queue full, the run fails naming it and writes nothing", async () => {
      for (const [err, reason] of [
        [new WorkerTimeoutError(1500), "Reading the files took longer than the limit of 1500 ms; send fewer or smaller files."],
        [new WorkerMemoryError(128), "Reading the files needed more than the memory limit of 128 MiB; send fewer or smaller files."],
        [new WorkerBusyError(64), "The instance is busy reading other imports; start the import again later."],
      ] as const) {
        usePool(() => Promise.reject(err));
        const { spaceId, runId } = await startFiles([markdownFile("a.md", "# A")]);
        const before = (await service.spaces.findOne({ id: spaceId }))!.revision;
        const run = await settled(runId);
        expect(run).toMatchObject({ status: "failed", reason });
        expect((await service.spaces.findOne({ id: spaceId }))!.revision).toBe(before);
      }
    });
  });
});
