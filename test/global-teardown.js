// Stops the systems global-setup.js started for the whole run.
module.exports = async function globalTeardown() {
  const systems = globalThis.__DOCSHELF_SHARED_SYSTEMS__ ?? [];
  await Promise.all(systems.map((system) => system.stop().catch((err) => process.stderr.write(`could not stop a shared ${system.mode} system: ${err}\n`))));
};
