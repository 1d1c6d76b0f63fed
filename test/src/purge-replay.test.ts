// A space's purge reaches a service that was down when it happened. `content.space.purged` is a plain
// broadcast, so a process that is not connected at that moment misses it; content keeps a tombstone of
// every purged space for a day and announces it again at every purge sweep, and each handler is
// idempotent. Here the comments process is killed, a space with comments is deleted and purged, and
// once comments runs again the next sweep drops the space's comments. Over NATS only: in one process
// nothing can miss a broadcast.
import { ALL_SERVICES } from "@docshelf/config";
import { createOrg, createSpace, createUser, startNats, type NatsSystem, type TestUser } from "@docshelf/testkit";
import { MODES } from "./modes";
import { countStored } from "./store-snapshot";

const maybe = MODES.includes("nats") ? describe : describe.skip;
const DAY = 24 * 3600 * 1000;
const COMMENTS = ALL_SERVICES.indexOf("comments");

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

maybe("a purge announced again to a service that missed it", () => {
  let sys: NatsSystem;
  let owner: TestUser;

  beforeAll(async () => {
    sys = await startNats({ env: { RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANON_PER_MINUTE: "0" } });
    owner = await createUser(sys.admin);
  });

  afterAll(async () => {
    await sys?.stop();
  });

  const commentsOf = (spaceId: string) => countStored(sys, "comments", "comments", (d) => d.spaceId === spaceId);

  test("the comments of a space purged while comments was down are gone once it is back", async () => {
    const orgId = (await createOrg(owner.api)).id;
    const space = await createSpace(owner.api, orgId, { title: "Soon gone" });
    for (const markdown of ["first", "second"]) {
      const res = await owner.api.post(`/v1/spaces/${space.id}/comments`, { body: { markdown } });
      expect(res.status).toBe(200);
    }
    expect(await commentsOf(space.id)).toBe(2);

    const comments = sys.children[COMMENTS];
    const exited = new Promise((resolve) => comments.once("exit", resolve));
    comments.kill("SIGKILL");
    await exited;

    expect((await owner.api.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
    const purge = await sys.admin.post("/v1/_test/content/clock", { ms: 7 * DAY + 60_000 });
    expect(purge.status).toBe(200);
    expect(purge.body.purged).toBe(1);
    // Nobody was there to hear it: the comments are still stored.
    await sleep(500);
    expect(await commentsOf(space.id)).toBe(2);

    sys.respawn(COMMENTS);
    const since = Date.now();
    let sweeps = 0;
    // Each sweep (the clock does not move) announces the tombstone again, until comments hears one.
    while ((await commentsOf(space.id)) > 0) {
      if (Date.now() - since > 60_000) throw new Error(`the comments were never dropped\n${sys.logs.join("").slice(-3000)}`);
      const sweep = await sys.admin.post("/v1/_test/content/clock", { ms: 0 });
      expect(sweep.status).toBe(200);
      expect(sweep.body.purged).toBe(0);
      sweeps++;
      await sleep(250);
    }
    console.log(`purge replay: comments dropped ${Date.now() - since} ms after comments was restarted, after ${sweeps} sweeps`);
    expect(await commentsOf(space.id)).toBe(0);
  });

  test("a tombstone is announced for a day, then forgotten", async () => {
    const orgId = (await createOrg(owner.api)).id;
    const space = await createSpace(owner.api, orgId, { title: "Long gone" });
    expect((await owner.api.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
    expect((await sys.admin.post("/v1/_test/content/clock", { ms: 7 * DAY + 60_000 })).body.purged).toBe(1);
    const tombstones = () => countStored(sys, "content", "purged_spaces", (d) => d._id === space.id || d.id === space.id);
    expect(await tombstones()).toBe(1);
    expect((await sys.admin.post("/v1/_test/content/clock", { ms: DAY + 60_000 })).status).toBe(200);
    expect(await tombstones()).toBe(0);
  });
});
