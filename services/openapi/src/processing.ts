// One processing run of a spec: claim it, fetch or take its text, parse, store a version when the
// content changed, and record the outcome. Failures keep the last good version.
import { newId, type Collection } from "@docshelf/store";
import { taskModule, WorkerMemoryError, WorkerTimeoutError, type WorkerPool } from "@docshelf/worker-pool";
import { fetchSource, type Fetcher } from "./fetch-source";
import { withoutCredentials } from "./present";
import type { DocumentDoc, SpecDoc, VersionDoc } from "./models";
import { parseSpec, type ParsedSpec } from "./parse-spec";
import type { ParseSpecAnswer } from "./parse-spec-task";
import { ProcessingFailure } from "./processing-failure";
import type { OpenAPISettings } from "./settings";

export interface ProcessingDeps {
  specs: Collection<SpecDoc>;
  versions: Collection<VersionDoc>;
  documents: Collection<DocumentDoc>;
  settings: OpenAPISettings;
  fetcher?: Fetcher;
  now?: () => Date;
  /** Where specs are parsed and validated, off the event loop; without it, in this thread. */
  workers?: WorkerPool;
}

/** The worker task that parses a spec (parse-spec-task.ts). */
const PARSE_TASK = taskModule(__dirname, "parse-spec-task");

/**
 * parseSpec on a worker thread. Past the pool's time or memory limit the spec fails with a PARSE_ERROR naming
 * the limit; a busy pool throws as it is (not a ProcessingFailure): the claim lapses and a later sweep retries.
 */
async function parseOffThread(workers: WorkerPool, text: string): Promise<ParsedSpec> {
  let answer: ParseSpecAnswer;
  try {
    answer = await workers.run<ParseSpecAnswer>(PARSE_TASK, "parseSpecTask", [text]);
  } catch (err) {
    if (err instanceof WorkerTimeoutError) throw new ProcessingFailure("PARSE_ERROR", `Processing the specification took longer than the limit of ${err.limitMs} ms; make it smaller or split it.`);
    if (err instanceof WorkerMemoryError) throw new ProcessingFailure("PARSE_ERROR", `Processing the specification needed more than the memory limit of ${err.limitMb} MiB; make it smaller or split it.`);
    throw err;
  }
  if (!answer.ok) throw new ProcessingFailure(answer.code, answer.message);
  return answer.parsed;
}

export type ProcessingOutcome =
  | { kind: "skipped" }
  | { kind: "versioned"; spec: SpecDoc; versionId: string }
  | { kind: "unchanged"; spec: SpecDoc }
  | { kind: "failed"; spec: SpecDoc; failure: ProcessingFailure }
  | { kind: "superseded" };

/** How long a claim holds before another run may take the spec over (its process may have died). */
export function claimLeaseMs(settings: OpenAPISettings): number {
  return settings.fetchTimeoutMs + 60_000;
}

/** Whether a run may take this spec now: new work, an abandoned claim, or a URL due for refresh. */
export function isClaimable(spec: SpecDoc, now: Date, settings: OpenAPISettings): boolean {
  if (spec.processingState === "pending") return true;
  if (spec.processingState === "progress") return !spec.claimedAt || Date.parse(spec.claimedAt) < now.getTime() - claimLeaseMs(settings);
  if (!("url" in spec.source)) return false;
  return !spec.lastProcessedAt || Date.parse(spec.lastProcessedAt) <= now.getTime() - settings.refreshIntervalMs;
}

async function readSource(spec: SpecDoc, settings: OpenAPISettings, fetcher?: Fetcher): Promise<{ text: string; sourceURL?: string }> {
  if ("text" in spec.source) return { text: spec.source.text };
  const limits = { timeoutMs: settings.fetchTimeoutMs, maxBytes: settings.maxBytes, allowedPrivateTargets: settings.allowedPrivateTargets };
  const fetched = await fetchSource(spec.source.url, limits, fetcher);
  // A version records where it came from, never the credentials it was fetched with.
  return { text: fetched.text, sourceURL: withoutCredentials(spec.source.url) };
}

export async function processSpec(deps: ProcessingDeps, specId: string): Promise<ProcessingOutcome> {
  const now = deps.now ?? (() => new Date());
  const { specs, versions, documents, settings } = deps;
  const found = await specs.findOne({ id: specId });
  if (!found || !isClaimable(found, now(), settings)) return { kind: "skipped" };
  // Compare-and-set on the previous claim: of two runs racing (two replicas), one wins.
  const claim = now().toISOString();
  const spec = await specs.updateOne(
    { id: specId, sourceRevision: found.sourceRevision, claimedAt: found.claimedAt },
    { $set: { processingState: "progress", claimedAt: claim } },
  );
  if (!spec) return { kind: "skipped" };
  const mine = { id: specId, sourceRevision: spec.sourceRevision, claimedAt: claim };

  try {
    const { text, sourceURL } = await readSource(spec, settings, deps.fetcher);
    const parsed = deps.workers ? await parseOffThread(deps.workers, text) : await parseSpec(text);
    const last = spec.lastVersion ? await versions.findOne({ id: spec.lastVersion }) : null;
    let versionId = spec.lastVersion;
    let inserted = false;
    if (!last || last.hash !== parsed.hash) {
      versionId = newId();
      const version: VersionDoc = {
        id: versionId,
        specId,
        organizationId: spec.organizationId,
        createdAt: now().toISOString(),
        hash: parsed.hash,
        specVersion: parsed.specVersion,
      };
      if (sourceURL) version.sourceURL = sourceURL;
      // The document first: a version is never visible without its content.
      await documents.insert({ id: versionId, specId, json: JSON.stringify(parsed.document) });
      await versions.insert(version);
      inserted = true;
    }
    const done = await specs.updateOne(mine, {
      $set: { processingState: "complete", claimedAt: "", lastVersion: versionId, lastProcessedAt: now().toISOString() },
      $unset: ["lastProcessErrorCode", "lastProcessedErrors"],
    });
    if (!done) {
      // A PUT or DELETE came in meanwhile: this result is stale, and its version must not linger.
      if (inserted && versionId) {
        await versions.deleteOne({ id: versionId });
        await documents.deleteOne({ id: versionId });
      }
      return { kind: "superseded" };
    }
    return inserted && versionId ? { kind: "versioned", spec: done, versionId } : { kind: "unchanged", spec: done };
  } catch (err) {
    if (!(err instanceof ProcessingFailure)) throw err; // the claim lapses and a later sweep retries
    const done = await specs.updateOne(mine, {
      $set: {
        processingState: "complete",
        claimedAt: "",
        lastProcessedAt: now().toISOString(),
        lastProcessErrorCode: err.code,
        lastProcessedErrors: [{ message: err.message, code: err.code }],
      },
    });
    return done ? { kind: "failed", spec: done, failure: err } : { kind: "superseded" };
  }
}
