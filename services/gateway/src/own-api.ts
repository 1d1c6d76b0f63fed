// docshelf's own API description (`GET /v1/openapi.json`), made at build time (scripts/build-openapi.js)
// from the route table: every GitBook operation the gateway routes, as GitBook's OpenAPI document of the
// interface's era (@gitbook/api 0.143.2) describes it, with the components it uses; and the operations
// that document lacks (docshelf's own, and a few GitBook added later), described here.

/** The part of an OpenAPI 3.0 document this reads and writes. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string; description?: string }>;
  security?: Array<Record<string, string[]>>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** `/spaces/:spaceId/content/path/*pagePath` as OpenAPI writes it: `/spaces/{spaceId}/content/path/{pagePath}`. */
export function openApiPath(route: string): string {
  return route.replace(/[:*]([A-Za-z0-9_]+)/g, "{$1}");
}

const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|[:*][A-Za-z0-9_]+/g, "{}")}`;

/** An operation the GitBook document of the interface's era lacks: what it does, and what it takes. */
interface OwnOperation {
  summary: string;
  /** A JSON request body (an object; its fields are in the README and docs/). */
  body?: boolean;
  /** The success status; 200 when unset. */
  status?: number;
}

/**
 * The routes GitBook's document of the interface's era does not describe. A test keeps this in step with the
 * route table: a new route without a GitBook operation must be described here.
 */
export const OWN_OPERATIONS: Record<string, OwnOperation> = {
  "POST /users": { summary: "Create a user (instance administrators only); answers the user and an API token, shown once.", body: true, status: 201 },
  "POST /users/:userId/tokens": { summary: "Create an API token for a user (the user or an instance administrator); the token is shown once.", body: true, status: 201 },
  "DELETE /users/:userId/tokens/:tokenId": { summary: "Revoke one of a user's API tokens.", status: 204 },
  "POST /orgs/:organizationId/saml/:samlProviderId/link": { summary: "Link a signed-in user's account to a SAML identity of the organization's provider.", body: true },
  "GET /orgs/:organizationId/domains": { summary: "List the organization's email domains and whether each is verified." },
  "POST /orgs/:organizationId/domains": { summary: "Claim an email domain; answers the DNS TXT record that proves it.", body: true, status: 201 },
  "GET /orgs/:organizationId/domains/:domain": { summary: "Read one claimed domain and its TXT record." },
  "DELETE /orgs/:organizationId/domains/:domain": { summary: "Release a claimed domain.", status: 204 },
  "POST /orgs/:organizationId/domains/:domain/verify": { summary: "Check the domain's DNS TXT record now; verified when it is there." },
  "POST /orgs/:organizationId/domains/:domain/approve": { summary: "Mark a domain verified without DNS (instance administrators only)." },
  "GET /orgs/:organizationId/invites": { summary: "List the organization's pending invitations." },
  "DELETE /orgs/:organizationId/invites/:inviteId": { summary: "Withdraw a pending invitation.", status: 204 },
  "GET /user/invites": { summary: "List the invitations waiting for the signed-in user." },
  "GET /spaces/:spaceId/git/jobs/:jobId": { summary: "Read a Git sync job (import or export): its state and, when it failed, why." },
  "PUT /docshelf/user/password": { summary: "Set or change the signed-in user's password (the current one required when there is one).", body: true, status: 204 },
  "GET /docshelf/user/sessions": { summary: "List the signed-in user's app sessions (where and when each was opened)." },
  "DELETE /docshelf/user/sessions/:sessionId": { summary: "End one of the signed-in user's app sessions.", status: 204 },
  "GET /docshelf/user/tokens": { summary: "List the signed-in user's API tokens (never the tokens themselves)." },
  "GET /docshelf/orgs/:organizationId/oidc": { summary: "List the organization's OpenID Connect providers (client secrets never shown)." },
  "POST /docshelf/orgs/:organizationId/oidc": { summary: "Add an OpenID Connect provider for the organization's sign-in.", body: true, status: 201 },
  "GET /docshelf/orgs/:organizationId/oidc/:oidcProviderId": { summary: "Read one OpenID Connect provider." },
  "DELETE /docshelf/orgs/:organizationId/oidc/:oidcProviderId": { summary: "Remove an OpenID Connect provider.", status: 204 },
  "POST /docshelf/orgs/:organizationId/oidc/:oidcProviderId/link": { summary: "Link the signed-in user's account to an identity of the organization's OpenID Connect provider.", body: true },
  // GitBook's, newer than the interface's era (in @gitbook/api 0.202): described here in brief.
  "POST /orgs": { summary: "Create an organization; the caller becomes its administrator (GitBook's operation, newer than the interface's era).", body: true, status: 201 },
  "GET /org/:organizationId/imports": { summary: "List the organization's import runs (GitBook's operation, newer than the interface's era)." },
  "GET /org/:organizationId/imports/:importRunId": { summary: "Read an import run (GitBook's operation, newer than the interface's era)." },
  "PUT /orgs/:organizationId/sites/:siteId/redirects": { summary: "Create, update, delete or publish a site's redirects in bulk (GitBook's operation, newer than the interface's era).", body: true },
  "GET /spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId": { summary: "Read one review of a change request (GitBook's operation, newer than the interface's era)." },
  "POST /spaces/:spaceId/change-requests/:changeRequestId/content": { summary: "Apply a batch of content changes to a change request (GitBook's operation, newer than the interface's era).", body: true },
};

/** Every `#/components/...` reference in `value`, as [kind, name]. */
function refsOf(value: unknown, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(value)) for (const item of value) refsOf(item, out);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") {
        const match = /^#\/components\/([^/]+)\/(.+)$/.exec(inner);
        if (match) out.push([match[1], match[2]]);
      } else refsOf(inner, out);
    }
  }
  return out;
}

function ownOperation(route: string, own: OwnOperation): Record<string, unknown> {
  const [method, path] = route.split(" ");
  const parameters = [...path.matchAll(/[:*]([A-Za-z0-9_]+)/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  const status = String(own.status ?? 200);
  return {
    operationId: `docshelf_${method.toLowerCase()}${path.replace(/[:*]/g, "by_").replace(/[^A-Za-z0-9_]+/g, "_")}`,
    summary: own.summary,
    tags: ["docshelf"],
    ...(parameters.length ? { parameters } : {}),
    ...(own.body ? { requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } } } : {}),
    responses: {
      [status]: status === "204" ? { description: "Done." } : { description: "Done.", content: { "application/json": { schema: { type: "object" } } } },
      "400": { $ref: "#/components/responses/BadRequestError" },
      "401": { description: "No API token, or one that is not valid.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      "404": { $ref: "#/components/responses/NotFoundError" },
    },
  };
}

/**
 * The document for `routes` (the gateway's /v1 route table): GitBook's operations from `gitbook` (the
 * interface's era), each as GitBook describes it, with the components they reference (transitively), and
 * OWN_OPERATIONS for the rest. Throws when a route is in neither, so no route goes undescribed.
 */
export function ownApiDocument(gitbook: OpenApiDocument, routes: Record<string, string>, version: string): OpenApiDocument {
  const byShape = new Map<string, { path: string; method: string }>();
  for (const [path, item] of Object.entries(gitbook.paths)) for (const method of METHODS) if (item[method]) byShape.set(shape(method, path), { path, method });

  const paths: OpenApiDocument["paths"] = {};
  const wanted: Array<[string, string]> = [];
  const usedTags = new Set<string>();
  for (const route of Object.keys(routes)) {
    const [method, routePath] = route.split(" ");
    // The test suites' own routes (NODE_ENV=test only) are no part of the API.
    if (routePath.startsWith("/_test/")) continue;
    const found = byShape.get(shape(method, routePath));
    if (found) {
      const item = gitbook.paths[found.path];
      const operation = item[found.method] as { tags?: string[] };
      paths[found.path] ??= {};
      paths[found.path][found.method] = operation;
      // Parameters shared by every operation of the path.
      if (item.parameters) paths[found.path].parameters = item.parameters;
      for (const tag of operation.tags ?? []) usedTags.add(tag);
      refsOf(operation, wanted);
      refsOf(item.parameters, wanted);
      continue;
    }
    const own = OWN_OPERATIONS[route];
    if (!own) throw new Error(`${route} is in neither GitBook's document nor OWN_OPERATIONS`);
    const path = openApiPath(routePath);
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = ownOperation(route, own);
    usedTags.add("docshelf");
    wanted.push(["responses", "BadRequestError"], ["responses", "NotFoundError"], ["schemas", "Error"]);
  }

  // The components the operations reference, and theirs in turn.
  // GitBook's operations name its security schemes (all bearer tokens): kept as they are.
  const components: OpenApiDocument["components"] = { securitySchemes: { ...gitbook.components.securitySchemes } };
  const seen = new Set<string>();
  while (wanted.length) {
    const [kind, name] = wanted.pop() as [string, string];
    const key = `${kind}/${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const definition = gitbook.components[kind]?.[name];
    if (definition === undefined) throw new Error(`GitBook's document has no #/components/${key}`);
    (components[kind] ??= {})[name] = definition;
    refsOf(definition, wanted);
  }

  const tags = [...(gitbook.tags ?? []).filter((tag) => usedTags.has(tag.name)), { name: "docshelf", description: "Operations of docshelf that GitBook's API of the interface's era does not have." }];
  return {
    openapi: gitbook.openapi,
    info: {
      title: "docshelf API",
      version,
      description:
        "The HTTP API of this docshelf instance: the operations of GitBook's API it implements, as GitBook's own OpenAPI document describes them, and docshelf's own (tag `docshelf`).",
    },
    servers: [{ url: "/v1", description: "This instance" }],
    security: [{ user: [] }],
    tags,
    paths,
    components,
  };
}
