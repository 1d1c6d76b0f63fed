import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { fakeBroker as broker } from "./__tests__/fake-broker";


interface Discoverer {
  checkRemoteNodes(): void;
  stopHeartbeatTimers(): void;
}
const discovererOf = (b: ServiceBroker) => (b.registry as unknown as { discoverer: Discoverer }).discoverer;

test("a peer whose heartbeats stop (a killed process) is dropped within 7 s of its last one, not up to 9 s", async () => {
  const namespace = `nl${randomBytes(4).toString("hex")}`;
  const caller = broker("caller", namespace);
  const callee = broker("callee", namespace);
  callee.createService({ name: "echo", actions: { hi: () => "hi" } });
  await caller.start();
  await callee.start();
  try {
    await caller.waitForServices("echo", 2_000);
    const checks = jest.spyOn(discovererOf(caller), "checkRemoteNodes");
    const dropped = new Promise<number>((resolve) => caller.localBus.on("$node.disconnected", () => resolve(Date.now())));
    // Killed: no more heartbeats, and no DISCONNECT packet.
    discovererOf(callee).stopHeartbeatTimers();
    const silentFrom = Date.now();
    const droppedAt = await Promise.race([dropped, new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 9_500))]);
    expect(droppedAt - silentFrom).toBeLessThan(7_000);
    // Moleculer alone checks every heartbeatTimeout (4 s): at most 2 checks in that time, one a second here.
    expect(checks.mock.calls.length).toBeGreaterThanOrEqual(4);
  } finally {
    await callee.stop();
    await caller.stop();
  }
}, 20_000);
