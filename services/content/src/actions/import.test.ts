import { isPublicAddress } from "@docshelf/safe-fetch";
import { addressPolicyFor, ImportSettingsError, MAX_IMPORT_PAGES, readImportSettings } from "./import";

describe("import settings", () => {
  test("defaults: 50 pages, 20 MB, 60 s capped at 80 % of the request timeout, no private targets", () => {
    expect(readImportSettings({}, 10_000)).toEqual({ maxPages: 50, maxBytesTotal: 20 * 1024 * 1024, timeoutMs: 8000, allowedPrivateTargets: [] });
    expect(readImportSettings({}, 600_000).timeoutMs).toBe(60_000);
  });

  test("reads every variable", () => {
    const env = { CONTENT_IMPORT_MAX_PAGES: "7", CONTENT_IMPORT_MAX_BYTES: "1000", CONTENT_IMPORT_TIMEOUT_MS: "1500", CONTENT_IMPORT_ALLOW_PRIVATE: "127.0.0.1:8081, [::1]:9000" };
    expect(readImportSettings(env, 10_000)).toEqual({ maxPages: 7, maxBytesTotal: 1000, timeoutMs: 1500, allowedPrivateTargets: ["127.0.0.1:8081", "[::1]:9000"] });
  });

  test.each([
    ["CONTENT_IMPORT_MAX_PAGES", "0"],
    ["CONTENT_IMPORT_MAX_PAGES", String(MAX_IMPORT_PAGES + 1)],
    ["CONTENT_IMPORT_MAX_BYTES", "lots"],
    ["CONTENT_IMPORT_TIMEOUT_MS", "-5"],
    ["CONTENT_IMPORT_ALLOW_PRIVATE", "localhost:80"],
    ["CONTENT_IMPORT_ALLOW_PRIVATE", "127.0.0.1"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => readImportSettings({ [name]: value }, 10_000)).toThrow(ImportSettingsError);
    expect(() => readImportSettings({ [name]: value }, 10_000)).toThrow(name);
  });
});

describe("address policy", () => {
  test("without an allowance it is safe-fetch's public-only policy", () => {
    expect(addressPolicyFor(new URL("http://127.0.0.1:8081/"), [])).toBe(isPublicAddress);
  });

  test("an allowance admits exactly its address and port", () => {
    const allowed = ["127.0.0.1:8081"];
    expect(addressPolicyFor(new URL("http://127.0.0.1:8081/"), allowed)("127.0.0.1")).toBe(true);
    expect(addressPolicyFor(new URL("http://127.0.0.1:8082/"), allowed)("127.0.0.1")).toBe(false);
    expect(addressPolicyFor(new URL("http://127.0.0.1:8081/"), allowed)("127.0.0.2")).toBe(false);
    expect(addressPolicyFor(new URL("http://127.0.0.1/"), allowed)("127.0.0.1")).toBe(false);
    expect(addressPolicyFor(new URL("http://127.0.0.1:8081/"), allowed)("8.8.8.8")).toBe(true);
  });
});
