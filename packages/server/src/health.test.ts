import type { Server } from "node:http";
import { loadConfig } from "@docshelf/config";
import { createBroker } from "./index";
import { startHealthServer } from "@docshelf/runtime";

function setup(services: string) {
  const cfg = loadConfig({ SERVICES: services, TRANSPORTER: "Fake", NAMESPACE: `h${Date.now()}`, DATA_DIR: ":memory:", HOST: "127.0.0.1", HEALTH_PORT: "0", LOGLEVEL: "fatal" });
  const broker = createBroker(cfg, { logger: false });
  return { cfg, broker };
}

function portOf(server: Server): number {
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("not listening");
  return address.port;
}

// Each test builds its broker, which loads the services' code (SERVICE_LOADERS) inside the test: seconds on a busy machine.
jest.setTimeout(30_000);

describe("the HEALTH_PORT server", () => {
  test("/health is 200 from the start; /ready is 503 until the broker and its stores are up, and again once stopping", async () => {
    const { cfg, broker } = setup("orgs,identity");
    let stopping = false;
    const server = await startHealthServer(broker, { ...cfg, healthPort: 0 }, () => stopping);
    const base = `http://127.0.0.1:${portOf(server)}`;
    try {
      expect((await fetch(`${base}/health`)).status).toBe(200);
      const before = await fetch(`${base}/ready`);
      expect(before.status).toBe(503);
      expect(await before.json()).toMatchObject({ status: "unavailable", notReady: ["orgs", "identity"] });

      await broker.start();
      const after = await fetch(`${base}/ready`);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ status: "ready", transporter: "connected", notReady: [] });

      stopping = true;
      expect((await fetch(`${base}/ready`)).status).toBe(503);
      expect((await fetch(`${base}/health`)).status).toBe(200);
    } finally {
      server.close();
      await broker.stop();
    }
  });

  test("/started (the startup probe) is 503 until broker.start() finished, then 200 for good, NATS outage or not", async () => {
    const { cfg, broker } = setup("orgs");
    const server = await startHealthServer(broker, { ...cfg, healthPort: 0 }, () => false);
    const base = `http://127.0.0.1:${portOf(server)}`;
    try {
      const before = await fetch(`${base}/started`);
      expect(before.status).toBe(503);
      expect(await before.json()).toEqual({ status: "starting" });
      await broker.start();
      expect((await fetch(`${base}/started`)).status).toBe(200);
      (broker.transit as unknown as { connected: boolean }).connected = false;
      expect((await fetch(`${base}/ready`)).status).toBe(503);
      expect(await (await fetch(`${base}/started`)).json()).toEqual({ status: "started" });
    } finally {
      server.close();
      await broker.stop();
    }
  });

  test("/ready is 503 while the transporter is disconnected", async () => {
    const { cfg, broker } = setup("orgs");
    const server = await startHealthServer(broker, { ...cfg, healthPort: 0 }, () => false);
    const base = `http://127.0.0.1:${portOf(server)}`;
    try {
      await broker.start();
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      (broker.transit as unknown as { connected: boolean }).connected = false;
      const res = await fetch(`${base}/ready`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ transporter: "disconnected" });
    } finally {
      server.close();
      await broker.stop();
    }
  });

  test("other paths answer 404 and other methods 405", async () => {
    const { cfg, broker } = setup("orgs");
    const server = await startHealthServer(broker, { ...cfg, healthPort: 0 }, () => false);
    const base = `http://127.0.0.1:${portOf(server)}`;
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      expect((await fetch(`${base}/health`, { method: "POST" })).status).toBe(405);
    } finally {
      server.close();
    }
  });
});
