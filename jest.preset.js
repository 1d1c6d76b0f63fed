// Shared jest settings: TypeScript through swc (type checking is the typecheck task's job).
const path = require("node:path");

// openid-client (identity's OpenID Connect sign-in) and the packages it imports ship ES modules only, which
// Node 22 loads with require() but jest's module system does not: they are compiled to CommonJS like our
// TypeScript, in every workspace whose tests load identity (its own, the end-to-end systems in the test process).
const ESM_ONLY = ["openid-client", "oauth4webapi", "jose"];

module.exports = {
  testEnvironment: "node",
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join("|")})/)`],
  // Two workspaces' suites run at once on a shared machine (scripts/test.sh): jest's 5 s default fails tests
  // that are only slow there (PDF rendering, broker starts). Speed is measured in bench/, not by timeouts.
  testTimeout: 30_000,
  transform: {
    "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2022" } }],
    [`/node_modules/(${ESM_ONLY.join("|")})/.+\\.js$`]: ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }],
  },
  testMatch: ["<rootDir>/src/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/"],
  reporters: ["default", path.join(__dirname, "scripts/summary-reporter.js")],
};
