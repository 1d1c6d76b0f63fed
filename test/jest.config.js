// End-to-end suites: the HTTP API with every service running, in one process and over NATS.
// With E2E_MONGO_URL (npm test's second end-to-end run) every suite that starts a NATS system runs again,
// over NATS only, with every collection in MongoDB (FerretDB in CI); the suites below never start one.
const EMBEDDED_ONLY = [
  "cross-node", // brokers inside the test process on the Fake/NATS transporter, no store of interest
  "deploy", // parses manifests
  "deploy-helm", // renders the Helm chart
  "image", // assembles the release filesystem and starts one embedded server from it
  "git-sync-restart", // one in-process broker restarted on the same DATA_DIR
  "render-fixtures", // renders files, starts no system
  "sweep-authz", // compares the embedded store's files before and after each request
  "sweep-bad-input", // likewise
];

// Suites about the NATS transport itself or about what a browser shows: the store under them is not their
// subject, and the first run covers them over NATS. Left out of the MongoDB run, which CI's hour cannot afford
// twice (about 3.5 minutes).
const NOT_ON_MONGO = [
  "fault", // NATS stopped and restarted, a process killed
  "nats-cluster-kill", // a node of a NATS cluster killed
  "nats-auth", // NATS credentials and permissions
  "app-browser", // the web app in Chromium
  "sites-browser", // published sites in Chromium
  "render-browser", // every rendered block in Chromium
  "signin-browser", // identity's sign-in pages in Chromium
];

// Replicas of a service share data only in MongoDB: these run in the MongoDB run alone.
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
  "isolation-gateway",
  "deploy-observability",
  "ai-rate-limit",
  "resource-import", // another tenant's reads timed during an attack
  "resource-markdown",
  "resource-openapi",
  "tenancy-diff",
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
  testPathIgnorePatterns: ["/node_modules/", "/dist/", ...(process.env.E2E_MONGO_URL ? ignore([...EMBEDDED_ONLY, ...NOT_ON_MONGO]) : ignore(MONGO_ONLY)), ...group],
};
