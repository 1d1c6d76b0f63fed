import { acceptsMarkdown } from "./site";
import { loopbackOrigin } from "./index";

test.each([
  ["text/markdown", true],
  ["text/markdown, text/html;q=0.9", true],
  ["text/html, text/markdown;q=0.5", false],
  ["text/html,application/xhtml+xml,*/*;q=0.8", false],
  ["text/markdown;q=0", false],
  ["*/*", false],
  [undefined, false],
])("Accept %s asks for Markdown: %s", (accept, expected) => {
  expect(acceptsMarkdown(accept)).toBe(expected);
});

test("the loopback origin of the gateway's own server", () => {
  expect(loopbackOrigin({ address: "0.0.0.0", family: "IPv4", port: 8080 }, 1)).toBe("http://127.0.0.1:8080");
  expect(loopbackOrigin({ address: "::", family: "IPv6", port: 8080 }, 1)).toBe("http://127.0.0.1:8080");
  expect(loopbackOrigin({ address: "::1", family: "IPv6", port: 81 }, 1)).toBe("http://[::1]:81");
  expect(loopbackOrigin({ address: "10.0.0.2", family: "IPv4", port: 81 }, 1)).toBe("http://10.0.0.2:81");
  expect(loopbackOrigin(null, 3000)).toBe("http://127.0.0.1:3000");
});
