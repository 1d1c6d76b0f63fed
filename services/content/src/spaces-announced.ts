// The spaces collection as content's actions see it: every write that may change who sees a space (or what a
// read of its comments and change requests shows) broadcasts `content.space.access.changed` before it returns,
// so that other nodes' kept access answers (contracts' kept-access) are dropped before the write's request is
// answered. It is done here, under every action, so that no path that writes a space can forget it.
import { broadcast, type EventBroadcaster } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import type { Collection, Filter, Primitive, Update } from "@docshelf/store";
import type { SpaceDoc } from "./models";

/** Fields whose change alters no access answer: an update touching only these is not announced. */
const UNANNOUNCED = new Set<string>(["title", "emoji", "updatedAt", "comments", "changeRequests", "changeRequestsOpen", "changeRequestsDraft", "position", "gitSync"]);

/** The top-level fields an update touches (`grants.user:x` is `grants`). */
export function touchedFields(update: Update<SpaceDoc>): string[] {
  const paths = [
    ...Object.keys(update.$set ?? {}),
    ...(update.$unset ?? []),
    ...Object.keys(update.$inc ?? {}),
    ...Object.keys(update.$push ?? {}),
    ...Object.keys(update.$pull ?? {}),
  ];
  return paths.map((path) => path.split(".")[0]);
}

export function announces(update: Update<SpaceDoc>): boolean {
  return touchedFields(update).some((field) => !UNANNOUNCED.has(field));
}

/** `spaces` with its access-changing writes announced through `broker`. Reads pass through. */
export function announcedSpaces(spaces: Collection<SpaceDoc>, broker: EventBroadcaster): Collection<SpaceDoc> {
  const announce = (spaceId: string | null, organizationId: string | null) => broadcast(broker, events.contentSpaceAccessChanged, { spaceId, organizationId });
  const idOf = (filter: Filter): string | null => (typeof filter.id === "string" ? filter.id : null);
  return {
    get name() {
      return spaces.name;
    },
    find: (filter, options) => spaces.find(filter, options),
    findOne: (filter) => spaces.findOne(filter),
    count: (filter) => spaces.count(filter),
    // A new space has no kept answers (only answers that let someone in are kept).
    insert: (doc) => spaces.insert(doc),
    async updateOne(filter: Filter, update: Update<SpaceDoc>) {
      const updated = await spaces.updateOne(filter, update);
      if (updated && announces(update)) await announce(updated.id, updated.organizationId);
      return updated;
    },
    async compareAndSwap(id: string, field: string, expected: Primitive, next: Primitive) {
      const swapped = await spaces.compareAndSwap(id, field, expected, next);
      if (swapped && !UNANNOUNCED.has(field.split(".")[0])) await announce(id, null);
      return swapped;
    },
    async deleteOne(filter: Filter) {
      const deleted = await spaces.deleteOne(filter);
      if (deleted) await announce(idOf(filter), null);
      return deleted;
    },
    async deleteMany(filter: Filter) {
      const deleted = await spaces.deleteMany(filter);
      if (deleted) await announce(idOf(filter), null);
      return deleted;
    },
  };
}
