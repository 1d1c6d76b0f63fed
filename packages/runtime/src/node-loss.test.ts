import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { fakeBroker as broker } from "./__tests__/fake-broker";

interface Discoverer {
  checkRemoteNodes(): void;
  stopHeartbeatTimers(): void;
  startHeartbeatTimers(): void;
  beat(): void;
}
const discovererOf = (b: ServiceBroker) => (b.registry as unknown as { discoverer: Discoverer }).discoverer;

/** A caller and a callee (with an `echo` service) on the Fake transporter, each knowing the other, for `body`. */
async function withPair(body: (caller: ServiceBroker, callee: ServiceBroker) => Promise<void>): Promise<void> {
  const namespace = `nl${randomBytes(4).toString("hex")}`;
  const caller = broker("caller", namespace);
  const callee = broker("callee", namespace);
  callee.createService({ name: "echo", actions: { hi: () => "hi" } });
  await caller.start();
  await callee.start();
  try {
    await caller.waitForServices("echo", 2_000);
    await body(caller, callee);
  } finally {
    await callee.stop();
    await caller.stop();
  }
}

test("a peer whose heartbeats stop (a killed process) is dropped within 7 s of its last one, not up to 9 s", async () => {
  await withPair(async (caller, callee) => {
    const checks = jest.spyOn(discovererOf(caller), "checkRemoteNodes");
    const dropped = new Promise<number>((resolve) => caller.localBus.on("$node.disconnected", () => resolve(Date.now())));
    // Killed: no more heartbeats, and no DISCONNECT packet.
    discovererOf(callee).stopHeartbeatTimers();
    const silentFrom = Date.now();
    const droppedAt = await Promise.race([dropped, new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 9_500))]);
    expect(droppedAt - silentFrom).toBeLessThan(7_000);
    // Moleculer alone checks every heartbeatTimeout (4 s): at most 2 checks in that time, one a second here.
    expect(checks.mock.calls.length).toBeGreaterThanOrEqual(4);
  });
}, 20_000);

test("a process that stood still longer than heartbeatTimeout (a stalled machine) drops no live peer when it resumes", async () => {
  await withPair(async (caller, callee) => {
    const drops: string[] = [];
    caller.localBus.on("$node.disconnected", ({ node }: { node: { id: string } }) => drops.push(node.id));
    // The whole machine stands still: the callee sends nothing and the caller runs nothing for 5.5 s. When
    // both run again, the callee's next heartbeat arrives a moment after the caller's overdue checks.
    discovererOf(callee).stopHeartbeatTimers();
    const until = Date.now() + 5_500;
    while (Date.now() < until) {
      /* stand still */
    }
    setTimeout(() => {
      discovererOf(callee).beat();
      discovererOf(callee).startHeartbeatTimers();
    }, 100);
    await new Promise((r) => setTimeout(r, 3_500));
    expect(drops).toEqual([]);
    expect(await caller.call("echo.hi")).toBe("hi");
  });
}, 20_000);

test("a process that stands still while its services start (its peers already known) drops none of them", async () => {
  const namespace = `nl${randomBytes(4).toString("hex")}`;
  const callee = broker("callee", namespace);
  callee.createService({ name: "echo", actions: { hi: () => "hi" } });
  await callee.start();
  // The caller connects, hears the callee, then its own service's start holds the event loop for 5.5 s (more than
  // heartbeatTimeout): a process loading code and opening its store on a loaded machine.
  const caller = broker("caller", namespace);
  caller.createService({
    name: "slow",
    async started() {
      await caller.waitForServices("echo", 2_000);
      const until = Date.now() + 5_500;
      while (Date.now() < until) {
        /* stand still */
      }
    },
  });
  const drops: string[] = [];
  caller.localBus.on("$node.disconnected", ({ node }: { node: { id: string } }) => drops.push(node.id));
  try {
    await caller.start();
    await new Promise((r) => setTimeout(r, 3_500));
    expect(drops).toEqual([]);
    expect(await caller.call("echo.hi")).toBe("hi");
  } finally {
    await caller.stop();
    await callee.stop();
  }
}, 20_000);
