// Test helpers shared by every suite.
export * from "./http";
export * from "./schema";
export * from "./system";
export * from "./factories";
export * from "./probe";
