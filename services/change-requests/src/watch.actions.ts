// Watching a change request (issue 39): watchers are notified of its new comments and replies (by the
// comments service, which asks `watchers`), of review requests and of its merge (notify.ts). The author
// watches without having chosen to; requested reviewers and reviewers start watching when asked or when they
// review, unless they chose before. Anyone may stop (an explicit choice is kept and never overridden).
import { call } from "@docshelf/contracts/action";
import { MAX_WATCHERS, type WatchState } from "@docshelf/contracts/change-requests";
import * as orgs from "@docshelf/contracts/orgs";
import { ConflictError, NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import type { ChangeRequestDoc, WatchDoc } from "./models";
import type { ChangeRequestsActions, ChangeRequestsService, Ctx } from "./service-types";

const at = { spaceId: idRule, changeRequestId: { type: "string", min: 1, max: 64 } } as const;

interface At {
  spaceId: string;
  changeRequestId: string;
}

/** Who watches the change request: those who chose to, and its author unless they chose not to. */
export async function watchersOf(service: ChangeRequestsService, cr: Pick<ChangeRequestDoc, "id" | "createdBy">): Promise<string[]> {
  const [watching, authorChoice] = await Promise.all([
    service.watches.find({ changeRequestId: cr.id, watching: true }, { limit: MAX_WATCHERS + 1 }),
    service.watches.findOne({ id: `${cr.id}:${cr.createdBy}` }),
  ]);
  const ids = new Set(watching.map((w) => w.userId));
  if (!authorChoice) ids.add(cr.createdBy);
  return [...ids].slice(0, MAX_WATCHERS);
}

/** Starts `userIds` watching who have made no choice yet (requested reviewers, reviewers). Best effort. */
export async function autoWatch(service: ChangeRequestsService, cr: ChangeRequestDoc, userIds: string[]): Promise<void> {
  for (const userId of new Set(userIds)) {
    if (userId === cr.createdBy) continue;
    try {
      if (await service.watches.findOne({ id: `${cr.id}:${userId}` })) continue;
      await service.watches.insert({ id: `${cr.id}:${userId}`, spaceId: cr.spaceId, changeRequestId: cr.id, userId, watching: true, updatedAt: new Date().toISOString() });
    } catch (err) {
      if (!(err instanceof ConflictError)) service.logger.warn({ err: { message: (err as Error)?.message }, changeRequestId: cr.id }, "watching a change request automatically failed");
    }
  }
}

/** The change request as the caller sees it, when they may watch it: read role and a member of the space's organization. */
async function loadWatchable(service: ChangeRequestsService, ctx: Ctx<At>) {
  const loaded = await service.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
  const organizationId = loaded.space.organizationId;
  // A public space is readable by anyone; only members of its organization are notified, so only they watch.
  const members = organizationId ? await call(ctx, orgs.membersOf, { organizationId, userIds: [loaded.caller.id] }) : {};
  if (!members[loaded.caller.id] || members[loaded.caller.id].disabled) throw new NotFoundError(`Change request ${ctx.params.changeRequestId} was not found in the space.`);
  return loaded;
}

async function stateOf(service: ChangeRequestsService, cr: ChangeRequestDoc, userId: string): Promise<WatchState> {
  const watchers = await watchersOf(service, cr);
  return { watching: watchers.includes(userId), watchers: watchers.length };
}

export const watchActions: ChangeRequestsActions = {
  /** Whether the caller watches the change request, and how many do. */
  getWatch: {
    params: { ...at },
    async handler(ctx: Ctx<At>): Promise<WatchState> {
      const { cr, caller } = await loadWatchable(this, ctx);
      return stateOf(this, cr, caller.id);
    },
  },

  /** Watches or stops watching; kept as the caller's choice (automatic watching never overrides it). */
  setWatch: {
    params: { ...at, watching: { type: "boolean", convert: true } },
    async handler(ctx: Ctx<At & { watching: boolean }>): Promise<WatchState> {
      const { cr, caller } = await loadWatchable(this, ctx);
      const id = `${cr.id}:${caller.id}`;
      const watching = ctx.params.watching;
      if (watching && (await this.watches.count({ changeRequestId: cr.id, watching: true })) >= MAX_WATCHERS && !(await this.watches.findOne({ id, watching: true }))) {
        throw new ConflictError(`The change request has ${MAX_WATCHERS} watchers, the most it may have.`);
      }
      const updatedAt = new Date().toISOString();
      const doc: WatchDoc = { id, spaceId: cr.spaceId, changeRequestId: cr.id, userId: caller.id, watching, updatedAt };
      if (!(await this.watches.updateOne({ id }, { $set: { watching, updatedAt } }))) {
        try {
          await this.watches.insert(doc);
        } catch (err) {
          // Another request of the same user made the choice first: this one is the later choice.
          if (!(err instanceof ConflictError)) throw err;
          await this.watches.updateOne({ id }, { $set: { watching, updatedAt } });
        }
      }
      return stateOf(this, cr, caller.id);
    },
  },

  /** Internal: who watches the change request (by id), for the comments service's notifications. */
  watchers: {
    visibility: "public",
    params: { spaceId: idRule, changeRequestId: idRule },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string }>): Promise<{ userIds: string[] }> {
      const cr = await this.changeRequests.findOne({ spaceId: ctx.params.spaceId, id: ctx.params.changeRequestId });
      return { userIds: cr ? await watchersOf(this, cr) : [] };
    },
  },
};
