// End-to-end suites: the HTTP API with every service running, in one process on the embedded store, and over
// NATS (one process per service) on the MongoDB-wire server E2E_MONGO_URL names when it is set (FerretDB in CI),
// on the embedded store otherwise. One run covers both shapes the project ships.

// Replicas of a service share data only in MongoDB: these run only with E2E_MONGO_URL.
const MONGO_ONLY = [
  "scale-kill", // two content replicas, one killed under load
];
// Suites whose subject is a time budget, a rate or an outage: they start private systems, stop and kill processes or
// NATS servers, and count time, so another suite's load beside them would make their bounds flaky. npm test runs
// them alone, one after another (E2E_GROUP=alone), after the other suites have run two at a time (E2E_GROUP=shared).
const ALONE = [
  "fault",
  "nats-cluster-kill", // a node's recovery within 10 s
  "hardening", // request timeouts and slow clients
  "sites-rate-limit",
  "ai-rate-limit",
  "resource-import", // another tenant's reads timed during an attack
  "resource-markdown",
  "resource-openapi",
  "fuzz-inputs", // generated pathological inputs while another tenant's reads are timed
  "tenancy-diff",
];
// Suites that start private systems (their own NATS, data directories, settings) but count no time: they run two
// at a time with the shared ones, since they mostly wait for processes to start and stop. `npm run test:quick`
// (E2E_ONLY=embedded) leaves them out, as it leaves out the suites run alone.
const PRIVATE = [
  "running", // npm start, signals, a second instance
  "nats-auth",
  "purge-replay",
  "git-sync-restart",
  "git-sync-merge-durable",
  "hardening-nats",
  "sites-edge-cache", // private systems with metrics on; over NATS, two gateways
  "isolation-gateway",
  "editor-collab-browser", // over NATS, a private system with two gateway processes
  "deploy-observability",
  "store-upgrade", // servers started on copies of an old DATA_DIR
  "store-backup", // a server backed up while it writes, restored into a fresh DATA_DIR
  // Kills and outages whose checks count no time (no acknowledged write lost, no GET failed, events delivered
  // within a generous patience): they ran alone until 2026-11-29, 144 s of the serial pass.
  "store-kill", // the server SIGKILLed during sustained writes, again and again
  "scale-kill", // two content replicas over MongoDB, one SIGKILLed under load
  "nats-cluster-events", // a NATS cluster node killed while events are in flight
  "resource-workers", // a private system with WORKER_TASK_TIMEOUT_MS at 100 ms: every job there fails by design
];

const ignore = (names) => names.map((name) => `/src/${name}\\.test\\.ts$`);
const only = (names) => [`/src/(?!(${names.join("|")})\\.test\\.ts$)[^/]+\\.test\\.ts$`];
const quick = process.env.E2E_ONLY === "embedded";
const group = process.env.E2E_GROUP === "alone" ? only(ALONE) : process.env.E2E_GROUP === "shared" ? ignore(quick ? [...ALONE, ...PRIVATE] : ALONE) : [];

module.exports = {
  ...require("../jest.preset.js"),
  testTimeout: 120000,
  setupFiles: ["<rootDir>/src/setup-fetch.ts"],
  globalSetup: "<rootDir>/global-setup.js",
  globalTeardown: "<rootDir>/global-teardown.js",
  testSequencer: "<rootDir>/sequencer.js",
  testPathIgnorePatterns: ["/node_modules/", "/dist/", ...(process.env.E2E_MONGO_URL ? [] : ignore(MONGO_ONLY)), ...group],
};
