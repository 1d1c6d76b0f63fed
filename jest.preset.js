// Shared jest settings: TypeScript through swc (type checking is the typecheck task's job).
const path = require("node:path");

module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2022" } }] },
  testMatch: ["<rootDir>/src/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/"],
  reporters: ["default", path.join(__dirname, "scripts/summary-reporter.js")],
};
