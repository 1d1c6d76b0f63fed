import { basename } from "node:path";
import { SqliteStore, type Collection } from "@docshelf/store";
import { WorkerBusyError, WorkerMemoryError, WorkerTimeoutError, type WorkerPool } from "@docshelf/worker-pool";
import { SafeFetchError, type SafeFetchResponse } from "@docshelf/safe-fetch";
import { specFixture } from "./__tests__/fixtures";
import type { Fetcher } from "./fetch-source";
import { collections, type DocumentDoc, type SpecDoc, type VersionDoc } from "./models";
import { parseSpec } from "./parse-spec";
import { parseSpecTask } from "./parse-spec-task";
import { isClaimable, processSpec, type ProcessingDeps } from "./processing";
import { OPENAPI_DEFAULTS, type OpenAPISettings } from "./settings";

const settings: OpenAPISettings = { ...OPENAPI_DEFAULTS, allowedPrivateTargets: [] };
let specs: Collection<SpecDoc>;
let versions: Collection<VersionDoc>;
let documents: Collection<DocumentDoc>;
let served: () => Promise<string>;

const fetcher: Fetcher = async (url) => {
  const text = await served();
  const res: SafeFetchResponse = { status: 200, headers: {}, body: Buffer.from(text), finalUrl: url.href, contentType: "application/json" };
  return res;
};
const deps = (): ProcessingDeps => ({ specs, versions, documents, settings, fetcher });

let seq = 0;
function specDoc(fields: Partial<SpecDoc> = {}): SpecDoc {
  const now = new Date().toISOString();
  seq++;
  return {
    id: `spec${seq}`,
    organizationId: "org1",
    slug: `pets-${seq}`,
    source: { url: "https://specs.example.com/pets.json" },
    visibility: "private",
    processingState: "pending",
    sourceRevision: 1,
    claimedAt: "",
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

let store: SqliteStore;

beforeEach(async () => {
  store = new SqliteStore({});
  specs = await store.collection<SpecDoc>(collections.specs);
  versions = await store.collection<VersionDoc>(collections.versions);
  documents = await store.collection<DocumentDoc>(collections.documents);
  served = async () => specFixture("3.1", "json");
});

afterEach(async () => {
  await store.close();
});

describe("processSpec", () => {
  test("a pending URL spec becomes complete with a first version and its document", async () => {
    const spec = await specs.insert(specDoc());
    const outcome = await processSpec(deps(), spec.id);
    expect(outcome.kind).toBe("versioned");
    const after = (await specs.findOne({ id: spec.id }))!;
    expect(after).toMatchObject({ processingState: "complete", claimedAt: "" });
    expect(after.lastProcessErrorCode).toBeUndefined();
    const version = (await versions.findOne({ id: after.lastVersion! }))!;
    expect(version).toMatchObject({ specId: spec.id, sourceURL: "https://specs.example.com/pets.json", specVersion: "3.1.0" });
    expect(JSON.parse((await documents.findOne({ id: version.id }))!.json)).toMatchObject({ openapi: "3.1.0" });
  });

  test("a text spec is processed without fetching", async () => {
    served = async () => {
      throw new Error("must not fetch");
    };
    const spec = await specs.insert(specDoc({ source: { text: specFixture("2.0", "yaml") } }));
    expect((await processSpec(deps(), spec.id)).kind).toBe("versioned");
  });

  test("a failed refresh records the error code and keeps the last good version", async () => {
    const spec = await specs.insert(specDoc());
    await processSpec(deps(), spec.id);
    const good = (await specs.findOne({ id: spec.id }))!.lastVersion;
    await specs.updateOne({ id: spec.id }, { $set: { processingState: "pending" } });
    served = async () => {
      throw new SafeFetchError("timeout", "too slow");
    };
    const outcome = await processSpec(deps(), spec.id);
    expect(outcome.kind).toBe("failed");
    expect(await specs.findOne({ id: spec.id })).toMatchObject({ processingState: "complete", lastVersion: good, lastProcessErrorCode: "FETCH_TIMEOUT" });
    expect(await versions.count({ specId: spec.id })).toBe(1);
  });

  test("unchanged content makes no new version; changed content does, and clears the last error", async () => {
    const spec = await specs.insert(specDoc({ lastProcessErrorCode: "PARSE_ERROR" }));
    await processSpec(deps(), spec.id);
    await specs.updateOne({ id: spec.id }, { $set: { processingState: "pending" } });
    expect((await processSpec(deps(), spec.id)).kind).toBe("unchanged");
    served = async () => specFixture("3.1", "json", "Pets v2");
    await specs.updateOne({ id: spec.id }, { $set: { processingState: "pending" } });
    expect((await processSpec(deps(), spec.id)).kind).toBe("versioned");
    expect(await versions.count({ specId: spec.id })).toBe(2);
    expect((await specs.findOne({ id: spec.id }))!.lastProcessErrorCode).toBeUndefined();
  });

  test("a PUT during a run supersedes it: the run writes nothing and leaves no version behind", async () => {
    const spec = await specs.insert(specDoc());
    served = async () => {
      await specs.updateOne({ id: spec.id }, { $set: { processingState: "pending", claimedAt: "" }, $inc: { sourceRevision: 1 } });
      return specFixture("3.0", "json");
    };
    expect((await processSpec(deps(), spec.id)).kind).toBe("superseded");
    expect(await specs.findOne({ id: spec.id })).toMatchObject({ processingState: "pending", sourceRevision: 2 });
    expect(await versions.count({})).toBe(0);
    expect(await documents.count({})).toBe(0);
  });

  test("of two runs racing for one spec, one processes it and the other skips", async () => {
    const spec = await specs.insert(specDoc());
    const kinds = (await Promise.all([processSpec(deps(), spec.id), processSpec(deps(), spec.id)])).map((o) => o.kind).sort();
    expect(kinds).toEqual(["skipped", "versioned"]);
  });
});

describe("isClaimable", () => {
  const now = new Date("2026-01-01T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  test("pending specs are claimable; fresh claims are not, abandoned ones are", () => {
    expect(isClaimable(specDoc(), now, settings)).toBe(true);
    expect(isClaimable(specDoc({ processingState: "progress", claimedAt: ago(1000) }), now, settings)).toBe(false);
    expect(isClaimable(specDoc({ processingState: "progress", claimedAt: ago(settings.fetchTimeoutMs + 61_000) }), now, settings)).toBe(true);
  });

  test("complete URL specs are claimable once the refresh interval passed; text specs never", () => {
    expect(isClaimable(specDoc({ processingState: "complete", lastProcessedAt: ago(1000) }), now, settings)).toBe(false);
    expect(isClaimable(specDoc({ processingState: "complete", lastProcessedAt: ago(settings.refreshIntervalMs) }), now, settings)).toBe(true);
    expect(isClaimable(specDoc({ processingState: "complete", source: { text: "x" }, lastProcessedAt: ago(settings.refreshIntervalMs * 2) }), now, settings)).toBe(false);
  });
});

describe("processSpec on worker threads", () => {
  /** A pool whose run() does what `answer` says with the task's arguments. */
  const pool = (answer: (module: string, fn: string, args: unknown[]) => Promise<unknown>) => ({ run: answer }) as unknown as WorkerPool;

  test("the spec is parsed through the pool's parse-spec-task, with the same version as in this thread", async () => {
    const calls: string[] = [];
    const workers = pool(async (module, fn, args) => {
      calls.push(`${basename(module)} ${fn}`);
      return parseSpecTask(args[0] as string);
    });
    const spec = await specs.insert(specDoc());
    const outcome = await processSpec({ ...deps(), workers }, spec.id);
    expect(outcome.kind).toBe("versioned");
    expect(calls).toEqual(["parse-spec-task.ts parseSpecTask"]);
    const version = (await versions.findOne({ id: (await specs.findOne({ id: spec.id }))!.lastVersion! }))!;
    expect(version.hash).toBe((await parseSpec(specFixture("3.1", "json"))).hash);
  });

  test("a refusal in the worker is the spec's PARSE_ERROR, as in this thread", async () => {
    served = async () => "openapi: [";
    const workers = pool(async (_module, _fn, args) => parseSpecTask(args[0] as string));
    const spec = await specs.insert(specDoc());
    const outcome = await processSpec({ ...deps(), workers }, spec.id);
    expect(outcome.kind).toBe("failed");
    expect((await specs.findOne({ id: spec.id }))!.lastProcessErrorCode).toBe("PARSE_ERROR");
  });

  test("past the pool's time or memory limit the spec ends PARSE_ERROR naming the limit", async () => {
    for (const [err, message] of [
      [new WorkerTimeoutError(2000), "Processing the specification took longer than the limit of 2000 ms; make it smaller or split it."],
      [new WorkerMemoryError(256), "Processing the specification needed more than the memory limit of 256 MiB; make it smaller or split it."],
    ] as const) {
      const spec = await specs.insert(specDoc());
      const outcome = await processSpec({ ...deps(), workers: pool(() => Promise.reject(err)) }, spec.id);
      expect(outcome.kind).toBe("failed");
      const after = (await specs.findOne({ id: spec.id }))!;
      expect(after).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR", lastProcessedErrors: [{ code: "PARSE_ERROR", message }] });
      expect(after.lastVersion).toBeUndefined();
    }
  });

  test("a busy pool throws: the claim stays for a later sweep to retry", async () => {
    const spec = await specs.insert(specDoc());
    await expect(processSpec({ ...deps(), workers: pool(() => Promise.reject(new WorkerBusyError(64))) }, spec.id)).rejects.toBeInstanceOf(WorkerBusyError);
    expect((await specs.findOne({ id: spec.id }))!).toMatchObject({ processingState: "progress" });
  });
});
