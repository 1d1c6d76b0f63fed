// Import runs' state rules on a broker of their own: a run committing can no longer be cancelled, a run
// whose heartbeat stopped reads as failed, the user who started a run may cancel it without the edit role.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Membership, RoleOrGuest } from "@docshelf/access";
import { contentSchema } from "./content.service";
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
});
