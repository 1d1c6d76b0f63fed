// The space lifecycle: create, list, read, update, delete, restore, duplicate, move, transfer; spaces of
// a collection and of a member; the comment and change-request counts other services keep on a space.
import { atLeast, callerOf, ROLES, type Role, type RoleOrGuest } from "@docshelf/access";
import { broadcast } from "@docshelf/contracts/action";
import type { SpaceCounts } from "@docshelf/contracts/content";
import * as events from "@docshelf/contracts/events";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { RevisionDoc, SpaceDoc } from "./models";
import { pageArray } from "./paging";
import { presentSpace } from "./present";
import { RETENTION_MS, type ContentActions, type Ctx } from "./service-types";

const pointer = {
  type: "object",
  optional: true,
  strict: true,
  props: { type: { type: "equal", value: "space" }, space: idRule },
} as const;

interface CreateParams {
  organizationId: string;
  title?: string;
  emoji?: string;
  parent?: string;
  editMode?: SpaceDoc["editMode"];
}

interface UpdateParams {
  spaceId: string;
  title?: string;
  emoji?: string | null;
  editMode?: SpaceDoc["editMode"];
  defaultLevel?: SpaceDoc["defaultLevel"];
}

interface MoveParams {
  spaceId: string;
  parent?: string | null;
  position?: { before?: { space: string }; after?: { space: string } };
}


export const spaceActions: ContentActions = {
  createSpace: {
    params: {
      organizationId: idRule,
      title: { type: "string", max: 50, optional: true },
      emoji: { type: "string", max: 50, optional: true },
      parent: { ...idRule, optional: true },
      editMode: { type: "enum", values: ["live", "locked"], optional: true },
    },
    async handler(ctx: Ctx<CreateParams>) {
      const caller = callerOf(ctx);
      const membership = await this.membership(ctx.params.organizationId, caller.id);
      if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
      if (!atLeast(membership.role, "create")) throw new ForbiddenError("Creating spaces needs the create role or better.");
      if (ctx.params.parent) {
        const info = await this.collectionInfo(ctx.params.parent);
        if (!info.unknown && (!info.exists || info.deleted || info.organizationId !== ctx.params.organizationId)) {
          throw new BadRequestError(`Invalid parameters: 'parent': collection ${ctx.params.parent} was not found in the organization.`);
        }
      }
      const now = this.nowIso();
      const spaceId = newId();
      // A new space starts with an empty revision.
      const revision: RevisionDoc = { id: newId(), spaceId, parents: [], type: "edits", pages: [], files: [], reusableContents: [], variables: {}, createdAt: now };
      await this.revisions.insert(revision);
      const space: SpaceDoc = {
        id: spaceId,
        organizationId: ctx.params.organizationId,
        title: ctx.params.title ?? "",
        emoji: ctx.params.emoji ?? "",
        visibility: "private",
        editMode: ctx.params.editMode ?? "live",
        defaultLevel: "inherit",
        position: this.now().getTime(),
        revision: revision.id,
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        createdAt: now,
        updatedAt: now,
      };
      if (ctx.params.parent) space.parent = ctx.params.parent;
      await this.spaces.insert(space);
      ctx.meta.$statusCode = 201;
      return presentSpace(space, await this.roleOn(space, membership), this.publicUrl());
    },
  },

  listSpaces: {
    params: { organizationId: idRule, ...listParams },
    async handler(ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
      const caller = callerOf(ctx);
      const membership = await this.membership(ctx.params.organizationId, caller.id);
      if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
      const filter: Filter = { organizationId: ctx.params.organizationId, deletedAt: op.exists(false) };
      if (membership.role === null) {
        // Guests see what is open to everyone signed in and what is granted to them or their teams
        // (on the space or its collections): decided space by space, then paged like everyone's list.
        const all = await this.spaces.find(filter);
        const visible: string[] = [];
        for (const space of all) if (await this.roleOn(space, membership)) visible.push(space.id);
        filter.id = op.in(visible);
      }
      const { page, limit } = ctx.params;
      return listPage(this.spaces, filter, { page, limit }, async (spaces) =>
        Promise.all(spaces.map(async (space) => presentSpace(space, await this.roleOn(space, membership), this.publicUrl()))),
      );
    },
  },

  getSpace: {
    params: { spaceId: idRule, shareKey: { type: "string", optional: true, max: 256 } },
    async handler(ctx: Ctx<{ spaceId: string; shareKey?: string }>) {
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      const { shareKey } = ctx.params;
      const published = shareKey === undefined ? this.cachedPublishedUrl(space.id) : undefined;
      return presentSpace(space, role, this.publicUrl(), published !== undefined ? published : await this.publishedUrlOf(space.id, shareKey));
    },
  },

  updateSpace: {
    params: {
      spaceId: idRule,
      title: { type: "string", max: 50, optional: true },
      emoji: { type: "string", max: 50, optional: true, nullable: true },
      editMode: { type: "enum", values: ["live", "locked"], optional: true },
      defaultLevel: { type: "enum", values: [...ROLES, "inherit"], optional: true, nullable: true },
    },
    async handler(ctx: Ctx<UpdateParams>) {
      const { spaceId, ...fields } = ctx.params;
      const { space, role, membership } = await this.loadSpace(ctx, spaceId);
      // Renaming is editing; locking the space and changing who may see it is administration.
      this.requireRole(role, fields.editMode !== undefined || fields.defaultLevel !== undefined ? "admin" : "edit", "Changing this space");
      const set: Partial<SpaceDoc> = { updatedAt: this.nowIso() };
      if (fields.title !== undefined) set.title = fields.title;
      if (fields.emoji !== undefined) set.emoji = fields.emoji ?? "";
      if (fields.editMode !== undefined) set.editMode = fields.editMode;
      if (fields.defaultLevel !== undefined) set.defaultLevel = fields.defaultLevel;
      const updated = await this.spaces.updateOne({ id: space.id, deletedAt: op.exists(false) }, { $set: set });
      if (!updated) throw new NotFoundError(`Space ${spaceId} was not found.`);
      await broadcast(this.broker, events.contentSpaceUpdated, { spaceId: updated.id, organizationId: updated.organizationId });
      return presentSpace(updated, await this.roleOn(updated, membership), this.publicUrl());
    },
  },

  deleteSpace: {
    params: { spaceId: idRule },
    async handler(ctx: Ctx<{ spaceId: string }>) {
      ctx.meta.$statusCode = 204;
      const existing = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!existing || existing.deletedAt) return null;
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      this.requireRole(role, "admin", "Deleting a space");
      const now = this.nowIso();
      const deleted = await this.spaces.updateOne({ id: space.id, deletedAt: op.exists(false) }, { $set: { deletedAt: now, updatedAt: now } });
      if (deleted) await broadcast(this.broker, events.contentSpaceDeleted, { spaceId: space.id, organizationId: space.organizationId, deletedAt: now });
      return null;
    },
  },

  restoreSpace: {
    params: { spaceId: idRule },
    async handler(ctx: Ctx<{ spaceId: string }>) {
      const { space, role, membership } = await this.loadSpace(ctx, ctx.params.spaceId, { deleted: true });
      this.requireRole(role, "admin", "Restoring a space");
      if (!space.deletedAt) return presentSpace(space, role, this.publicUrl());
      if (this.now().getTime() - Date.parse(space.deletedAt) > RETENTION_MS) {
        throw new BadRequestError(`Space ${space.id} was deleted more than 7 days ago and can no longer be restored.`);
      }
      const restored = await this.spaces.updateOne({ id: space.id }, { $set: { updatedAt: this.nowIso() }, $unset: ["deletedAt"] });
      if (!restored) throw new NotFoundError(`Space ${space.id} was not found.`);
      await broadcast(this.broker, events.contentSpaceRestored, { spaceId: space.id, organizationId: space.organizationId });
      return presentSpace(restored, await this.roleOn(restored, membership), this.publicUrl());
    },
  },

  duplicateSpace: {
    params: { spaceId: idRule },
    async handler(ctx: Ctx<{ spaceId: string }>) {
      const { space, membership } = await this.loadSpace(ctx, ctx.params.spaceId);
      if (!atLeast(membership.member ? membership.role : undefined, "create")) {
        throw new ForbiddenError("Duplicating a space creates one: it needs the create role or better in the organization.");
      }
      const source = await this.loadRevision(space.id, space.revision);
      const now = this.nowIso();
      const spaceId = newId();
      // The copy's first revision descends from the source's and shares its page documents and file bytes.
      const revision: RevisionDoc = { ...source, id: newId(), spaceId, parents: [source.id], createdAt: now };
      await this.revisions.insert(revision);
      const copy: SpaceDoc = {
        ...space,
        id: spaceId,
        title: `${space.title} (copy)`.slice(0, 50),
        revision: revision.id,
        position: this.now().getTime(),
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        createdAt: now,
        updatedAt: now,
      };
      // Git sync belongs to the source space: git-sync has no link for the copy.
      delete copy.gitSync;
      await this.spaces.insert(copy);
      await this.revisionChanged(copy.id, revision.id);
      ctx.meta.$statusCode = 201;
      ctx.meta.$responseHeaders = { Location: `${this.publicUrl()}/v1/spaces/${copy.id}` };
      return presentSpace(copy, await this.roleOn(copy, membership), this.publicUrl());
    },
  },

  moveSpace: {
    params: {
      spaceId: idRule,
      parent: { ...idRule, optional: true, nullable: true },
      position: { type: "object", optional: true, strict: true, props: { before: pointer, after: pointer } },
    },
    async handler(ctx: Ctx<MoveParams>) {
      const { space, role, membership } = await this.loadSpace(ctx, ctx.params.spaceId);
      this.requireRole(role, "admin", "Moving a space");
      const { parent, position } = ctx.params;
      if (parent === undefined && !position) throw new BadRequestError("Invalid parameters: give 'parent' or 'position'.");
      if (position?.before && position.after) throw new BadRequestError("Invalid parameters: 'position' takes either 'before' or 'after'.");
      const target = parent === undefined ? space.parent : (parent ?? undefined);
      if (target && target !== space.parent) {
        const info = await this.collectionInfo(target);
        if (!info.exists || info.deleted || info.organizationId !== space.organizationId) {
          throw new BadRequestError(`Invalid parameters: 'parent': collection ${target} was not found in the space's organization.`);
        }
        const onCollection = this.roleOnCollection(info, membership);
        if (!atLeast(onCollection, "create")) throw new ForbiddenError("Moving a space into a collection needs the create role on it.");
      }
      const set: Partial<SpaceDoc> = { updatedAt: this.nowIso() };
      const unset: string[] = [];
      if (target) set.parent = target;
      else unset.push("parent");
      const anchorId = position?.before?.space ?? position?.after?.space;
      if (anchorId) {
        const siblings = await this.spaces.find({ organizationId: space.organizationId, parent: target ?? null, deletedAt: op.exists(false), id: op.ne(space.id) });
        siblings.sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || (a.id < b.id ? -1 : 1));
        const at = siblings.findIndex((s) => s.id === anchorId);
        if (at < 0) throw new BadRequestError(`Invalid parameters: 'position': space ${anchorId} is not beside the space in its new place.`);
        const anchor = siblings[at].position ?? 0;
        const neighbour = position?.before ? siblings[at - 1] : siblings[at + 1];
        const step = position?.before ? -1000 : 1000;
        set.position = neighbour ? (anchor + (neighbour.position ?? anchor + step)) / 2 : anchor + step;
      } else if (target !== space.parent) set.position = this.now().getTime();
      else throw new ConflictError("The space is already there: the move would change nothing.");
      const moved = await this.spaces.updateOne({ id: space.id, deletedAt: op.exists(false) }, { $set: set, $unset: unset });
      if (!moved) throw new NotFoundError(`Space ${space.id} was not found.`);
      return presentSpace(moved, await this.roleOn(moved, membership), this.publicUrl());
    },
  },

  transferSpace: {
    params: { spaceId: idRule, organization: idRule },
    async handler(ctx: Ctx<{ spaceId: string; organization: string }>) {
      const caller = callerOf(ctx);
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      this.requireRole(role, "admin", "Transferring a space");
      const target = await this.membership(ctx.params.organization, caller.id);
      if (!target.exists || !target.member) throw new NotFoundError(`Organization ${ctx.params.organization} was not found.`);
      if (!atLeast(target.role, "admin")) throw new ForbiddenError("Spaces can only be transferred to an organization you administer.");
      if (ctx.params.organization === space.organizationId) throw new ConflictError("The space already belongs to this organization.");
      const moved = await this.spaces.updateOne(
        { id: space.id, organizationId: space.organizationId, deletedAt: op.exists(false) },
        // Grants name teams and members of the organization the space leaves: they stay behind.
        { $set: { organizationId: ctx.params.organization, updatedAt: this.nowIso(), position: this.now().getTime() }, $unset: ["parent", "grants"] },
      );
      if (!moved) throw new ConflictError("The space changed while it was being transferred; try again.");
      await broadcast(this.broker, events.contentSpaceTransferred, { spaceId: space.id, fromOrganizationId: space.organizationId, toOrganizationId: ctx.params.organization });
      return presentSpace(moved, await this.roleOn(moved, target), this.publicUrl());
    },
  },

  listSpacesInCollection: {
    params: { collectionId: idRule, ...listParams },
    async handler(ctx: Ctx<{ collectionId: string; page?: string; limit?: number }>) {
      const caller = callerOf(ctx);
      const info = await this.collectionInfo(ctx.params.collectionId);
      const hidden = () => new NotFoundError(`Collection ${ctx.params.collectionId} was not found.`);
      if (!info.exists || info.deleted || !info.organizationId) throw hidden();
      const membership = await this.membership(info.organizationId, caller.id);
      if (!membership.member) throw hidden();
      const onCollection = this.roleOnCollection(info, membership);
      const filter: Filter = { organizationId: info.organizationId, parent: ctx.params.collectionId, deletedAt: op.exists(false) };
      if (!onCollection) {
        // Without a role on the collection (guests): its public and unlisted spaces, and those granted
        // to the caller or their teams. Decided space by space, then paged in the same order as the rest.
        const inside = await this.spaces.find(filter);
        const visible: string[] = [];
        for (const space of inside) if (await this.roleOn(space, membership)) visible.push(space.id);
        filter.id = op.in(visible);
      }
      const { page, limit } = ctx.params;
      return listPage(this.spaces, filter, { page, limit, sort: [["position", 1]] }, async (spaces) =>
        Promise.all(spaces.map(async (space) => presentSpace(space, await this.roleOn(space, membership), this.publicUrl()))),
      );
    },
  },

  listMemberSpaces: {
    params: { organizationId: idRule, userId: idRule, ...listParams, order: { type: "enum", values: ["asc", "desc"], optional: true } },
    async handler(ctx: Ctx<{ organizationId: string; userId: string; page?: string; limit?: number; order?: "asc" | "desc" }>) {
      const caller = callerOf(ctx);
      const mine = await this.membership(ctx.params.organizationId, caller.id);
      if (!mine.exists || !mine.member) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
      const theirs = ctx.params.userId === caller.id ? mine : await this.membership(ctx.params.organizationId, ctx.params.userId);
      if (!theirs.member) throw new NotFoundError(`Member ${ctx.params.userId} was not found.`);
      const spaces = await this.spaces.find({ organizationId: ctx.params.organizationId, deletedAt: op.exists(false) });
      const visible: Array<{ id: string; space: SpaceDoc; permission: Role; callerRole: RoleOrGuest }> = [];
      for (const space of spaces) {
        const permission = await this.roleOn(space, theirs);
        if (!permission) continue;
        // The caller learns only about spaces they can see themselves.
        const callerRole = theirs === mine ? permission : await this.roleOn(space, mine);
        if (callerRole) visible.push({ id: space.id, space, permission, callerRole });
      }
      const { page, limit, order } = ctx.params;
      return pageArray(visible, { page, limit, order: order ?? "desc" }, (items) =>
        items.map((item) => ({ permission: item.permission, space: presentSpace(item.space, item.callerRole, this.publicUrl()) })),
      );
    },
  },

  /** Internal: the counts other services own (comments, change requests), as absolute values. */
  setCounts: {
    visibility: "public",
    params: {
      spaceId: idRule,
      comments: { type: "number", integer: true, min: 0, optional: true },
      changeRequests: { type: "number", integer: true, min: 0, optional: true },
      changeRequestsOpen: { type: "number", integer: true, min: 0, optional: true },
      changeRequestsDraft: { type: "number", integer: true, min: 0, optional: true },
    },
    async handler(ctx: Ctx<SpaceCounts>) {
      const { spaceId, ...counts } = ctx.params;
      const updated = await this.spaces.updateOne({ id: spaceId }, { $set: counts });
      if (!updated) throw new NotFoundError(`Space ${spaceId} was not found.`);
      return { spaceId, comments: updated.comments, changeRequests: updated.changeRequests, changeRequestsOpen: updated.changeRequestsOpen, changeRequestsDraft: updated.changeRequestsDraft };
    },
  },
};
