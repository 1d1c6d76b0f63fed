// Spaces and their revisions: create, list and read, with the caller's permissions.
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import {
  atLeast,
  callerOf,
  effectiveRole,
  memberRoleOf,
  MembershipCache,
  type Caller,
  type Membership,
  type RoleOrGuest,
} from "@docshelf/access";
import { ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listParams, listPage } from "@docshelf/list";
import { newId, op, storeMixin, type Collection, type Filter } from "@docshelf/store";
import { collections, type RevisionDoc, type SpaceDoc } from "./models";
import { presentRevision, presentSpace } from "./present";

interface Vars {
  spaces: Collection<SpaceDoc>;
  revisions: Collection<RevisionDoc>;
  memberships: MembershipCache;
}
interface Methods {
  roleOn(space: SpaceDoc, membership: Membership): RoleOrGuest;
  membership(ctx: Context, organizationId: string, caller: Caller): Promise<Membership>;
  /** The live space as the caller sees it, with the caller's role; 404 when it is hidden from them. */
  loadSpace(ctx: Context, spaceId: string): Promise<{ space: SpaceDoc; role: RoleOrGuest }>;
}

type Ctx<P> = Context<P, Record<string, unknown>>;
const id = { type: "string", min: 1, max: 64 } as const;

interface CreateParams {
  organizationId: string;
  title?: string;
  emoji?: string;
  parent?: string;
  editMode?: SpaceDoc["editMode"];
}

export function contentSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "content",
    mixins: [storeMixin(collections)],

    actions: {
      createSpace: {
        params: {
          organizationId: id,
          title: { type: "string", max: 50, optional: true },
          emoji: { type: "string", max: 50, optional: true },
          parent: { ...id, optional: true },
          editMode: { type: "enum", values: ["live", "locked"], optional: true },
        },
        async handler(ctx: Ctx<CreateParams>) {
          const caller = callerOf(ctx);
          const membership = await this.membership(ctx, ctx.params.organizationId, caller);
          if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
          if (!atLeast(membership.role, "create")) throw new ForbiddenError("Creating spaces needs the create role or better.");
          const now = new Date().toISOString();
          const spaceId = newId();
          // A new space starts with an empty revision.
          const revision: RevisionDoc = {
            id: newId(),
            spaceId,
            parents: [],
            type: "edits",
            pages: [],
            files: [],
            reusableContents: [],
            variables: {},
            createdAt: now,
          };
          await this.revisions.insert(revision);
          const space: SpaceDoc = {
            id: spaceId,
            organizationId: ctx.params.organizationId,
            title: ctx.params.title ?? "",
            emoji: ctx.params.emoji ?? "",
            visibility: "private",
            editMode: ctx.params.editMode ?? "live",
            defaultLevel: "inherit",
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
          return presentSpace(space, this.roleOn(space, membership), configFor(this.broker).publicUrl);
        },
      },

      listSpaces: {
        params: { organizationId: id, ...listParams },
        async handler(ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
          const caller = callerOf(ctx);
          const membership = await this.membership(ctx, ctx.params.organizationId, caller);
          if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
          const filter: Filter = { organizationId: ctx.params.organizationId, deletedAt: op.exists(false) };
          // Guests see only what is open to everyone signed in.
          if (membership.role === null) filter.visibility = op.in(["public", "unlisted"]);
          const publicUrl = configFor(this.broker).publicUrl;
          return listPage(this.spaces, filter, ctx.params, (spaces) =>
            spaces.map((space) => presentSpace(space, this.roleOn(space, membership), publicUrl)),
          );
        },
      },

      getSpace: {
        params: { spaceId: id, shareKey: { type: "string", optional: true, max: 256 } },
        async handler(ctx: Ctx<{ spaceId: string }>) {
          const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
          return presentSpace(space, role, configFor(this.broker).publicUrl);
        },
      },

      getCurrentRevision: {
        params: {
          spaceId: id,
          metadata: { type: "boolean", optional: true, convert: true },
          computed: { type: "boolean", optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ spaceId: string }>) {
          const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
          const revision = await this.revisions.findOne({ id: space.revision });
          if (!revision) throw new NotFoundError(`Revision ${space.revision} was not found.`);
          return presentRevision(revision, space, configFor(this.broker).publicUrl);
        },
      },
    },

    events: {
      "orgs.members.changed": {
        handler(ctx: Context<{ organizationId: string }>) {
          this.memberships.dropOrganization(ctx.params.organizationId);
        },
      },
    },

    methods: {
      roleOn(space: SpaceDoc, membership: Membership): RoleOrGuest {
        return effectiveRole({
          memberRole: memberRoleOf(membership),
          spaceLevel: space.defaultLevel === "inherit" ? null : space.defaultLevel,
          visibility: space.visibility,
        });
      },

      membership(ctx: Context, organizationId: string, caller: Caller) {
        return this.memberships.get(organizationId, caller.id);
      },

      async loadSpace(ctx: Context, spaceId: string) {
        const caller = callerOf(ctx);
        const space = await this.spaces.findOne({ id: spaceId });
        if (!space || space.deletedAt) throw new NotFoundError(`Space ${spaceId} was not found.`);
        const role = this.roleOn(space, await this.membership(ctx, space.organizationId, caller));
        if (!role) throw new NotFoundError(`Space ${spaceId} was not found.`);
        return { space, role };
      },
    },

    created() {
      this.memberships = new MembershipCache((organizationId, userId) =>
        this.broker.call<Membership, { organizationId: string; userId: string }>("orgs.memberRole", { organizationId, userId }),
      );
    },
  };
}

export default contentSchema;
