import { ConfigError, loadConfig } from "@docshelf/config";
import { OPENAPI_DEFAULTS, openapiSettingsOf } from "./settings";

describe("openapiSettingsOf", () => {
  test("no variables give the documented defaults and no private target", () => {
    expect(openapiSettingsOf(loadConfig({}))).toEqual({ ...OPENAPI_DEFAULTS, allowedPrivateTargets: [] });
  });

  test("variables override the defaults; the sweep never runs less often than refresh", () => {
    const settings = openapiSettingsOf(
      loadConfig({
        OPENAPI_FETCH_TIMEOUT_MS: "500",
        OPENAPI_MAX_BYTES: "1024",
        OPENAPI_REFRESH_INTERVAL_MS: "1000",
        OPENAPI_FETCH_ALLOW_PRIVATE: "127.0.0.1:8081, [::1]:9000",
      }),
    );
    expect(settings).toEqual({ fetchTimeoutMs: 500, maxBytes: 1024, refreshIntervalMs: 1000, sweepIntervalMs: 1000, allowedPrivateTargets: ["127.0.0.1:8081", "[::1]:9000"] });
  });

  test.each([
    ["OPENAPI_FETCH_TIMEOUT_MS", "soon"],
    ["OPENAPI_MAX_BYTES", "-1"],
    ["OPENAPI_REFRESH_INTERVAL_MS", "1.5"],
    ["OPENAPI_FETCH_ALLOW_PRIVATE", "localhost:80"],
    ["OPENAPI_FETCH_ALLOW_PRIVATE", "127.0.0.1"],
  ])("a bad %s (%s) stops start-up naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
