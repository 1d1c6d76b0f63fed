// The typed call helpers: the descriptor's name, the params and the options reach the broker as given.
import { ServiceBroker } from "moleculer";
import { broadcast, call, emit, type ActionCaller } from "./action";
import * as content from "./content";
import * as events from "./events";

describe("call", () => {
  test("calls the descriptor's action with the params and options, and answers what the action answers", async () => {
    const seen: unknown[] = [];
    const caller: ActionCaller = {
      call<TResult, TParams>(name: string, params: TParams, opts?: unknown): Promise<TResult> {
        seen.push([name, params, opts]);
        return Promise.resolve({ revision: "r1", pages: {} } as TResult);
      },
    };
    const answer = await call(caller, content.pagesMeta, { spaceId: "s1", pageIds: ["p1"] }, { timeout: 5 });
    expect(answer).toEqual({ revision: "r1", pages: {} });
    expect(seen).toEqual([["content.pagesMeta", { spaceId: "s1", pageIds: ["p1"] }, { timeout: 5 }]]);
  });

  test("spaceAccessOf asks content for the calling user's access, and refuses without a caller", async () => {
    const broker = new ServiceBroker({ logger: false });
    const asked: unknown[] = [];
    broker.createService({
      name: "content",
      actions: {
        spaceAccess(ctx): content.SpaceAccess {
          asked.push(ctx.params);
          return { exists: true, organizationId: "o1", role: "read", revision: "r1", title: "S", visibility: "private" };
        },
      },
    });
    broker.createService({
      name: "probe",
      actions: {
        mine: (ctx) => content.spaceAccessOf(ctx, "s1"),
      },
    });
    await broker.start();
    try {
      const access = await broker.call("probe.mine", {}, { meta: { user: { id: "u1" } } });
      expect(access).toMatchObject({ exists: true, role: "read" });
      expect(asked).toEqual([{ spaceId: "s1", userId: "u1" }]);
      await expect(broker.call("probe.mine", {})).rejects.toMatchObject({ code: 401 });
    } finally {
      await broker.stop();
    }
  });
});

describe("broadcast and emit", () => {
  test("send the descriptor's event with its payload", async () => {
    const sent: unknown[] = [];
    const sender = {
      broadcast: (name: string, data: unknown) => void sent.push(["broadcast", name, data]),
      emit: (name: string, data: unknown) => void sent.push(["emit", name, data]),
    };
    await broadcast(sender, events.orgsMembersChanged, { organizationId: "o1" });
    await emit(sender, events.sitesUrlsChanged, { siteId: "x" });
    expect(sent).toEqual([
      ["broadcast", "orgs.members.changed", { organizationId: "o1" }],
      ["emit", "sites.urls.changed", { siteId: "x" }],
    ]);
  });
});
