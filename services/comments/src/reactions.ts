// Reactions: one per user and emoji; the API groups them by emoji in the order each emoji first appeared.
import type { ReactionDoc } from "./models";

/** The reactions after `userId` adds and removes emoji (already normalized); adding one twice or removing a missing one changes nothing. */
export function applyReactions(current: ReactionDoc[], userId: string, added: string[], removed: string[], now: string): ReactionDoc[] {
  const gone = new Set(removed);
  const next = current.filter((r) => !(r.userId === userId && gone.has(r.emoji) && !added.includes(r.emoji)));
  for (const emoji of added) {
    if (!next.some((r) => r.userId === userId && r.emoji === emoji)) next.push({ emoji, userId, reactedAt: now });
  }
  return next;
}

export interface ReactionGroup {
  emoji: string;
  count: number;
  users: Array<{ userId: string; reactedAt: string }>;
}

export function groupReactions(reactions: ReactionDoc[]): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    let group = groups.get(r.emoji);
    if (!group) groups.set(r.emoji, (group = { emoji: r.emoji, count: 0, users: [] }));
    group.users.push({ userId: r.userId, reactedAt: r.reactedAt });
    group.count = group.users.length;
  }
  return [...groups.values()];
}
