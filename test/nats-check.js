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
    if (process.env.REQUIRE_NATS === "1" || process.env.E2E_MONGO_URL) throw new Error(`${message} ${process.env.E2E_MONGO_URL ? "E2E_MONGO_URL" : "REQUIRE_NATS=1"} makes this a failure.`);
  }
  // MongoDB under the NATS systems is only asked for explicitly: a server that does not answer fails the run.
  const mongoUrl = process.env.E2E_MONGO_URL;
  if (mongoUrl) {
    const { MongoClient } = require("mongoose").mongo;
    const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
    try {
      const info = await client.db().admin().command({ buildInfo: 1 });
      const server = typeof info.ferretdbVersion === "string" ? `FerretDB ${info.ferretdbVersion}` : `MongoDB ${info.version}`;
      process.stderr.write(`\nend-to-end over NATS with every collection on ${server} (E2E_MONGO_URL); one process per service\n`);
    } finally {
      await client.close();
    }
  }
};
