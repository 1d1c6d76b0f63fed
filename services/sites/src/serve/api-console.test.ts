// The "Test it" console page's rules, without a broker: the query it takes, the servers its CSP allows, the
// link a page's API block carries, and the spec as inert data.
import { renderMarkdown } from "@docshelf/document";
import { consoleCsp, consoleHref, consoleHtml, consoleRequest, hasOperation, pageLinksConsole, serverOrigins, withSpecLocation } from "./api-console";

const spec = {
  openapi: "3.0.3",
  servers: [{ url: "https://api.example.com/v1" }, { url: "http://127.0.0.1:4010" }, { url: "/relative" }, { url: "https://{region}.example.com", variables: { region: { default: "eu" } } }],
  paths: { "/pets": { get: { summary: "List", servers: [{ url: "https://pets.example.com" }] } } },
};

describe("the API console", () => {
  test("consoleRequest takes a spec slug, an HTTP method and a path, else names the field", () => {
    expect(consoleRequest({ spec: "pets", method: "GET", path: "/pets" })).toEqual({ spec: "pets", method: "get", path: "/pets" });
    expect(consoleRequest({ spec: "../x", method: "get", path: "/pets" })).toEqual({ field: "spec" });
    expect(consoleRequest({ spec: "pets", method: "connect", path: "/pets" })).toEqual({ field: "method" });
    expect(consoleRequest({ spec: "pets", method: "get", path: "pets" })).toEqual({ field: "path" });
    expect(consoleRequest({ spec: "pets", method: "get", path: `/${"x".repeat(2048)}` })).toEqual({ field: "path" });
  });

  test("the CSP lets the browser reach the spec's servers (variables at their defaults), never relative ones, and allows no script but the site's", () => {
    const origins = serverOrigins(spec, "get", "/pets");
    expect(origins).toEqual(["https://api.example.com", "http://127.0.0.1:4010", "https://eu.example.com", "https://pets.example.com"]);
    const csp = consoleCsp(origins);
    expect(csp).toContain("connect-src 'self' https://api.example.com http://127.0.0.1:4010 https://eu.example.com https://pets.example.com");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain("unsafe-eval");
    expect(serverOrigins({ servers: [{ url: "https://a.example.com; script-src *" }] }, "get", "/")).toEqual([]);
  });

  test("hasOperation finds only the document's own operations", () => {
    expect(hasOperation(spec, "get", "/pets")).toBe(true);
    expect(hasOperation(spec, "post", "/pets")).toBe(false);
    expect(hasOperation(spec, "get", "/secret")).toBe(false);
    expect(hasOperation(spec, "get", "__proto__")).toBe(false);
  });

  test("a page's API block of a hosted spec links to its console, and the page is known to name that operation", () => {
    const href = consoleHref("/sites/docs/pets", { spec: "pets", method: "GET", path: "/pets/{id}" });
    expect(href).toBe("/sites/docs/pets/~api-console?spec=pets&method=get&path=%2Fpets%2F%7Bid%7D");
    const { html } = renderMarkdown('{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}\n[OpenAPI pets](https://example.com/pets.json)\n{% endopenapi-operation %}\n', {
      apiConsoleHref: (operation) => consoleHref("/sites/docs/pets", operation),
    });
    expect(pageLinksConsole(html, href)).toBe(true);
    expect(pageLinksConsole(html, consoleHref("/sites/docs/pets", { spec: "other", method: "get", path: "/pets/{id}" }))).toBe(false);
    expect(pageLinksConsole(renderMarkdown("No block.\n").html, href)).toBe(false);
    // A block that names its spec by URL only has no console link (only hosted specs have one).
    expect(renderMarkdown('{% openapi src="https://example.com/o.json" path="/pets" method="get" %}\n{% endopenapi %}\n', { apiConsoleHref: () => "/x" }).html).not.toContain("api-try");
  });

  test("the spec travels as a JSON data block that no text in it can close", () => {
    const html = consoleHtml({
      siteTitle: "Docs <b>",
      base: "/sites/docs",
      backHref: "/sites/docs/pets",
      request: { spec: "pets", method: "get", path: "/pets" },
      document: { info: { description: "</script><script>alert(1)</script><!--" } },
      assets: { js: "console-A.js", css: "console-B.css" },
    });
    const data = /<script type="application\/json" id="api-console-data">([\s\S]*?)<\/script>/.exec(html)![1];
    expect(data).not.toContain("<");
    expect(JSON.parse(data).document.info.description).toBe("</script><script>alert(1)</script><!--");
    expect(html).toContain("Docs &#60;b&#62;");
    expect(html.match(/<script/g)).toHaveLength(2);
  });
  test("a spec fetched from a URL: relative servers (and the default `/`) resolve against it; absolute ones and a text spec are left as they are", () => {
    const located = withSpecLocation(spec, "https://docs.example.com/specs/pets.json");
    expect(located.servers).toEqual([{ url: "https://api.example.com/v1" }, { url: "http://127.0.0.1:4010" }, { url: "https://docs.example.com/relative" }, spec.servers[3]]);
    expect(serverOrigins(located, "get", "/pets")).toContain("https://docs.example.com");
    expect(withSpecLocation({ openapi: "3.1.0", paths: {} }, "https://docs.example.com/a/b.json").servers).toEqual([{ url: "https://docs.example.com" }]);
    const relativeOp = withSpecLocation({ openapi: "3.0.3", servers: [{ url: "v2" }], paths: { "/x": { servers: [{ url: "../p" }], get: { servers: [{ url: "./o" }] } } } }, "https://h.example.com/a/b/spec.yaml");
    expect(relativeOp.servers).toEqual([{ url: "https://h.example.com/a/b/v2" }]);
    expect((relativeOp.paths as any)["/x"].servers).toEqual([{ url: "https://h.example.com/a/p" }]);
    expect((relativeOp.paths as any)["/x"].get.servers).toEqual([{ url: "https://h.example.com/a/b/o" }]);
    expect(withSpecLocation(spec, undefined)).toBe(spec);
    expect(withSpecLocation(spec, "file:///etc/passwd")).toBe(spec);
    // Swagger 2.0: a document without `host` is served by the host it came from; the CSP allows schemes × host.
    const swagger = withSpecLocation({ swagger: "2.0", basePath: "/v1", paths: {} }, "http://127.0.0.1:8080/swagger.json");
    expect(swagger).toMatchObject({ host: "127.0.0.1:8080", schemes: ["http"] });
    expect(serverOrigins(swagger, "get", "/x")).toEqual(["http://127.0.0.1:8080"]);
    expect(serverOrigins({ swagger: "2.0", host: "api.example.com", schemes: ["https", "ws"] }, "get", "/x")).toEqual(["https://api.example.com"]);
  });

  test("a page's API block naming its spec by a registered URL links to that spec's console; an unknown URL has no console", () => {
    const markdown = '{% openapi src="https://docs.example.com/pets.json" path="/pets" method="get" %}\n{% endopenapi %}\n';
    const options = {
      apiConsoleHref: (op: { spec: string; method: string; path: string }) => consoleHref("/docs/api", op),
      apiSpecOfSource: (src: string) => (src === "https://docs.example.com/pets.json" ? "pets" : undefined),
    };
    expect(renderMarkdown(markdown, options).html).toContain(`href="${consoleHref("/docs/api", { spec: "pets", method: "get", path: "/pets" }).replace(/&/g, "&amp;")}"`);
    expect(renderMarkdown(markdown.replace("pets.json", "other.json"), options).html).not.toContain("api-try");
  });
});
