// Request ids and accepted response ids in the store: shared by every node, and atomic against replays.
import { SqliteStore, type Collection } from "@docshelf/store";
import { collections, type SamlConsumedDoc, type SamlRequestDoc } from "./models";
import { CONSUMED_TTL_MS, REQUEST_TTL_MS } from "./saml-config";
import { consumeOnce, requestCache } from "./saml-store";

describe("saml store", () => {
  let requests: Collection<SamlRequestDoc>;
  let consumed: Collection<SamlConsumedDoc>;
  beforeEach(async () => {
    const store = new SqliteStore({});
    requests = await store.collection<SamlRequestDoc>(collections.samlRequests);
    consumed = await store.collection<SamlConsumedDoc>(collections.samlConsumed);
  });

  test("a saved request id answers for its own provider only, until it is removed", async () => {
    const a = requestCache(requests, "provider-a");
    await a.saveAsync("_req1", "2026-01-01T00:00:00.000Z");
    expect(await a.getAsync("_req1")).toBe("2026-01-01T00:00:00.000Z");
    expect(await requestCache(requests, "provider-b").getAsync("_req1")).toBeNull();
    expect(await a.removeAsync("_req1")).toBe("2026-01-01T00:00:00.000Z");
    expect(await a.getAsync("_req1")).toBeNull();
  });

  test("a request remembers who asked to link their account, and the cache tells which request was answered", async () => {
    await requestCache(requests, "p", { linkUserId: "u1" }).saveAsync("_req2", "then");
    const cache = requestCache(requests, "p");
    expect(cache.answered()).toBeNull();
    await cache.getAsync("_req2");
    expect(cache.answered()).toMatchObject({ id: "p:_req2", linkUserId: "u1" });
  });

  test("a request id expires, and expired ones are pruned when a new one is saved", async () => {
    let now = 1_000_000;
    const cache = requestCache(requests, "p", { now: () => now });
    await cache.saveAsync("_old", "then");
    now += REQUEST_TTL_MS + 1;
    expect(await cache.getAsync("_old")).toBeNull();
    await cache.saveAsync("_new", "now");
    expect(await requests.count({})).toBe(1);
  });

  test("the same ids are consumed once, even when consumed at the same moment", async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => consumeOnce(consumed, "p", ["response:_r1", "assertion:_a1"])));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await consumeOnce(consumed, "p", ["response:_r1", "assertion:_a1"])).toBe(false);
    expect(await consumeOnce(consumed, "other-provider", ["response:_r1", "assertion:_a1"])).toBe(true);
  });

  test("an assertion reused inside a new response is refused", async () => {
    expect(await consumeOnce(consumed, "p", ["response:_r1", "assertion:_a1"])).toBe(true);
    expect(await consumeOnce(consumed, "p", ["response:_r2", "assertion:_a1"])).toBe(false);
  });

  test("consumed ids are forgotten after their time", async () => {
    const start = 5_000_000;
    await consumeOnce(consumed, "p", ["response:_r1"], start);
    expect(await consumeOnce(consumed, "p", ["response:_r1"], start + CONSUMED_TTL_MS + 1)).toBe(true);
  });
});
