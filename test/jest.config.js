// End-to-end suites: the HTTP API with every service running, in one process and over NATS.
// With E2E_MONGO_URL (npm test's second end-to-end run) every suite that starts a NATS system runs again,
// over NATS only, with every collection in MongoDB (FerretDB in CI); the suites below never start one.
const EMBEDDED_ONLY = [
  "cross-node", // brokers inside the test process on the Fake/NATS transporter, no store of interest
  "deploy", // parses manifests
  "git-sync-restart", // one in-process broker restarted on the same DATA_DIR
  "sweep-authz", // compares the embedded store's files before and after each request
  "sweep-bad-input", // likewise
];

module.exports = {
  ...require("../jest.preset.js"),
  testTimeout: 60000,
  globalSetup: "<rootDir>/nats-check.js",
  ...(process.env.E2E_MONGO_URL
    ? { testPathIgnorePatterns: ["/node_modules/", "/dist/", ...EMBEDDED_ONLY.map((name) => `/src/${name}\\.test\\.ts$`)] }
    : {}),
};
