import { readFileSync } from "node:fs";
import { ownApiDocument, openApiPath, OWN_OPERATIONS, type OpenApiDocument } from "./own-api";
import { V1_ROUTES } from "./routes";

const gitbook = JSON.parse(readFileSync(require.resolve("@gitbook/api/spec/openapi.json"), "utf8")) as OpenApiDocument;
const document = ownApiDocument(gitbook, V1_ROUTES, "1.2.3");

test("every /v1 route is described once, under its method, GitBook's own operation where GitBook's document has it", () => {
  const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => key !== "parameters").map((method) => `${method} ${path}`));
  const shape = (text: string) => text.toLowerCase().replace(/\{[^}]+\}/g, "{}");
  expect(described.map(shape).sort()).toEqual(Object.keys(V1_ROUTES).filter((route) => !route.includes(" /_test/")).map((route) => shape(openApiPath(route))).sort());
  const getSpace = document.paths["/spaces/{spaceId}"].get as { operationId: string };
  expect(getSpace.operationId).toBe((gitbook.paths["/spaces/{spaceId}"].get as { operationId: string }).operationId);
  expect(document.info).toMatchObject({ title: "docshelf API", version: "1.2.3" });
});

test("OWN_OPERATIONS describes only routes the gateway has, and only those GitBook's document lacks", () => {
  for (const route of Object.keys(OWN_OPERATIONS)) expect(V1_ROUTES[route]).toBeDefined();
  const own = Object.values(document.paths).flatMap((item) => Object.values(item)).filter((op) => (op as { tags?: string[] }).tags?.includes("docshelf"));
  expect(own).toHaveLength(Object.keys(OWN_OPERATIONS).length);
});

test("every component the document references is in it (no dangling $ref), and only those", () => {
  const text = JSON.stringify(document);
  const refs = new Set([...text.matchAll(/"\$ref":"#\/components\/([^/]+)\/([^"]+)"/g)].map(([, kind, name]) => `${kind}/${name}`));
  for (const ref of refs) {
    const [kind, name] = ref.split("/");
    expect({ ref, present: document.components[kind]?.[name] !== undefined }).toEqual({ ref, present: true });
  }
  const schemas = Object.keys(document.components.schemas ?? {});
  expect(schemas.every((name) => refs.has(`schemas/${name}`))).toBe(true);
  expect(schemas.length).toBeLessThan(Object.keys(gitbook.components.schemas).length);
});

test("a route in neither GitBook's document nor OWN_OPERATIONS fails the build, naming the route", () => {
  expect(() => ownApiDocument(gitbook, { "GET /nowhere/:id": "x.y" }, "1")).toThrow("GET /nowhere/:id is in neither");
});
