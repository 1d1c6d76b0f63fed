// A node's heartbeats do not sample the machine's CPU (createBroker's NO_CPU_SAMPLE): moleculer would read
// os.cpus() three times at every heartbeat, every second, in every process.
import os from "node:os";
import { loadConfig } from "@docshelf/config";
import { createBroker } from "./index";

describe("heartbeats without CPU sampling", () => {
  test("a broker's heartbeats over the Fake transporter never call os.cpus()", async () => {
    const cpus = jest.spyOn(os, "cpus");
    const cfg = loadConfig({ SERVICES: "orgs", TRANSPORTER: "Fake", NAMESPACE: `cpu${process.pid}`, DATA_DIR: ":memory:", HOST: "127.0.0.1", LOGLEVEL: "fatal" });
    const broker = createBroker(cfg, { logger: false });
    await broker.start();
    try {
      // Heartbeats go every second (moleculer.config.ts): wait for two of them to have been built.
      const beats: number[] = [];
      const discoverer = (broker.registry as unknown as { discoverer: { beat(): Promise<unknown> } }).discoverer;
      const beat = discoverer.beat.bind(discoverer);
      discoverer.beat = () => {
        beats.push(Date.now());
        return beat();
      };
      while (beats.length < 2) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 300)); // past moleculer's sampling delays (100 ms twice)
      expect(cpus).not.toHaveBeenCalled();
      expect(broker.registry.nodes.localNode?.cpu).toBe(0);
    } finally {
      await broker.stop();
      cpus.mockRestore();
    }
  });
});
