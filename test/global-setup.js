// Once per run of the end-to-end suites: decides whether NATS is there (nats-check.js), then starts one system
// per process mode that every suite shares (testkit's sharedSystem), each suite in organizations and users of
// its own. Suites whose subject is a process's life, settings or store files start private systems.
const natsCheck = require("./nats-check");

module.exports = async function globalSetup() {
  // E2E_ONLY=embedded (`npm run test:quick`): the one-process mode alone, NATS not even looked for.
  if (process.env.E2E_ONLY === "embedded" && !process.env.E2E_MONGO_URL) process.env.E2E_NATS = "0";
  else await natsCheck();
  // The suites run alone (E2E_GROUP=alone, jest.config.js) start systems of their own.
  if (process.env.E2E_GROUP === "alone") return;
  const { startEmbedded, startNats, describeShared, SHARED_SYSTEM_ENV, SHARED_SYSTEM_ENV_VALUES } = require("@docshelf/testkit");
  const sharedPorts = require("./shared-ports");
  // Loopback ports the suites' Git and spec servers listen on (src/shared-ports.ts), which the shared systems may reach.
  const ports = await sharedPorts.reserveSharedPorts(8);
  process.env[sharedPorts.ENV] = ports.join(",");
  const env = { ...SHARED_SYSTEM_ENV_VALUES, ...sharedPorts.sharedPortsEnv(ports) };
  // Over NATS on E2E_MONGO_URL's server when it is set (testkit's startNats), on the embedded store otherwise.
  const modes = process.env.E2E_NATS === "1" ? ["embedded", "nats"] : ["embedded"];
  const started = [];
  globalThis.__DOCSHELF_SHARED_SYSTEMS__ = started;
  const began = Date.now();
  const starts = await Promise.allSettled(
    modes.map(async (mode) => {
      const system = mode === "embedded" ? await startEmbedded(env) : await startNats({ env });
      started.push(system);
      process.env[SHARED_SYSTEM_ENV[mode]] = describeShared(system);
    }),
  );
  const failed = starts.find((result) => result.status === "rejected");
  if (failed) {
    // Jest runs no teardown after a failed setup: stop what did start, then fail the run.
    await Promise.all(started.map((system) => system.stop().catch(() => undefined)));
    throw failed.reason;
  }
  process.stderr.write(`\nshared systems (${modes.join(", ")}) started in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
};
