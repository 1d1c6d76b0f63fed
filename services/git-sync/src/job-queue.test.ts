import { SqliteStore } from "@docshelf/store";
import { JobQueue, type JobOutcome, type LinkSaver, type QueueStores } from "./job-queue";
import { collections, type JobDoc } from "./models";

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

async function stores(): Promise<QueueStores> {
  const store = new SqliteStore({});
  opened.push(store);
  return { jobs: await store.collection(collections.jobs), links: await store.collection(collections.links), leases: await store.collection(collections.leases) };
}

let seq = 0;
function job(spaceId: string, timestamp: number, extra: Partial<JobDoc> = {}): JobDoc {
  const now = new Date(Date.now() + seq++).toISOString();
  return {
    id: `job-${seq}`,
    spaceId,
    organizationId: "org",
    kind: "import",
    status: "pending",
    stage: "repo_fetch",
    timestamp,
    params: { url: "https://example.com/r.git", ref: "refs/heads/main", force: false, standalone: false },
    createdBy: "u",
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

const applied = (): JobOutcome => ({ applied: true, fields: {} });

function queue(s: QueueStores, run: (job: JobDoc, signal: AbortSignal, saveLink: LinkSaver) => Promise<JobOutcome>, holder = "w1", leaseMs = 60_000) {
  return new JobQueue(s, { holder, leaseMs, run, describeFailure: (_job, err) => ({ code: "x", message: String((err as Error).message) }) });
}

describe("the per-space job queue", () => {
  it("runs a space's waiting jobs one at a time, oldest timestamp first", async () => {
    const s = await stores();
    for (const ts of [300, 100, 200]) await s.jobs.insert(job("space", ts));
    const order: number[] = [];
    let running = 0;
    const q = queue(s, async (j) => {
      running++;
      expect(running).toBe(1);
      order.push(j.timestamp);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return applied();
    });
    await Promise.all([q.wake("space"), q.wake("space")]);
    expect(order).toEqual([100, 200, 300]);
    expect((await s.links.findOne({ id: "space" }))?.lastTimestamp).toBe(300);
  });

  it("skips a job older than one already applied, and removes its credentials", async () => {
    const s = await stores();
    await s.jobs.insert(job("space", 500));
    const q = queue(s, async () => applied());
    await q.wake("space");
    const late = job("space", 400, { sealedCredentials: "sealed" });
    await s.jobs.insert(late);
    await q.wake("space");
    const stored = await s.jobs.findOne({ id: late.id });
    expect(stored?.status).toBe("skipped");
    expect(stored?.sealedCredentials).toBeUndefined();
  });

  it("a failed job records its message and does not advance the space's timestamp", async () => {
    const s = await stores();
    const failing = job("space", 100);
    await s.jobs.insert(failing);
    const q = queue(s, async () => {
      throw new Error("boom");
    });
    await q.wake("space");
    expect(await s.jobs.findOne({ id: failing.id })).toMatchObject({ status: "failed", error: "boom" });
    expect(await s.links.findOne({ id: "space" })).toBeNull();
  });

  it("leaves a space alone while another worker holds its lease, and takes over once it lapses", async () => {
    const s = await stores();
    await s.leases.insert({ id: "space", holder: "other", until: new Date(Date.now() + 60_000).toISOString() });
    await s.jobs.insert(job("space", 1));
    const ran: string[] = [];
    const q = queue(s, async (j) => (ran.push(j.id), applied()));
    await q.wake("space");
    expect(ran).toEqual([]);
    await s.leases.updateOne({ id: "space" }, { $set: { until: new Date(Date.now() - 1).toISOString() } });
    await q.wake("space");
    expect(ran).toHaveLength(1);
  });

  it("a sweep finds pending jobs and running jobs whose worker stopped renewing", async () => {
    const s = await stores();
    await s.jobs.insert(job("a", 1));
    const abandoned = job("b", 1, { status: "running", leaseUntil: new Date(Date.now() - 1000).toISOString() });
    await s.jobs.insert(abandoned);
    await s.jobs.insert(job("c", 1, { status: "running", leaseUntil: new Date(Date.now() + 60_000).toISOString() }));
    const q = queue(s, async () => applied());
    expect((await q.spacesWithWork()).sort()).toEqual(["a", "b"]);
    expect((await s.jobs.findOne({ id: abandoned.id }))?.status).toBe("pending");
  });

  it("stopping interrupts a running job and puts it back to pending for the next start", async () => {
    const s = await stores();
    const waiting = job("space", 1, { sealedCredentials: "sealed" });
    await s.jobs.insert(waiting);
    let started!: () => void;
    const began = new Promise<void>((r) => (started = r));
    const q = queue(s, (_j, signal) => {
      started();
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    });
    const drained = q.wake("space");
    await began;
    await q.stop();
    await drained;
    expect(await s.jobs.findOne({ id: waiting.id })).toMatchObject({ status: "pending", sealedCredentials: "sealed" });
    expect(await s.leases.findOne({ id: "space" })).toBeNull();
  });

  it("a job that saved its link and then failed puts the link back exactly as it was (all or nothing)", async () => {
    const s = await stores();
    const now = new Date().toISOString();
    await s.links.insert({ id: "space", organizationId: "org", url: "u", ref: "r", repoName: "n", lastTimestamp: 50, lastCommit: "old", redirectList: [{ source: "a.b", destination: "c.md" }], createdAt: now, updatedAt: now });
    const before = await s.links.findOne({ id: "space" });
    await s.jobs.insert(job("space", 100));
    const q = queue(s, async (_job, _signal, saveLink) => {
      const undo = await saveLink({ lastCommit: "new", redirectList: [{ source: "2.1-setup/overview", destination: "x.md" }], siteRedirects: [] });
      expect(await s.links.findOne({ id: "space" })).toMatchObject({ lastCommit: "new", lastTimestamp: 100 });
      await undo();
      throw new Error("moving the space failed");
    });
    await q.wake("space");
    expect(await s.links.findOne({ id: "space" })).toEqual(before);
    expect(await s.jobs.findOne({ spaceId: "space" })).toMatchObject({ status: "failed", error: "moving the space failed" });
  });

  it("a job's link saved by the job itself is not applied twice, and a new link is removed by its undo", async () => {
    const s = await stores();
    await s.jobs.insert(job("fresh", 100));
    await s.jobs.insert(job("kept", 100));
    const q = queue(s, async (j, _signal, saveLink) => {
      const undo = await saveLink({ lastCommit: "c1" });
      if (j.spaceId === "fresh") {
        await undo();
        throw new Error("push refused");
      }
      return { applied: true, linkSaved: true, fields: {}, link: { lastCommit: "ignored" } };
    });
    await q.wake("fresh");
    await q.wake("kept");
    expect(await s.links.findOne({ id: "fresh" })).toBeNull();
    expect(await s.links.findOne({ id: "kept" })).toMatchObject({ lastCommit: "c1", lastTimestamp: 100 });
  });
});
