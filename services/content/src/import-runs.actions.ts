// GitBook's import runs: start one (a website, or Markdown/HTML/ZIP files sent with the request), read
// it, list an organization's runs, cancel one. The run itself works in the background (import-runs/runner.ts).
import { atLeast, callerOf, type Membership } from "@docshelf/access";
import { call } from "@docshelf/contracts/action";
import * as changeRequests from "@docshelf/contracts/change-requests";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { ACTIVE_STATUSES, executeRun, failAbandoned, listZip, parseUpload, presentImportRun, type Upload } from "./import-runs";
import type { ImportRunDoc, ImportRunStatus, SpaceDoc } from "./models";
import type { ContentActions, ContentService, Ctx } from "./service-types";

const STATUS_FILTERS = ["active", "pending", "in-progress", "completed", "failed", "cancelled"] as const;
const SOURCE_TYPES = ["website", "file"] as const;
/** GitBook's limit on `source.files`. */
const MAX_FILES = 50;

interface StartParams {
  organizationId: string;
  source: { type: string; url?: string; files?: string[] };
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
  enhance?: boolean;
}

interface ListParams {
  organizationId: string;
  space?: string;
  changeRequest?: string;
  site?: string;
  status?: (typeof STATUS_FILTERS)[number];
  page?: string;
  limit?: number;
}

interface RunParams {
  organizationId: string;
  importRunId: string;
}

/** The caller's membership of the organization; 404 when they are not in it. */
async function memberOf(service: ContentService, ctx: Ctx<unknown>, organizationId: string): Promise<Membership> {
  const membership = await service.membership(organizationId, callerOf(ctx).id);
  if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${organizationId} was not found.`);
  return membership;
}

/** The live space of the organization the caller can see, with their role; 404 otherwise. */
async function visibleSpace(service: ContentService, organizationId: string, spaceId: string, membership: Membership) {
  const space: SpaceDoc | null = await service.spaces.findOne({ id: spaceId, organizationId, deletedAt: op.exists(false) });
  const role = space ? await service.roleOn(space, membership) : null;
  if (!space || !role) throw new NotFoundError(`Space ${spaceId} was not found.`);
  return { space, role };
}

/** The run of the organization, when the caller can see its target space; 404 otherwise. */
async function loadRun(service: ContentService, ctx: Ctx<RunParams>) {
  const { organizationId, importRunId } = ctx.params;
  const membership = await memberOf(service, ctx, organizationId);
  await failAbandoned(service, { organizationId, id: importRunId });
  const run = await service.importRuns.findOne({ id: importRunId, organizationId });
  if (!run) throw new NotFoundError(`Import run ${importRunId} was not found.`);
  try {
    return { run, ...(await visibleSpace(service, organizationId, run.spaceId, membership)) };
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundError(`Import run ${importRunId} was not found.`);
    throw err;
  }
}

/** The source as stored, and the decoded uploads; every user mistake is a 400 naming its field. */
function checkSource(service: ContentService, source: StartParams["source"], runId: string): { stored: ImportRunDoc["source"]; uploads: Upload[] } {
  if (!(SOURCE_TYPES as readonly string[]).includes(source.type)) {
    throw new BadRequestError(`Invalid parameters: 'source.type': importing from "${source.type.slice(0, 50)}" is not supported; only "website" and "file" are.`);
  }
  if (source.type === "website") {
    let url: URL | undefined;
    try {
      url = source.url === undefined ? undefined : new URL(source.url);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || source.url!.length > 2048) {
      throw new BadRequestError("Invalid parameters: 'source.url' must be an absolute http or https URL of at most 2048 characters.");
    }
    return { stored: { type: "website", url: source.url! }, uploads: [] };
  }
  const files = source.files;
  if (!files || files.length === 0) throw new BadRequestError("Invalid parameters: 'source.files' must list the files to import (1 to 50).");
  if (files.length > MAX_FILES) throw new BadRequestError(`Invalid parameters: 'source.files' holds more than ${MAX_FILES} files.`);
  const settings = service.importSettings;
  const uploads = files.map((file, index) => parseUpload(file, index));
  const total = uploads.reduce((sum, upload) => sum + upload.bytes.length, 0);
  if (total > settings.uploadMaxBytes) throw new BadRequestError(`Invalid parameters: 'source.files' are ${total} bytes, over the ${settings.uploadMaxBytes} bytes an import takes.`);
  // A ZIP's directory is checked now (entries, sizes, ratio, names, shared data), so a bad archive is a 400, not a failed run.
  const limits = { maxEntries: settings.zipMaxEntries, maxUncompressedBytes: settings.zipMaxUncompressedBytes, maxRatio: settings.zipMaxRatio };
  uploads.forEach((upload, index) => upload.kind === "zip" && listZip(upload.bytes, `source.files[${index}]`, limits));
  return { stored: { type: "file", files: uploads.map((upload, index) => `uploads/${runId}/${index + 1}-${upload.name}`) }, uploads };
}

export const importRunActions: ContentActions = {
  startImportRun: {
    params: {
      organizationId: idRule,
      source: {
        type: "object",
        strict: false,
        props: {
          type: { type: "string", min: 1, max: 64 },
          url: { type: "string", optional: true },
          files: { type: "array", optional: true, items: { type: "string", min: 1 } },
        },
      },
      target: {
        type: "object",
        strict: false,
        props: { space: idRule, changeRequest: { ...idRule, optional: true }, page: { ...idRule, optional: true } },
      },
      site: { ...idRule, optional: true },
      enhance: { type: "boolean", optional: true },
    },
    async handler(ctx: Ctx<StartParams>) {
      const { organizationId, target } = ctx.params;
      const caller = callerOf(ctx);
      const membership = await memberOf(this, ctx, organizationId);
      const { space, role } = await visibleSpace(this, organizationId, target.space, membership);
      this.requireRole(role, "edit", "Importing content");
      if (space.editMode === "locked") throw new ForbiddenError("The space is locked: its content cannot be edited.");
      // Into a change request: one of this space, still open (or a draft); the pages go to its revision.
      let changeRequest: { id: string; revision: string } | undefined;
      if (target.changeRequest !== undefined) {
        const cr = await call(ctx, changeRequests.access, { spaceId: space.id, changeRequestId: target.changeRequest, userId: caller.id });
        if (!cr.exists || !cr.id || !cr.revision) throw new BadRequestError(`Invalid parameters: 'target.changeRequest': change request ${target.changeRequest} is not in space ${space.id}.`);
        if (cr.status !== "open" && cr.status !== "draft") {
          throw new ConflictError(`The change request ${target.changeRequest} is ${cr.status}: it can no longer be edited ('target.changeRequest').`);
        }
        changeRequest = { id: cr.id, revision: cr.revision };
      }
      if (target.page !== undefined) {
        const revision = await this.loadRevision(space.id, changeRequest?.revision ?? space.revision);
        const where = changeRequest ? `change request ${target.changeRequest}` : "the space";
        if (!this.pageIndex(revision).has(target.page)) throw new BadRequestError(`Invalid parameters: 'target.page': page ${target.page} is not in ${where}.`);
      }
      const id = newId();
      const { stored, uploads } = checkSource(this, ctx.params.source, id);
      // Each active run holds its files in memory and crawls: an organization has a few at a time (a soft cap).
      await failAbandoned(this, { organizationId });
      const active = await this.importRuns.count({ organizationId, status: op.in([...ACTIVE_STATUSES]) });
      if (active >= this.importSettings.maxActiveRuns) {
        throw new TooManyRequestsError(`The organization has ${active} import runs pending or in progress; wait for one to end or cancel one.`, 10);
      }
      const now = this.nowIso();
      const run: ImportRunDoc = {
        id,
        organizationId,
        spaceId: space.id,
        ...(changeRequest ? { changeRequestId: changeRequest.id } : {}),
        ...(target.page ? { pageId: target.page } : {}),
        ...(ctx.params.site ? { site: ctx.params.site } : {}),
        source: stored,
        status: "pending",
        createdBy: caller.id,
        createdAt: now,
        updatedAt: now,
      };
      await this.importRuns.insert(run);
      // The answer goes first; the run goes on in this process (and records its own outcome).
      setImmediate(() => void executeRun(this, run, uploads));
      ctx.meta.$statusCode = 201;
      return presentImportRun(run, this.publicUrl());
    },
  },

  getImportRun: {
    params: { organizationId: idRule, importRunId: idRule },
    async handler(ctx: Ctx<RunParams>) {
      const { run } = await loadRun(this, ctx);
      return presentImportRun(run, this.publicUrl());
    },
  },

  listImportRuns: {
    params: {
      organizationId: idRule,
      space: { ...idRule, optional: true },
      changeRequest: { ...idRule, optional: true },
      site: { ...idRule, optional: true },
      status: { type: "enum", values: [...STATUS_FILTERS], optional: true },
      ...listParams,
    },
    async handler(ctx: Ctx<ListParams>) {
      const { organizationId, status } = ctx.params;
      const membership = await memberOf(this, ctx, organizationId);
      await failAbandoned(this, { organizationId });
      // Runs are listed when the caller can see their target space.
      const spaces = await this.spaces.find({ organizationId, deletedAt: op.exists(false) });
      const readable: string[] = [];
      for (const space of spaces) if (await this.roleOn(space, membership)) readable.push(space.id);
      const filter: Filter = { organizationId, spaceId: op.in(readable) };
      if (ctx.params.space !== undefined) filter.spaceId = readable.includes(ctx.params.space) ? ctx.params.space : op.in([]);
      if (ctx.params.site !== undefined) filter.site = ctx.params.site;
      if (ctx.params.changeRequest !== undefined) filter.changeRequestId = ctx.params.changeRequest;
      if (status === "active") filter.status = op.in([...ACTIVE_STATUSES]);
      else if (status !== undefined) filter.status = status satisfies ImportRunStatus;
      const { page, limit } = ctx.params;
      return listPage(this.importRuns, filter, { page, limit, sort: [["createdAt", -1]] }, (runs) => runs.map((run) => presentImportRun(run, this.publicUrl())));
    },
  },

  cancelImportRun: {
    params: { organizationId: idRule, importRunId: idRule },
    async handler(ctx: Ctx<RunParams>) {
      const { run, role } = await loadRun(this, ctx);
      if (!atLeast(role, "edit") && run.createdBy !== callerOf(ctx).id) {
        throw new ForbiddenError("Cancelling an import run needs the edit role or better on its space, or to have started it.");
      }
      const now = this.nowIso();
      const cancelled = await this.importRuns.updateOne(
        { id: run.id, status: op.in([...ACTIVE_STATUSES]), committing: op.exists(false) },
        { $set: { status: "cancelled", completedAt: now, updatedAt: now } },
      );
      if (!cancelled) {
        const current = (await this.importRuns.findOne({ id: run.id })) ?? run;
        const state = current.status === "in-progress" ? "committing its pages" : current.status;
        throw new BadRequestError(`The import run is ${state}: it can no longer be cancelled.`);
      }
      // A run working on this node stops at once; one on another node at its next heartbeat.
      this.runningImports.get(run.id)?.abort();
      return presentImportRun(cancelled, this.publicUrl());
    },
  },
};
