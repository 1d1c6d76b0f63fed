// Writing content: apply changes to a revision, move a space to a revision, templates; test-only hooks.
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import { purgeDeleted } from "./purge";
import { commitChanges, moveSpace } from "./revisions/commit";
import { CHANGE_TYPES, MAX_CHANGES, MAX_FILE_BYTES, checkChanges } from "./revisions/change-rules";
import { TEMPLATE_IDS, templateById } from "./revisions/templates";
import type { Change } from "./revisions/tree";
import type { ContentActions, ContentService, Ctx } from "./service-types";

type IncomingChange = Exclude<Change, { type: "insert_file" }> | { type: "insert_file"; id?: string; name: string; contentType: string; data: string };

interface ApplyParams {
  spaceId: string;
  revisionId?: string;
  changes: IncomingChange[];
  move?: boolean;
}

const applyParamRules = {
  spaceId: idRule,
  revisionId: { ...idRule, optional: true },
  changes: { type: "array", min: 1, max: MAX_CHANGES, items: { type: "object", props: { type: { type: "enum", values: CHANGE_TYPES } } } },
  move: { type: "boolean", optional: true },
} as const;

const TEST_HOOKS = process.env.NODE_ENV === "test";

/** Validates and applies a batch from `content.applyChanges` (see that action). */
async function applyIncoming(service: ContentService, params: ApplyParams): Promise<{ revision: string; parents: string[]; moved: boolean; pages: string[] }> {
  checkChanges(params.changes);
  const space = await service.spaces.findOne({ id: params.spaceId });
  if (!space || space.deletedAt) throw new NotFoundError(`Space ${params.spaceId} was not found.`);
  const base = await service.loadRevision(space.id, params.revisionId ?? space.revision);
  // File bytes go to storage first (content-addressed, so a failed batch leaves only unreferenced bytes).
  const changes: Change[] = params.changes.map((change, index) => {
    if (change.type !== "insert_file") return change;
    const bytes = Buffer.from(change.data, "base64");
    if (bytes.length > MAX_FILE_BYTES) throw new BadRequestError(`Invalid parameters: 'changes[${index}].data' is larger than ${MAX_FILE_BYTES} bytes.`);
    return { type: "insert_file", id: change.id, name: change.name, contentType: change.contentType, size: bytes.length, sha256: "" };
  });
  for (const [index, change] of params.changes.entries()) {
    const target = changes[index];
    if (change.type === "insert_file" && target.type === "insert_file") target.sha256 = await service.files.put(Buffer.from(change.data, "base64"));
  }
  const move = params.move ?? params.revisionId === undefined;
  const { revision, inserted } = await commitChanges(service, space, base, changes, { move });
  return { revision: revision.id, parents: revision.parents, moved: move, pages: inserted };
}

export const changeActions: ContentActions = {
  /**
   * Internal: a new revision made of `revisionId` (default: the space's current one) with `changes`
   * applied. With `move` (default: true when no revisionId is given) the space's revision pointer
   * moves to it by compare-and-swap; 409 when someone moved it first.
   */
  applyChanges: {
    visibility: "public",
    params: applyParamRules,
    async handler(ctx: Ctx<ApplyParams>) {
      return applyIncoming(this, ctx.params);
    },
  },

  /** Internal: moves a space from `expectedRevisionId` to `revisionId` (a revision of the space); 409 when it is no longer at the expected one. */
  commitRevision: {
    visibility: "public",
    params: { spaceId: idRule, expectedRevisionId: idRule, revisionId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; expectedRevisionId: string; revisionId: string }>) {
      const { spaceId, expectedRevisionId, revisionId } = ctx.params;
      await this.loadRevision(spaceId, revisionId);
      if (!(await moveSpace(this, spaceId, expectedRevisionId, revisionId))) {
        const space = await this.spaces.findOne({ id: spaceId });
        if (!space || space.deletedAt) throw new NotFoundError(`Space ${spaceId} was not found.`);
        throw new ConflictError(`The space's revision is no longer ${expectedRevisionId}.`);
      }
      return { spaceId, revision: revisionId };
    },
  },

  applyTemplate: {
    params: { spaceId: idRule, id: { type: "enum", values: TEMPLATE_IDS }, params: { type: "object", optional: true } },
    async handler(ctx: Ctx<{ spaceId: string; id: string }>) {
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      this.requireRole(role, "edit", "Applying a template");
      if (space.editMode === "locked") throw new ForbiddenError("The space is locked: its content cannot be edited.");
      const template = templateById(ctx.params.id)!;
      const { changes, files } = template.build();
      const fileChanges: Change[] = [];
      for (const f of files) fileChanges.push({ type: "insert_file", name: f.name, contentType: f.contentType, size: f.bytes.length, sha256: await this.files.put(f.bytes) });
      const base = await this.loadRevision(space.id, space.revision);
      const { revision } = await commitChanges(this, space, base, [...fileChanges, ...changes], { move: true });
      ctx.meta.$statusCode = 201;
      // The revision the template made.
      ctx.meta.$location = `${this.publicUrl()}/v1/spaces/${space.id}/revisions/${revision.id}`;
      return null;
    },
  },

  ...(TEST_HOOKS
    ? {
        /** Test-only (NODE_ENV=test): applyChanges through HTTP for the instance administrator. */
        testApplyChanges: {
          params: applyParamRules,
          async handler(ctx: Ctx<ApplyParams>) {
            if (!callerOf(ctx).instanceAdmin) throw new ForbiddenError();
            const applied = await applyIncoming(this, ctx.params);
            ctx.meta.$statusCode = 201;
            ctx.meta.$location = `${this.publicUrl()}/v1/spaces/${ctx.params.spaceId}/revisions/${applied.revision}`;
            return applied;
          },
        },
        /** Test-only (NODE_ENV=test): moves this service's clock forward, then runs the purge job (unless `purge` is false). */
        advanceClock: {
          params: { ms: { type: "number", integer: true, min: 0, max: 365 * 24 * 3600 * 1000, convert: true }, purge: { type: "boolean", optional: true } },
          async handler(ctx: Ctx<{ ms: number; purge?: boolean }>) {
            if (!callerOf(ctx).instanceAdmin) throw new ForbiddenError();
            this.clockOffsetMs += ctx.params.ms;
            const purged = ctx.params.purge === false ? 0 : await purgeDeleted(this);
            return { now: this.nowIso(), purged };
          },
        },
      }
    : {}),
};
