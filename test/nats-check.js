// Decides once per run whether the multi-process suites can run, and says so loudly when they cannot.
const { Socket } = require("node:net");

function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(1500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (chunk) => done(chunk.toString().startsWith("INFO")));
    socket.connect(Number(port) || 4222, hostname);
  });
}

module.exports = async function natsCheck() {
  const url = process.env.NATS_URL || "nats://127.0.0.1:4222";
  const ok = await reachable(url);
  process.env.E2E_NATS = ok ? "1" : "0";
  if (!ok) {
    const banner = "!".repeat(78);
    const message = `NATS is not reachable at ${url}: the multi-process (NATS) end-to-end suites DID NOT RUN.`;
    process.stderr.write(`\n${banner}\n${message}\n${banner}\n\n`);
    if (process.env.REQUIRE_NATS === "1") throw new Error(`${message} REQUIRE_NATS=1 makes this a failure.`);
  }
};
