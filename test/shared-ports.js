// Loopback ports the run's shared systems may reach although they are private: global-setup.js picks them (below the
// kernel's ephemeral range, so no `listen(0)` and no outgoing connection is ever given one) and starts the shared
// systems with GIT_SYNC_ALLOW_PRIVATE and OPENAPI_FETCH_ALLOW_PRIVATE naming them. A suite that serves a Git
// repository or a spec to a shared system listens on one of them (src/shared-ports.ts), instead of starting a
// system of its own only to allow its server's port.
const { createServer } = require("node:net");

const ENV = "DOCSHELF_SHARED_LOOPBACK_PORTS";

function free(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** `count` free loopback ports between 20000 and 32000. */
async function reserveSharedPorts(count) {
  const ports = [];
  for (let tries = 0; ports.length < count && tries < 1000; tries += 1) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (!ports.includes(port) && (await free(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`found only ${ports.length} free loopback ports of ${count}`);
  return ports;
}

/** The shared systems' settings that let them reach `ports` on 127.0.0.1. */
function sharedPortsEnv(ports) {
  const targets = ports.map((port) => `127.0.0.1:${port}`).join(",");
  // The Git sync suites' jobs that wait are woken every half second, as in the systems they used to start.
  return { GIT_SYNC_ALLOW_PRIVATE: targets, OPENAPI_FETCH_ALLOW_PRIVATE: targets, GIT_SYNC_SWEEP_INTERVAL_MS: "500" };
}

module.exports = { ENV, reserveSharedPorts, sharedPortsEnv };
