// Shared jest settings: TypeScript through swc (type checking is the typecheck task's job).
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2022" } }] },
  testMatch: ["<rootDir>/src/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/"],
};
