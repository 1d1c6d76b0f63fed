// End-to-end suites: the HTTP API with every service running, in one process and over NATS.
module.exports = {
  ...require("../jest.preset.js"),
  testTimeout: 60000,
  globalSetup: "<rootDir>/nats-check.js",
};
