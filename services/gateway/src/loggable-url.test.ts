// What of a request URL the per-request log lines may carry.
import { loggableUrl } from "./loggable-url";

describe("loggableUrl", () => {
  test("keeps paths and harmless parameters", () => {
    expect(loggableUrl("/v1/orgs/abc/spaces?limit=5&page=x")).toBe("/v1/orgs/abc/spaces?limit=5&page=x");
    expect(loggableUrl("/sites/docs/guide")).toBe("/sites/docs/guide");
    expect(loggableUrl(undefined)).toBe("");
  });

  test("redacts every secret query parameter, however it is spelled", () => {
    const secrets = ["share", "shareKey", "jwt_token", "token", "ticket", "link", "access_token", "SAMLResponse", "RelayState", "api%5Fkey", "password", "code", "signature"];
    for (const name of secrets) {
      const out = loggableUrl(`/x?limit=1&${name}=s3cr3t-value&page=2`);
      expect(out).not.toContain("s3cr3t-value");
      expect(out).toBe(`/x?limit=1&${name}=[redacted]&page=2`);
    }
  });

  test("redacts capability tokens in file-download and change-request PDF paths", () => {
    expect(loggableUrl("/v1/files/eyJhbGc.payload.sig?x=1")).toBe("/v1/files/[redacted]?x=1");
    expect(loggableUrl("/v1/spaces/s1/change-requests/c1/pdf/tok.en")).toBe("/v1/spaces/s1/change-requests/c1/pdf/[redacted]");
    expect(loggableUrl("/v1/spaces/s1/change-requests/c1")).toBe("/v1/spaces/s1/change-requests/c1");
  });
});
