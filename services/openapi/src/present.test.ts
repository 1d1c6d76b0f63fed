// A spec's source URL as readers see it.
import { withoutCredentials } from "./present";

describe("withoutCredentials", () => {
  test("drops user and password, keeps the rest", () => {
    expect(withoutCredentials("https://user:pa55@specs.example.com:8443/a/spec.json?v=1#x")).toBe("https://specs.example.com:8443/a/spec.json?v=1#x");
    expect(withoutCredentials("https://token@specs.example.com/spec.json")).toBe("https://specs.example.com/spec.json");
    expect(withoutCredentials("https://:secret@specs.example.com/spec.json")).toBe("https://specs.example.com/spec.json");
  });

  test("a URL without credentials is returned as it was", () => {
    for (const url of ["https://specs.example.com/spec.json", "http://127.0.0.1:8080/x?a=b@c"]) expect(withoutCredentials(url)).toBe(url);
  });
});
