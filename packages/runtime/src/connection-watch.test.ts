import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { fakeBroker } from "./__tests__/fake-broker";

/** A NATS client's status stream as the watch reads it, fed by the test. */
class StatusFeed implements AsyncIterable<{ type: string }> {
  private readonly queued: string[] = [];
  private waiting: ((value: IteratorResult<{ type: string }>) => void) | undefined;

  push(type: string): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: { type }, done: false });
    } else this.queued.push(type);
  }

  [Symbol.asyncIterator](): AsyncIterator<{ type: string }> {
    return {
      next: () => {
        const type = this.queued.shift();
        if (type !== undefined) return Promise.resolve({ value: { type }, done: false });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

interface Transit {
  connected: boolean;
  tx: { client?: unknown };
}

/** Without heartbeats: a node that drops another gets it back only from an INFO packet, which is what this suite is about. */
const broker = (nodeID: string, namespace: string): ServiceBroker => fakeBroker(nodeID, namespace, {}, { heartbeatInterval: 0 });

const transitOf = (b: ServiceBroker) => b.transit as unknown as Transit;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("connectionWatch", () => {
  let caller: ServiceBroker;
  let callee: ServiceBroker;
  let feed: StatusFeed;

  beforeEach(async () => {
    const namespace = `cw${randomBytes(4).toString("hex")}`;
    caller = broker("caller", namespace);
    callee = broker("callee", namespace);
    callee.createService({ name: "echo", actions: { hi: () => "hi" } });
    feed = new StatusFeed();
    transitOf(callee).tx.client = { status: () => feed };
    await caller.start();
    await callee.start();
    await caller.waitForServices("echo", 2_000);
  });

  afterEach(async () => {
    await callee.stop();
    await caller.stop();
  });

  test("a disconnect clears the transit's connected flag, and a reconnect sets it again", async () => {
    feed.push("disconnect");
    await settle();
    expect(transitOf(callee).connected).toBe(false);
    feed.push("reconnect");
    await settle();
    expect(transitOf(callee).connected).toBe(true);
  });

  test("a node that reconnects announces itself at once to the nodes that dropped it during the outage", async () => {
    feed.push("disconnect");
    await settle();
    // The caller stopped hearing the callee's heartbeats for heartbeatTimeout and dropped it.
    caller.registry.nodes.disconnected("callee", true);
    await expect(caller.call("echo.hi")).rejects.toMatchObject({ name: "ServiceNotAvailableError" });

    feed.push("reconnect");
    // No heartbeat will come (they are off here): only the callee's own INFO brings its services back.
    await caller.waitForServices("echo", 1_000);
    expect(await caller.call("echo.hi")).toBe("hi");
  });
});
