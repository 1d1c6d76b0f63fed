// The node's cache of embedded users: one identity.getMany for the ids it lacks, a drop at once on a change.
import type { ActionCaller } from "./action";
import { UserCache, type User } from "./identity";

function user(id: string, displayName: string): User {
  return { object: "user", id, displayName, urls: { location: `http://docs.test/v1/users/${id}` } };
}

/** A stand-in for identity: answers getMany from `names`, records each call's ids; `gate` holds an answer back. */
function identity(names: Map<string, string>) {
  const calls: string[][] = [];
  let gate: Promise<void> | undefined;
  const caller: ActionCaller = {
    async call<TResult, TParams>(name: string, params: TParams): Promise<TResult> {
      expect(name).toBe("identity.getMany");
      const { ids } = params as { ids: string[] };
      calls.push(ids);
      const answer = Object.fromEntries(ids.filter((id) => names.has(id)).map((id) => [id, user(id, names.get(id)!)]));
      if (gate) await gate;
      return answer as TResult;
    },
  };
  return { caller, calls, hold: (until: Promise<void>) => (gate = until) };
}

describe("UserCache", () => {
  test("asks identity once for the ids it lacks, then answers kept users without a call", async () => {
    const { caller, calls } = identity(new Map([["u1", "Ada"], ["u2", "Grace"]]));
    const cache = new UserCache();
    expect(await cache.get(caller, ["u1", "u2", "u1"])).toEqual({ u1: user("u1", "Ada"), u2: user("u2", "Grace") });
    expect(await cache.get(caller, ["u2"])).toEqual({ u2: user("u2", "Grace") });
    expect(calls).toEqual([["u1", "u2"]]);
  });

  test("an unknown id is left out and asked again next time (never kept)", async () => {
    const names = new Map([["u1", "Ada"]]);
    const { caller, calls } = identity(names);
    const cache = new UserCache();
    expect(await cache.get(caller, ["u1", "u9"])).toEqual({ u1: user("u1", "Ada") });
    names.set("u9", "New");
    expect(await cache.get(caller, ["u1", "u9"])).toEqual({ u1: user("u1", "Ada"), u9: user("u9", "New") });
    expect(calls).toEqual([["u1", "u9"], ["u9"]]);
  });

  test("a dropped user is read again, and an entry past its time too", async () => {
    const names = new Map([["u1", "Ada"]]);
    const { caller, calls } = identity(names);
    const cache = new UserCache(20);
    await cache.get(caller, ["u1"]);
    names.set("u1", "Ada Lovelace");
    cache.drop("u1");
    expect((await cache.get(caller, ["u1"])).u1.displayName).toBe("Ada Lovelace");
    names.set("u1", "Countess");
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await cache.get(caller, ["u1"])).u1.displayName).toBe("Countess");
    expect(calls).toHaveLength(3);
  });

  test("users fetched while a drop happened are answered but not kept (they may predate the change)", async () => {
    const { caller, calls, hold } = identity(new Map([["u1", "Ada"]]));
    const cache = new UserCache();
    let release!: () => void;
    hold(new Promise<void>((resolve) => (release = resolve)));
    const pending = cache.get(caller, ["u1"]);
    cache.drop("u1");
    release();
    expect(await pending).toEqual({ u1: user("u1", "Ada") });
    await cache.get(caller, ["u1"]);
    expect(calls).toHaveLength(2);
  });

  test("kept users are frozen: an answer that embeds one cannot change it for the next", async () => {
    const { caller } = identity(new Map([["u1", "Ada"]]));
    const cache = new UserCache();
    const { u1 } = await cache.get(caller, ["u1"]);
    expect(Object.isFrozen(u1)).toBe(true);
    expect(() => {
      (u1 as { displayName: string }).displayName = "Mallory";
    }).toThrow(TypeError);
    expect((await cache.get(caller, ["u1"])).u1.displayName).toBe("Ada");
  });

  test("past its size it starts over rather than grow", async () => {
    const names = new Map(Array.from({ length: 5 }, (_, i) => [`u${i}`, `User ${i}`] as const));
    const { caller, calls } = identity(names);
    const cache = new UserCache(10_000, 3);
    await cache.get(caller, ["u0", "u1", "u2"]);
    await cache.get(caller, ["u3", "u4"]);
    await cache.get(caller, ["u0"]);
    expect(calls).toEqual([["u0", "u1", "u2"], ["u3", "u4"], ["u0"]]);
  });
});
