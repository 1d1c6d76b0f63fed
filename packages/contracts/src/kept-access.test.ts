import { SpaceAccessCache } from "./kept-access";
import type { SpaceAccess } from "./content";

const answer = (over: Partial<SpaceAccess> = {}): SpaceAccess => ({ exists: true, organizationId: "o1", role: "read", revision: "r1", title: "T", visibility: "private", ...over });

describe("SpaceAccessCache", () => {
  test("keeps an answer that lets the user in, per space and user, without its title", async () => {
    const cache = new SpaceAccessCache();
    let calls = 0;
    const fetch = async () => (calls++, answer());
    expect(await cache.get("s1", "u1", fetch)).toEqual({ exists: true, organizationId: "o1", role: "read", revision: "r1", visibility: "private" });
    await cache.get("s1", "u1", fetch);
    expect(calls).toBe(1);
    await cache.get("s1", "u2", fetch);
    await cache.get("s2", "u1", fetch);
    expect(calls).toBe(3);
    expect(cache.keptCount).toBe(3);
  });

  test("never keeps a refusal: a grant works at once", async () => {
    const cache = new SpaceAccessCache();
    let calls = 0;
    for (const refusal of [answer({ role: null }), answer({ exists: false, organizationId: null, role: null })]) {
      await cache.get("s1", "u1", async () => (calls++, refusal));
      await cache.get("s1", "u1", async () => (calls++, refusal));
    }
    expect(calls).toBe(4);
    expect(cache.keptCount).toBe(0);
  });

  test("an answer fetched while a drop happened is not kept (it may predate the change)", async () => {
    const cache = new SpaceAccessCache();
    let release: (value: SpaceAccess) => void = () => undefined;
    const pending = cache.get("s1", "u1", () => new Promise<SpaceAccess>((resolve) => (release = resolve)));
    cache.dropSpace("s9");
    release(answer({ role: "admin" }));
    expect((await pending).role).toBe("admin");
    expect(cache.peek("s1", "u1")).toBeUndefined();
  });

  test("drops by space, by organization, or all; and expires", async () => {
    const cache = new SpaceAccessCache(50);
    await cache.get("s1", "u1", async () => answer());
    await cache.get("s2", "u1", async () => answer({ organizationId: "o2" }));
    await cache.get("s3", "u1", async () => answer());
    cache.dropSpace("s1");
    expect([cache.peek("s1", "u1"), !!cache.peek("s2", "u1"), !!cache.peek("s3", "u1")]).toEqual([undefined, true, true]);
    cache.dropOrganization("o1");
    expect([!!cache.peek("s2", "u1"), cache.peek("s3", "u1")]).toEqual([true, undefined]);
    expect(cache.keptCount).toBe(1);
    await cache.get("s4", "u1", async () => answer());
    cache.clear();
    expect(cache.keptCount).toBe(0);
    await cache.get("s5", "u1", async () => answer());
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cache.peek("s5", "u1")).toBeUndefined();
  });

  test("holds at most `max` answers", async () => {
    const cache = new SpaceAccessCache(10_000, 3);
    for (let i = 0; i < 7; i++) await cache.get(`s${i}`, "u1", async () => answer());
    expect(cache.keptCount).toBeLessThanOrEqual(3);
  });
});
