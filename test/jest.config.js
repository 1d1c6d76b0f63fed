// End-to-end suites: the HTTP API with every service running, in one process on the embedded store, and over
// NATS (one process per service) on the MongoDB-wire server E2E_MONGO_URL names when it is set (FerretDB in CI),
// on the embedded store otherwise. One run covers both shapes the project ships.

// Replicas of a service share data only in MongoDB: these run only with E2E_MONGO_URL.
const MONGO_ONLY = [
  "scale-kill", // two content replicas, one killed under load
];
// Suites whose subject is a process's life, a time budget or a rate: they start private systems, stop and kill
// processes or NATS servers, and count time. npm test runs them alone, one after another (E2E_GROUP=alone), after
// the other suites have run two at a time on the shared systems (E2E_GROUP=shared).
const ALONE = [
  "fault",
  "running",
  "nats-cluster-events",
  "nats-cluster-kill",
  "nats-auth",
  "purge-replay",
  "scale-kill",
  "git-sync-restart",
  "git-sync-merge-durable",
  "hardening",
  "hardening-nats",
  "sites-rate-limit",
  "sites-edge-cache", // private systems with metrics on; over NATS, two gateways
  "isolation-gateway",
  "deploy-observability",
  "ai-rate-limit",
  "resource-import", // another tenant's reads timed during an attack
  "resource-markdown",
  "resource-openapi",
  "resource-workers", // a private system with WORKER_TASK_TIMEOUT_MS at 100 ms
  "tenancy-diff",
  "store-kill", // the server SIGKILLed during sustained writes, again and again
  "store-upgrade", // servers started on copies of an old DATA_DIR
  "store-backup", // a server backed up while it writes, restored into a fresh DATA_DIR
];

const ignore = (names) => names.map((name) => `/src/${name}\\.test\\.ts$`);
const only = (names) => [`/src/(?!(${names.join("|")})\\.test\\.ts$)[^/]+\\.test\\.ts$`];
const group = process.env.E2E_GROUP === "alone" ? only(ALONE) : process.env.E2E_GROUP === "shared" ? ignore(ALONE) : [];

module.exports = {
  ...require("../jest.preset.js"),
  testTimeout: 120000,
  setupFiles: ["<rootDir>/src/setup-fetch.ts"],
  globalSetup: "<rootDir>/global-setup.js",
  globalTeardown: "<rootDir>/global-teardown.js",
  testPathIgnorePatterns: ["/node_modules/", "/dist/", ...(process.env.E2E_MONGO_URL ? [] : ignore(MONGO_ONLY)), ...group],
};
