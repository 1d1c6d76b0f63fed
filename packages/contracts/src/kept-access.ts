// A node's cache of `content.spaceAccess` for reads (lists and single reads of comments and change requests),
// so that such a read over NATS is one hop (gateway → service) and not two in a row (→ content).
//
// It is kept right by events, like content's own cache of memberships (MembershipCache): every change that
// can alter an answer is broadcast before the request that made it is answered, and drops the answers it
// touches on every node. Content broadcasts `content.space.access.changed` from its spaces collection itself
// (every write to a space's access fields, whichever action made it, see content's `spaces-announced.ts`);
// orgs' member, team, collection and principal events drop the organization's answers or all of them. An
// answer fetched while a drop happened is not kept (it may predate the change), and TTL bounds the rest
// (a broadcast lost with a broken connection). Writes never decide from it: they ask content each time.
import type { ServiceSchema } from "moleculer";
import { callerOf } from "@docshelf/access";
import type { ActionCaller } from "./action";
import { spaceAccessOf, type SpaceAccess } from "./content";

/** What a kept answer holds: everything but the title, which changes without a drop (renaming is not access). */
export type KeptSpaceAccess = Omit<SpaceAccess, "title">;

/** How long an answer is used at most without asking content again; the events drop it sooner. */
export const KEPT_ACCESS_TTL_MS = 10_000;
const KEPT_ACCESS_MAX = 20_000;

interface Kept {
  value: KeptSpaceAccess;
  organizationId: string;
  expires: number;
}

export class SpaceAccessCache {
  /** By space, then user. */
  private readonly entries = new Map<string, Map<string, Kept>>();
  private size = 0;
  /** Counts drops, so that an answer fetched across a drop is not kept. */
  private drops = 0;

  constructor(
    private readonly ttlMs = KEPT_ACCESS_TTL_MS,
    private readonly max = KEPT_ACCESS_MAX,
  ) {}

  peek(spaceId: string, userId: string): KeptSpaceAccess | undefined {
    const hit = this.entries.get(spaceId)?.get(userId);
    return hit && hit.expires > Date.now() ? hit.value : undefined;
  }

  async get(spaceId: string, userId: string, fetch: () => Promise<SpaceAccess>): Promise<KeptSpaceAccess> {
    const hit = this.peek(spaceId, userId);
    if (hit) return hit;
    const drops = this.drops;
    const { title: _title, ...value } = await fetch();
    // Only answers that let the user in are kept: a refusal is asked again, so a grant works at once.
    if (this.drops !== drops || !value.exists || !value.role || !value.organizationId) return value;
    if (this.size >= this.max) this.clear();
    let users = this.entries.get(spaceId);
    if (!users) this.entries.set(spaceId, (users = new Map()));
    if (!users.has(userId)) this.size += 1;
    users.set(userId, { value: Object.freeze(value), organizationId: value.organizationId, expires: Date.now() + this.ttlMs });
    return value;
  }

  dropSpace(spaceId: string): void {
    this.drops += 1;
    const users = this.entries.get(spaceId);
    if (!users) return;
    this.size -= users.size;
    this.entries.delete(spaceId);
  }

  dropOrganization(organizationId: string): void {
    this.drops += 1;
    for (const [spaceId, users] of this.entries) {
      for (const [userId, kept] of users) {
        if (kept.organizationId !== organizationId) continue;
        users.delete(userId);
        this.size -= 1;
      }
      if (!users.size) this.entries.delete(spaceId);
    }
  }

  clear(): void {
    this.drops += 1;
    this.entries.clear();
    this.size = 0;
  }

  get keptCount(): number {
    return this.size;
  }
}

/** One cache per broker (every service of a process shares it). */
const caches = new WeakMap<object, SpaceAccessCache>();

export function spaceAccessCacheOf(broker: object): SpaceAccessCache {
  let cache = caches.get(broker);
  if (!cache) caches.set(broker, (cache = new SpaceAccessCache()));
  return cache;
}

/** The calling user's access to `spaceId` for a read, through this node's cache; 401 without a caller. */
export function keptSpaceAccessOf(ctx: ActionCaller & { meta: unknown; broker: object }, spaceId: string): Promise<KeptSpaceAccess> {
  const userId = callerOf(ctx).id;
  return spaceAccessCacheOf(ctx.broker).get(spaceId, userId, () => spaceAccessOf(ctx, spaceId));
}

interface Dropping {
  broker: object;
}
type DropHandler = (this: Dropping, ctx: { params: Record<string, unknown> }) => void;

function dropOrganizationOf(key: string): DropHandler {
  return function (this: Dropping, ctx) {
    const organizationId = ctx.params[key];
    if (typeof organizationId === "string") spaceAccessCacheOf(this.broker).dropOrganization(organizationId);
    else spaceAccessCacheOf(this.broker).clear();
  };
}

function dropAll(this: Dropping): void {
  spaceAccessCacheOf(this.broker).clear();
}

/**
 * The events that drop kept answers, for each service that reads through `keptSpaceAccessOf` to mix in.
 * Collections are inherited down a tree (a change may reach any space below), so their events drop everything.
 */
export function keptAccessMixin(): Partial<ServiceSchema> {
  const events: Record<string, { handler: DropHandler }> = {
    "content.space.access.changed": {
      handler(this: Dropping, ctx) {
        const spaceId = ctx.params.spaceId;
        if (typeof spaceId === "string") spaceAccessCacheOf(this.broker).dropSpace(spaceId);
        else spaceAccessCacheOf(this.broker).clear();
      },
    },
    "orgs.members.changed": { handler: dropOrganizationOf("organizationId") },
    "orgs.principal.removed": { handler: dropOrganizationOf("organizationId") },
    "orgs.collections.changed": { handler: dropAll },
    "orgs.collection.deleted": { handler: dropAll },
    "orgs.collection.transferred": { handler: dropAll },
  };
  return { events } as unknown as Partial<ServiceSchema>;
}
