import type { ReactionDoc } from "./models";
import { applyReactions, groupReactions } from "./reactions";

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const reaction = (emoji: string, userId: string, n = 0): ReactionDoc => ({ emoji, userId, reactedAt: at(n) });

describe("applyReactions", () => {
  test("adding the same emoji twice keeps one reaction and its first time", () => {
    const once = applyReactions([], "u1", ["👍"], [], at(1));
    expect(applyReactions(once, "u1", ["👍"], [], at(2))).toEqual([reaction("👍", "u1", 1)]);
  });

  test("removing takes away only the caller's reaction", () => {
    const current = [reaction("👍", "u1"), reaction("👍", "u2")];
    expect(applyReactions(current, "u1", [], ["👍"], at(3))).toEqual([reaction("👍", "u2")]);
  });

  test("removing an emoji the caller never used changes nothing", () => {
    const current = [reaction("👍", "u2")];
    expect(applyReactions(current, "u1", [], ["👍", "🎉"], at(3))).toEqual(current);
  });

  test("an emoji both added and removed in one update stays", () => {
    expect(applyReactions([reaction("👍", "u1")], "u1", ["👍"], ["👍"], at(3))).toEqual([reaction("👍", "u1")]);
  });
});

describe("groupReactions", () => {
  test("groups by emoji in order of first use with counts and users", () => {
    const groups = groupReactions([reaction("👍", "u1", 1), reaction("🎉", "u2", 2), reaction("👍", "u3", 3)]);
    expect(groups).toEqual([
      { emoji: "👍", count: 2, users: [{ userId: "u1", reactedAt: at(1) }, { userId: "u3", reactedAt: at(3) }] },
      { emoji: "🎉", count: 1, users: [{ userId: "u2", reactedAt: at(2) }] },
    ]);
  });
});
