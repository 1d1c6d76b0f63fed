// Creating, listing, reading and changing change requests; internal access for the comments service.
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import type { ChangeRequestAccess } from "@docshelf/contracts/change-requests";
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { refFilter, STATUSES, type ChangeRequestDoc, type Status } from "./models";
import type { ChangeRequestsActions, Ctx } from "./service-types";
import { isActive, needsAuthorOrAdmin, refusedMove } from "./status-rules";

const changeRequestRef = { type: "string", min: 1, max: 64 } as const;
const subjectRule = { type: "string", max: 100, trim: true } as const;

interface ListQuery {
  spaceId: string;
  page?: string;
  limit?: number;
  status?: Status;
  creator?: string;
  contributor?: string;
}

/**
 * Both results once both settled; when the check failed, its error (and never the other one's), so that
 * work begun beside an access check answers nothing, not even its own failure, to a caller the check refuses.
 */
async function afterCheck<A, T>(check: Promise<A>, work: Promise<T>): Promise<[A, T]> {
  const [checked, done] = await Promise.allSettled([check, work]);
  if (checked.status === "rejected") throw checked.reason;
  if (done.status === "rejected") throw done.reason;
  return [checked.value, done.value];
}

export const lifecycleActions: ChangeRequestsActions = {
  /** POST /spaces/:spaceId/change-requests — edit role; starts as a draft on main's current revision. */
  create: {
    params: { spaceId: idRule, subject: { ...subjectRule, optional: true }, agentTaskId: { ...idRule, optional: true } },
    async handler(ctx: Ctx<{ spaceId: string; subject?: string; agentTaskId?: string }>) {
      const caller = callerOf(ctx);
      // The creator, for the answer, is asked for while access is checked.
      const creator = this.creatorsOf(ctx, [{ createdBy: caller.id }]);
      const [space] = await afterCheck(this.loadSpace(ctx, ctx.params.spaceId), creator);
      this.requireRole(space, "edit", "Creating a change request");
      const now = new Date().toISOString();
      const fields: Omit<ChangeRequestDoc, "number"> = {
        id: newId(),
        spaceId: space.spaceId,
        status: "draft",
        subject: ctx.params.subject ?? "",
        createdBy: caller.id,
        contributors: [caller.id],
        // Revisions are immutable: the change request starts on main's own revision and moves off it at its first edit.
        revision: space.revision,
        revisionInitial: space.revision,
        comments: 0,
        createdAt: now,
        updatedAt: now,
      };
      if (ctx.params.agentTaskId) fields.agentTaskId = ctx.params.agentTaskId;
      // One write: the number is the space's next free one, and the space's counts follow in the background,
      // durably (a mark kept with the change request until they were sent).
      const doc = await this.insertNumbered(fields);
      const [resource] = await this.present(ctx, [doc], space.revision, creator);
      ctx.meta.$statusCode = 201;
      ctx.meta.$responseHeaders = { Location: `${this.publicUrl()}/v1/spaces/${space.spaceId}/change-requests/${doc.id}` };
      return resource;
    },
  },

  /** GET /spaces/:spaceId/change-requests — read role; newest first; `status` defaults to open as in GitBook. */
  list: {
    params: {
      spaceId: idRule,
      ...listParams,
      status: { type: "enum", values: [...STATUSES], optional: true, default: "open" },
      creator: { ...idRule, optional: true },
      contributor: { ...idRule, optional: true },
    },
    async handler(ctx: Ctx<ListQuery>) {
      const { spaceId, page, limit, status, creator, contributor } = ctx.params;
      const filter: Filter = { spaceId, status: status ?? "open" };
      if (creator) filter.createdBy = creator;
      // An array field equal to a value matches when the array holds it (both adapters).
      if (contributor) filter.contributors = contributor;
      // The page and its creators are read while access is checked (one call to content), and presented
      // only once the check has passed.
      const listed = listPage(this.changeRequests, filter, { page, limit, sort: [["number", -1]] }, (docs) => docs);
      const users = listed.then((found) => this.creatorsOf(ctx, found.items));
      const [space, [found]] = await afterCheck(this.loadSpace(ctx, spaceId, { kept: true }), Promise.all([listed, users]));
      return { ...found, items: await this.present(ctx, found.items, space.revision, users) };
    },
  },

  /** GET /spaces/:spaceId/change-requests/:changeRequestId — read role; by id or number. */
  get: {
    params: { spaceId: idRule, changeRequestId: changeRequestRef },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string }>) {
      const [space, cr] = await afterCheck(this.loadSpace(ctx, ctx.params.spaceId, { kept: true }), this.loadChangeRequest(ctx.params.spaceId, ctx.params.changeRequestId));
      return (await this.present(ctx, [cr], space.revision))[0];
    },
  },

  /**
   * PATCH /spaces/:spaceId/change-requests/:changeRequestId — edit role. Status moves: draft ⇄ open;
   * to or from archived only by the author or an admin; merged is final and reached only by merging.
   */
  update: {
    params: {
      spaceId: idRule,
      changeRequestId: changeRequestRef,
      subject: { ...subjectRule, optional: true },
      status: { type: "enum", values: ["draft", "open", "archived"], optional: true },
      description: { type: "any", optional: true },
    },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; subject?: string; status?: Status; description?: unknown }>) {
      const { space, cr, caller } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      this.requireRole(space, "edit", "Changing a change request");
      const { subject, status } = ctx.params;
      if (subject === undefined && status === undefined) {
        // A description alone (GitBook's JSON document) is accepted and not kept.
        if (ctx.params.description !== undefined) return (await this.present(ctx, [cr], space.revision))[0];
        throw new BadRequestError("Invalid parameters: give 'subject' or 'status'.");
      }
      const set: Partial<ChangeRequestDoc> = { updatedAt: new Date().toISOString() };
      if (subject !== undefined) {
        if (cr.status === "merged") throw new ConflictError("A merged change request cannot be changed.");
        set.subject = subject;
      }
      if (status !== undefined) {
        const refused = refusedMove(cr.status, status);
        if (refused) throw new ConflictError(refused);
        if (needsAuthorOrAdmin(cr.status, status) && cr.createdBy !== caller.id && space.role !== "admin") {
          throw new ForbiddenError("Only the author of a change request or a space admin may archive or reopen it.");
        }
        set.status = status;
      }
      // Conditional on the status read, so a merge that lands meanwhile is not undone.
      const updated = await this.changeRequests.updateOne({ id: cr.id, status: cr.status }, { $set: set });
      if (!updated) throw new ConflictError("The change request changed meanwhile (merged or moved to another status); read it and try again.");
      if (updated.status !== cr.status) await this.syncCounts(cr.spaceId);
      return (await this.present(ctx, [updated], space.revision))[0];
    },
  },

  /** Internal: a change request of a space as the user may see it (for comments on change requests). */
  access: {
    visibility: "public",
    params: { spaceId: idRule, changeRequestId: changeRequestRef, userId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; userId: string }>): Promise<ChangeRequestAccess> {
      const access = await call(ctx, content.spaceAccess, { spaceId: ctx.params.spaceId, userId: ctx.params.userId });
      const cr = access.exists && access.role ? await this.changeRequests.findOne(refFilter(ctx.params.spaceId, ctx.params.changeRequestId)) : null;
      if (!cr) return { exists: false, id: null, number: null, status: null, revision: null, role: access.role };
      return { exists: true, id: cr.id, number: cr.number, status: cr.status, revision: cr.revision, role: access.role };
    },
  },

  /** Internal (content's import runs into a change request): moves an active change request from `from` to `to`, by compare-and-swap. */
  moveRevision: {
    visibility: "public",
    params: { spaceId: idRule, changeRequestId: idRule, from: idRule, to: idRule, userId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; from: string; to: string; userId: string }>): Promise<{ moved: boolean }> {
      const { spaceId, changeRequestId, from, to, userId } = ctx.params;
      const cr = await this.changeRequests.findOne({ spaceId, id: changeRequestId });
      if (!cr || !isActive(cr.status) || cr.revision !== from) return { moved: false };
      try {
        await this.moveRevision(cr, to, userId);
        return { moved: true };
      } catch (err) {
        if (err instanceof ConflictError) return { moved: false };
        throw err;
      }
    },
  },

  /** Internal: the open comment count of a change request, sent by the comments service (absolute, so repeats cannot drift). */
  setComments: {
    visibility: "public",
    params: { spaceId: idRule, changeRequestId: idRule, comments: { type: "number", integer: true, min: 0 } },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; comments: number }>): Promise<{ updated: boolean }> {
      const updated = await this.changeRequests.updateOne({ spaceId: ctx.params.spaceId, id: ctx.params.changeRequestId }, { $set: { comments: ctx.params.comments } });
      return { updated: !!updated };
    },
  },
};
