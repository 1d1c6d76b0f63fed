// Collection actions: create, list, read, update, delete, move, transfer, and the levels content inherits.
import { emit } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import type { CollectionLevels } from "@docshelf/contracts/orgs";
import { atLeast, callerOf, ROLES, type RoleOrGuest } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { chainGrants, chainLevels, descendantIds, positionAmong, wouldCycle, type Placement } from "./collection-tree";
import type { CollectionDoc, DefaultLevel } from "./models";
import { presentCollection } from "./present";
import type { Ctx, Grantee, OrgsActions, OrgsService } from "./service-types";

const title = { type: "string", max: 50, trim: true, optional: true } as const;
const description = { type: "string", max: 100, optional: true } as const;
const pointer = {
  type: "object",
  optional: true,
  strict: "remove",
  props: { type: { type: "enum", values: ["space", "collection"] }, space: { ...idRule, optional: true }, collection: { ...idRule, optional: true } },
} as const;

interface Pointer {
  type: "space" | "collection";
  space?: string;
  collection?: string;
}
interface MoveParams {
  collectionId: string;
  parent?: string | null;
  position?: { before?: Pointer; after?: Pointer };
}

/** Siblings are positioned among collections only; a space pointer leaves the collection at the end. */
function placementOf(position: MoveParams["position"]): Placement {
  const ref = (p: Pointer | undefined, where: string) => {
    if (!p) return undefined;
    const target = p.type === "collection" ? p.collection : p.space;
    if (!target) throw new BadRequestError(`Invalid parameters: 'position.${where}.${p.type}' is required when its type is "${p.type}".`);
    return p.type === "collection" ? target : undefined;
  };
  return { before: ref(position?.before, "before"), after: ref(position?.after, "after") };
}

/** The collection, with the caller's role, when they may administer it: 404 hidden, 403 short of admin. */
async function loadForAdmin(service: OrgsService, ctx: Ctx<{ collectionId: string }>) {
  const loaded = await service.loadCollection(ctx.params.collectionId, callerOf(ctx));
  if (!atLeast(loaded.role, "admin")) throw new ForbiddenError("Changing a collection needs the admin role on it.");
  return loaded;
}

/** A live collection of `organizationId` that may hold new content from the caller: 404 hidden, 403 short of create. */
async function loadParentForCreate(service: OrgsService, organizationId: string, parentId: string, member: Grantee) {
  const parent = await service.collections.findOne({ id: parentId, organizationId, deletedAt: op.exists(false) });
  const chain = parent ? await service.collectionChain(parent) : new Map<string, CollectionDoc>();
  const role = parent ? service.collectionRole(parent, member, chain) : null;
  if (!parent || !role) throw new NotFoundError(`Collection ${parentId} was not found.`);
  if (!atLeast(role, "create")) throw new ForbiddenError("Adding to this collection needs the create role on it.");
  return parent;
}

async function endPosition(service: OrgsService, organizationId: string, parent: string | undefined, exclude?: string): Promise<number> {
  const siblings = await siblingsOf(service, organizationId, parent, exclude);
  return positionAmong(siblings, {});
}

async function siblingsOf(service: OrgsService, organizationId: string, parent: string | undefined, exclude?: string) {
  const siblings = await service.collections.find({ organizationId, parent: parent ?? null, deletedAt: op.exists(false) });
  return siblings.filter((s) => s.id !== exclude);
}

export const collectionActions: OrgsActions = {
  createCollection: {
    params: { organizationId: idRule, title, description, parent: { ...idRule, optional: true } },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; title?: string; description?: string; parent?: string }>) {
      const { org, member: found } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      const member = await this.withTeams(found);
      if (ctx.params.parent) await loadParentForCreate(this, org.id, ctx.params.parent, member);
      else if (!atLeast(member.role, "create")) throw new ForbiddenError("Creating collections needs the create role or better.");
      const now = new Date().toISOString();
      const collection: CollectionDoc = {
        id: newId(),
        organizationId: org.id,
        title: ctx.params.title ?? "",
        defaultLevel: "inherit",
        position: await endPosition(this, org.id, ctx.params.parent),
        createdAt: now,
        updatedAt: now,
      };
      if (ctx.params.description !== undefined) collection.description = ctx.params.description;
      if (ctx.params.parent) collection.parent = ctx.params.parent;
      await this.collections.insert(collection);
      ctx.meta.$statusCode = 201;
      const chain = await this.collectionChain(collection);
      return presentCollection(collection, this.collectionRole(collection, member, chain), this.publicUrl());
    },
  },

  listCollections: {
    params: { organizationId: idRule, ...listParams, nested: { type: "boolean", optional: true, convert: true } },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; page?: string; limit?: number; nested?: boolean }>) {
      const { member: found } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      const member = await this.withTeams(found);
      const filter: Filter = { organizationId: ctx.params.organizationId, deletedAt: op.exists(false) };
      if (ctx.params.nested === false) filter.parent = null;
      // Levels and grants only matter below admin; an admin's role is admin everywhere without reading the tree.
      const tree = member.role === "admin" ? [] : await this.collections.find({ organizationId: ctx.params.organizationId, deletedAt: op.exists(false) });
      const all = new Map(tree.map((c) => [c.id, c]));
      // Members with a role see every collection; guests only those granted to them or their teams.
      if (member.role === null) filter.id = op.in(tree.filter((c) => this.collectionRole(c, member, all) !== null).map((c) => c.id));
      const publicUrl = this.publicUrl();
      // Sibling order (ids, which sort by creation, break ties between collections of different parents).
      return listPage(this.collections, filter, { page: ctx.params.page, limit: ctx.params.limit, sort: [["position", 1]] }, (docs) =>
        docs.map((c) => presentCollection(c, this.collectionRole(c, member, all), publicUrl)),
      );
    },
  },

  getCollection: {
    params: { collectionId: idRule },
    async handler(this: OrgsService, ctx: Ctx<{ collectionId: string }>) {
      const { collection, role } = await this.loadCollection(ctx.params.collectionId, callerOf(ctx));
      return presentCollection(collection, role, this.publicUrl());
    },
  },

  updateCollection: {
    params: {
      collectionId: idRule,
      title,
      description,
      defaultLevel: { type: "enum", values: [...ROLES, "inherit"], nullable: true, optional: true },
    },
    async handler(this: OrgsService, ctx: Ctx<{ collectionId: string; title?: string; description?: string; defaultLevel?: DefaultLevel }>) {
      const { collection, member } = await loadForAdmin(this, ctx);
      const set: Partial<CollectionDoc> = { updatedAt: new Date().toISOString() };
      if (ctx.params.title !== undefined) set.title = ctx.params.title;
      if (ctx.params.description !== undefined) set.description = ctx.params.description;
      if (ctx.params.defaultLevel !== undefined) set.defaultLevel = ctx.params.defaultLevel;
      const updated = await this.collections.updateOne({ id: collection.id }, { $set: set });
      if (!updated) throw new NotFoundError(`Collection ${ctx.params.collectionId} was not found.`);
      if (ctx.params.defaultLevel !== undefined) await this.collectionsChanged(updated.organizationId, updated.id);
      const chain = await this.collectionChain(updated);
      return presentCollection(updated, this.collectionRole(updated, member, chain), this.publicUrl());
    },
  },

  deleteCollection: {
    params: { collectionId: idRule },
    async handler(this: OrgsService, ctx: Ctx<{ collectionId: string }>) {
      ctx.meta.$statusCode = 204;
      const existing = await this.collections.findOne({ id: ctx.params.collectionId });
      if (!existing || existing.deletedAt) return null;
      const { collection } = await loadForAdmin(this, ctx);
      const all = await this.collections.find({ organizationId: collection.organizationId, deletedAt: op.exists(false) });
      const collectionIds = descendantIds(all, collection.id);
      const deletedAt = new Date().toISOString();
      for (const id of collectionIds) await this.collections.updateOne({ id }, { $set: { deletedAt, updatedAt: deletedAt } });
      // The content service soft-deletes the spaces of these collections (7-day restore window).
      await emit(this.broker, events.orgsCollectionDeleted, { organizationId: collection.organizationId, collectionIds, deletedAt });
      await this.collectionsChanged(collection.organizationId, collection.id);
      return null;
    },
  },

  moveCollection: {
    params: {
      collectionId: idRule,
      parent: { ...idRule, optional: true, nullable: true },
      position: { type: "object", optional: true, strict: "remove", props: { before: pointer, after: pointer } },
    },
    async handler(this: OrgsService, ctx: Ctx<MoveParams>) {
      if (ctx.params.parent === undefined && ctx.params.position === undefined) {
        throw new BadRequestError("Invalid parameters: give 'parent' or 'position'.");
      }
      const placement = placementOf(ctx.params.position);
      const { collection, member } = await loadForAdmin(this, ctx);
      const parent = ctx.params.parent === undefined ? collection.parent : (ctx.params.parent ?? undefined);
      if (parent) {
        if (parent === collection.id) throw new BadRequestError("Invalid parameters: 'parent' cannot be the collection itself.");
        await loadParentForCreate(this, collection.organizationId, parent, member);
        const all = await this.collections.find({ organizationId: collection.organizationId, deletedAt: op.exists(false) });
        if (wouldCycle(all, collection.id, parent)) throw new BadRequestError("Invalid parameters: 'parent' is nested inside the collection being moved.");
      } else if (!atLeast(member.role, "create")) {
        throw new ForbiddenError("Moving a collection to the top level needs the create role or better.");
      }
      const sameParent = (parent ?? null) === (collection.parent ?? null);
      if (sameParent && ctx.params.position === undefined) throw new ConflictError("The collection is already in that place.");
      const siblings = await siblingsOf(this, collection.organizationId, parent, collection.id);
      const set: Partial<CollectionDoc> = { position: positionAmong(siblings, placement), updatedAt: new Date().toISOString() };
      if (parent) set.parent = parent;
      const updated = await this.collections.updateOne({ id: collection.id }, { $set: set, $unset: parent ? [] : ["parent"] });
      if (!updated) throw new NotFoundError(`Collection ${ctx.params.collectionId} was not found.`);
      if (!sameParent) await this.collectionsChanged(updated.organizationId, updated.id);
      const chain = await this.collectionChain(updated);
      return presentCollection(updated, this.collectionRole(updated, member, chain), this.publicUrl());
    },
  },

  transferCollection: {
    params: { collectionId: idRule, organization: idRule },
    async handler(this: OrgsService, ctx: Ctx<{ collectionId: string; organization: string }>) {
      const { collection } = await loadForAdmin(this, ctx);
      const { org: target, member: targetMember } = await this.loadForMember(ctx.params.organization, callerOf(ctx));
      this.requireAdmin(targetMember);
      if (target.id === collection.organizationId) throw new ConflictError("The collection already belongs to that organization.");
      const all = await this.collections.find({ organizationId: collection.organizationId, deletedAt: op.exists(false) });
      const collectionIds = descendantIds(all, collection.id);
      const now = new Date().toISOString();
      const position = await endPosition(this, target.id, undefined);
      // Children first: a crash midway leaves the root (and so the tree as seen from it) where it was.
      for (const id of [...collectionIds].reverse()) {
        const root = id === collection.id;
        await this.collections.updateOne(
          { id },
          // Grants name teams and members of the organization the collection leaves: they stay behind.
          { $set: root ? { organizationId: target.id, position, updatedAt: now } : { organizationId: target.id, updatedAt: now }, $unset: root ? ["parent", "grants"] : ["grants"] },
        );
      }
      await emit(this.broker, events.orgsCollectionTransferred, { fromOrganizationId: collection.organizationId, toOrganizationId: target.id, collectionIds });
      await this.collectionsChanged(collection.organizationId, collection.id);
      await this.collectionsChanged(target.id, collection.id);
      const moved = await this.collections.findOne({ id: collection.id });
      if (!moved) throw new NotFoundError(`Collection ${ctx.params.collectionId} was not found.`);
      return presentCollection(moved, this.collectionRole(moved, targetMember, new Map([[moved.id, moved]])), this.publicUrl());
    },
  },

  /** Internal: the default levels and grants of a collection and its ancestors, nearest first, for content access. */
  collectionLevels: {
    visibility: "public",
    params: { collectionId: idRule },
    async handler(this: OrgsService, ctx: Ctx<{ collectionId: string }>): Promise<CollectionLevels> {
      const collection = await this.collections.findOne({ id: ctx.params.collectionId });
      if (!collection) return { exists: false, organizationId: null, deleted: false, levels: [] as RoleOrGuest[], grants: [] };
      const chain = await this.collectionChain(collection);
      return {
        exists: true,
        organizationId: collection.organizationId,
        deleted: Boolean(collection.deletedAt),
        levels: chainLevels((id) => chain.get(id), collection.id),
        grants: chainGrants((id) => chain.get(id), collection.id),
      };
    },
  },
};
