import type { IncomingMessage } from "node:http";
import { trustedProxies } from "../client-address";
import { appPages, parseMultipart, requestIsSecure } from "./app";

function request(url: string, headers: Record<string, string> = {}, remoteAddress = "10.0.0.5", method = "GET"): IncomingMessage {
  return { url, method, headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

describe("the app's requests at the gateway", () => {
  const trusted = trustedProxies(["10.0.0.0/8"]);

  test("https only when PUBLIC_URL is https, or a trusted proxy says so", () => {
    expect(requestIsSecure(request("/app"), true, trusted)).toBe(true);
    expect(requestIsSecure(request("/app"), false, trusted)).toBe(false);
    expect(requestIsSecure(request("/app", { "x-forwarded-proto": "https" }), false, trusted)).toBe(true);
    expect(requestIsSecure(request("/app", { "x-forwarded-proto": "https" }, "203.0.113.9"), false, trusted)).toBe(false);
    expect(requestIsSecure(request("/app", { "x-forwarded-proto": "http" }), false, trusted)).toBe(false);
  });

  test("the app takes GET, HEAD and POST under /app, /o and /s, and nothing else", () => {
    const app = appPages("http://localhost:8080", trusted, 1000);
    for (const url of ["/app", "/app/sign-in?return=/o/x", "/o/abc", "/s/abc/guide", "/s"]) expect(app.matches(request(url))).toBe(true);
    expect(app.matches(request("/app/sign-in", {}, "10.0.0.5", "POST"))).toBe(true);
    for (const url of ["/v1/orgs", "/sites/docs", "/", "/apps", "/other/o/x", "/sso/saml/x/acs"]) expect(app.matches(request(url))).toBe(false);
    expect(app.matches(request("/o/abc", {}, "10.0.0.5", "DELETE"))).toBe(false);
  });
});

describe("multipart forms of the app (uploads)", () => {
  const part = (headers: string, content: string | Buffer) => Buffer.concat([Buffer.from(`--B\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n")]);

  test("text fields and the first non-empty file, its bytes intact", () => {
    const bytes = Buffer.from([0, 1, 2, 0x0d, 0x0a, 0x2d, 0x2d, 255]);
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="_csrf"', "tok"),
      part('Content-Disposition: form-data; name="empty"; filename=""\r\nContent-Type: application/octet-stream', ""),
      part('Content-Disposition: form-data; name="file"; filename="a b.png"\r\nContent-Type: image/png', bytes),
      part('Content-Disposition: form-data; name="second"; filename="c.txt"', "no"),
      Buffer.from("--B--\r\n"),
    ]);
    expect(parseMultipart(body, "B")).toEqual({ form: { _csrf: "tok" }, upload: { field: "file", name: "a b.png", contentType: "image/png", base64: bytes.toString("base64"), size: bytes.length } });
  });

  test("a body without the boundary, or cut short, is 400", () => {
    expect(parseMultipart(Buffer.from("hello"), "B")).toBe(400);
    expect(parseMultipart(Buffer.from('--B\r\nContent-Disposition: form-data; name="x"\r\n\r\nno end'), "B")).toBe(400);
  });
});
