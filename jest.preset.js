// Shared jest settings: TypeScript through swc (type checking is the typecheck task's job).
const path = require("node:path");

module.exports = {
  testEnvironment: "node",
  // Two workspaces' suites run at once on a shared machine (scripts/test.sh): jest's 5 s default fails tests
  // that are only slow there (PDF rendering, broker starts). Speed is measured in bench/, not by timeouts.
  testTimeout: 30_000,
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2022" } }] },
  testMatch: ["<rootDir>/src/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/"],
  reporters: ["default", path.join(__dirname, "scripts/summary-reporter.js")],
};
