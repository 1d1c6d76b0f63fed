// The API's MCP server at `/mcp`: Streamable HTTP (the official SDK, stateless, JSON answers), authenticated
// with the caller's API token (`Authorization: Bearer`). Every tool is one or two requests to this
// instance's own `/v1` HTTP API over loopback, with the caller's token: so a tool has exactly the API's
// permissions, validation, limits, rate limits (counted against the caller like any API request) and
// idempotency (an `idempotencyKey` argument becomes the `Idempotency-Key` header), and answers what the API
// answers. Agents cannot merge: there is no merge tool (see the README's "Docs for AI tools").
import type { IncomingMessage, ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** The path of the API's MCP server. */
export const API_MCP_PATH = "/mcp";
/** The longest answer text a tool gives (an API answer past it is cut, with a note). */
export const API_MCP_TEXT_MAX_CHARS = 200_000;

export interface ApiMcpGateway {
  /** The id of the user whose valid bearer token the request carries, or null (the gateway's token cache and identity). */
  callerId(req: IncomingMessage): Promise<string | null>;
  /**
   * Counts the MCP request itself: without a valid token against its address (as an anonymous /v1
   * request), with one in a per-user count of its own (SITE_RATE_LIMIT_PER_MINUTE), so requests that make
   * no API call (tools/list, initialize, invalid arguments) are bounded too.
   */
  admit(req: IncomingMessage, userId: string | null): { allowed: true } | { allowed: false; retryAfter: number };
  /** `http://127.0.0.1:{port}` (or the address the gateway listens on): where the tools send their /v1 requests. */
  loopbackOrigin(): string;
  bodyLimitBytes: number;
  timeoutMs: number;
}

/** Whether a request is for the API's MCP server. */
export function isApiMcp(req: IncomingMessage): boolean {
  const url = req.url ?? "/";
  const at = url.indexOf("?");
  return (at < 0 ? url : url.slice(0, at)) === API_MCP_PATH;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
}

const rpcError = (message: string) => JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });

/** One /v1 request as the caller. */
interface ApiCall {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

type Api = (request: ApiCall) => Promise<{ status: number; body: unknown; text: string }>;

const enc = encodeURIComponent;

/** A tool's answer: the API's JSON (or Markdown) as text; an API error (4xx/5xx) as an error result naming the status. */
function fromApi(answer: { status: number; body: unknown; text: string }, markdown?: (body: unknown) => string | undefined): CallToolResult {
  if (answer.status >= 400) {
    const message = (answer.body as { error?: { message?: unknown } } | undefined)?.error?.message;
    return { content: [{ type: "text", text: `The API answered ${answer.status}${typeof message === "string" ? `: ${message}` : ""}` }], isError: true };
  }
  const asMarkdown = markdown?.(answer.body);
  let text = asMarkdown ?? (answer.text || `(${answer.status}, no content)`);
  if (text.length > API_MCP_TEXT_MAX_CHARS) text = `${text.slice(0, API_MCP_TEXT_MAX_CHARS)}\n\n[Cut at ${API_MCP_TEXT_MAX_CHARS} characters.]`;
  const result: CallToolResult = { content: [{ type: "text", text }] };
  if (!asMarkdown && answer.body && typeof answer.body === "object" && !Array.isArray(answer.body)) result.structuredContent = answer.body as Record<string, unknown>;
  return result;
}

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "an id: letters, digits, _ or -");
const idempotencyKey = z.string().min(1).max(255).optional().describe("Optional Idempotency-Key: a retry with the same key is answered once.");
const markdownBody = z.string().min(1).max(1_000_000);

/** The tools, each one or two /v1 requests. */
function apiServer(api: Api): McpServer {
  const server = new McpServer(
    { name: "docshelf", version: "1.0.0" },
    {
      instructions:
        "Docshelf's API as tools. Read: listOrganizations, listSpaces, searchContent, listPages, readPage. Write through a change request: createChangeRequest, then insertPage/updatePage/movePage/deletePage in it, getChangeRequestChanges to see the diff, comment, requestReview. Merging is left to people.",
    },
  );
  const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
  const changes = (spaceId: string, changeRequestId: string, change: Record<string, unknown>, key?: string) =>
    api({ method: "POST", path: `/v1/spaces/${enc(spaceId)}/change-requests/${enc(changeRequestId)}/content`, query: { compat: false }, body: { changes: [change] }, idempotencyKey: key });

  server.registerTool(
    "listOrganizations",
    { description: "Lists the organizations the token's user belongs to.", inputSchema: { page: z.string().min(1).max(256).optional() }, annotations: read },
    async ({ page }) => fromApi(await api({ method: "GET", path: "/v1/orgs", query: { page } })),
  );
  server.registerTool(
    "listSpaces",
    { description: "Lists the spaces of an organization that the user can read.", inputSchema: { organizationId: id, page: z.string().min(1).max(256).optional() }, annotations: read },
    async ({ organizationId, page }) => fromApi(await api({ method: "GET", path: `/v1/orgs/${enc(organizationId)}/spaces`, query: { page } })),
  );
  server.registerTool(
    "searchContent",
    {
      description: "Searches the content of an organization's spaces (those the user can read): pages with the sections that matched.",
      inputSchema: { organizationId: id, query: z.string().trim().min(1).max(512), page: z.string().min(1).max(256).optional() },
      annotations: read,
    },
    async ({ organizationId, query, page }) => fromApi(await api({ method: "GET", path: `/v1/orgs/${enc(organizationId)}/search`, query: { query, page } })),
  );
  server.registerTool(
    "listPages",
    {
      description: "Lists the page tree of a space (its current revision), or of a change request when changeRequestId is given: ids, titles, paths.",
      inputSchema: { spaceId: id, changeRequestId: id.optional() },
      annotations: read,
    },
    async ({ spaceId, changeRequestId }) =>
      fromApi(await api({ method: "GET", path: changeRequestId ? `/v1/spaces/${enc(spaceId)}/change-requests/${enc(changeRequestId)}/content/pages` : `/v1/spaces/${enc(spaceId)}/content/pages` })),
  );
  server.registerTool(
    "readPage",
    {
      description:
        "Reads one page of a space (or of a change request) by id or by path, as Markdown (GitBook's syntax, the default) or as GitBook's JSON document.",
      inputSchema: {
        spaceId: id,
        pageId: id.optional(),
        path: z.string().min(1).max(1024).optional().describe("The page's path in the space, e.g. guides/install."),
        changeRequestId: id.optional(),
        format: z.enum(["markdown", "document"]).optional(),
      },
      annotations: read,
    },
    async ({ spaceId, pageId, path, changeRequestId, format }) => {
      if (!pageId === !path) return { content: [{ type: "text", text: "Give exactly one of pageId and path." }], isError: true };
      const segments = path?.split("/").filter(Boolean) ?? [];
      // Each segment is encoded, and dot segments refused: a URL would resolve them to another path of this instance.
      if (segments.some((segment) => segment === "." || segment === "..")) return { content: [{ type: "text", text: "A page path has no . or .. segments." }], isError: true };
      const root = changeRequestId ? `/v1/spaces/${enc(spaceId)}/change-requests/${enc(changeRequestId)}/content` : `/v1/spaces/${enc(spaceId)}/content`;
      const where = pageId ? `page/${enc(pageId)}` : `path/${segments.map(enc).join("/")}`;
      const answer = await api({ method: "GET", path: `${root}/${where}`, query: { format: format ?? "markdown" } });
      return fromApi(answer, (body) => {
        const page = body as { title?: unknown; markdown?: unknown; path?: unknown; id?: unknown };
        if ((format ?? "markdown") !== "markdown" || typeof page.markdown !== "string") return undefined;
        return `# ${String(page.title ?? "")}\n\n> Page ${String(page.id ?? "")} at path ${String(page.path ?? "")}\n\n${page.markdown}`;
      });
    },
  );
  server.registerTool(
    "createChangeRequest",
    { description: "Opens a change request on a space: edits go there, and people review and merge it.", inputSchema: { spaceId: id, subject: z.string().min(1).max(500).optional(), idempotencyKey }, annotations: write },
    async ({ spaceId, subject, idempotencyKey: key }) => fromApi(await api({ method: "POST", path: `/v1/spaces/${enc(spaceId)}/change-requests`, body: subject ? { subject } : {}, idempotencyKey: key })),
  );
  server.registerTool(
    "insertPage",
    {
      description:
        "Adds a page to a change request, with a Markdown body (GitBook's syntax; none: an empty page), under parentPageId (else at the root), at a position among its siblings. kind \"group\" adds a page group instead: a heading of the top level that holds pages, with no body and no parent.",
      inputSchema: {
        spaceId: id,
        changeRequestId: id,
        title: z.string().min(1).max(256),
        kind: z.enum(["document", "group"]).optional().describe('"document" (the default): a page; "group": a page group.'),
        markdown: markdownBody.optional(),
        description: z.string().max(1000).optional(),
        parentPageId: id.optional(),
        position: z.number().int().min(0).max(100_000).optional(),
        idempotencyKey,
      },
      annotations: write,
    },
    async ({ spaceId, changeRequestId, title, kind, markdown, description, parentPageId, position, idempotencyKey: key }) => {
      if (kind === "group") {
        if (markdown !== undefined) return { content: [{ type: "text", text: "markdown: a page group has no content." }], isError: true };
        if (parentPageId !== undefined) return { content: [{ type: "text", text: "parentPageId: a page group stays at the top level." }], isError: true };
        return fromApi(await changes(spaceId, changeRequestId, { operation: "insert_page", type: "group", title, description, document: { markdown: "" }, at: position }, key));
      }
      return fromApi(await changes(spaceId, changeRequestId, { operation: "insert_page", title, description, document: { markdown: markdown ?? "" }, into: parentPageId, at: position }, key));
    },
  );
  server.registerTool(
    "updatePage",
    {
      description: "Changes a page in a change request: its Markdown body, title or description.",
      inputSchema: { spaceId: id, changeRequestId: id, pageId: id, markdown: markdownBody.optional(), title: z.string().min(1).max(256).optional(), description: z.string().max(1000).optional(), idempotencyKey },
      annotations: write,
    },
    async ({ spaceId, changeRequestId, pageId, markdown, title, description, idempotencyKey: key }) => {
      if (markdown === undefined && title === undefined && description === undefined) return { content: [{ type: "text", text: "Give markdown, title or description to change." }], isError: true };
      return fromApi(await changes(spaceId, changeRequestId, { operation: "update_page", page: pageId, title, description, ...(markdown !== undefined ? { document: { markdown } } : {}) }, key));
    },
  );
  server.registerTool(
    "movePage",
    {
      description: "Moves a page in a change request: under parentPageId (null: to the root), at a position among its new siblings.",
      inputSchema: { spaceId: id, changeRequestId: id, pageId: id, parentPageId: id.nullable(), position: z.number().int().min(0).max(100_000).optional(), idempotencyKey },
      annotations: write,
    },
    async ({ spaceId, changeRequestId, pageId, parentPageId, position, idempotencyKey: key }) =>
      fromApi(await changes(spaceId, changeRequestId, { operation: "update_page", page: pageId, into: parentPageId, at: position }, key)),
  );
  server.registerTool(
    "deletePage",
    { description: "Deletes a page (and the pages under it) in a change request.", inputSchema: { spaceId: id, changeRequestId: id, pageId: id, idempotencyKey }, annotations: { ...write, destructiveHint: true } },
    async ({ spaceId, changeRequestId, pageId, idempotencyKey: key }) => fromApi(await changes(spaceId, changeRequestId, { operation: "delete_page", page: pageId }, key)),
  );
  server.registerTool(
    "getChangeRequestChanges",
    { description: "The changes a change request makes to its space: pages added, edited, moved and deleted.", inputSchema: { spaceId: id, changeRequestId: id }, annotations: read },
    async ({ spaceId, changeRequestId }) => fromApi(await api({ method: "GET", path: `/v1/spaces/${enc(spaceId)}/change-requests/${enc(changeRequestId)}/changes`, query: { limit: 100 } })),
  );
  server.registerTool(
    "comment",
    {
      description: "Posts a comment (Markdown) on a change request, or on the space when no changeRequestId is given; on a page with pageId.",
      inputSchema: { spaceId: id, changeRequestId: id.optional(), pageId: id.optional(), markdown: z.string().min(1).max(65_536), idempotencyKey },
      annotations: write,
    },
    async ({ spaceId, changeRequestId, pageId, markdown, idempotencyKey: key }) =>
      fromApi(
        await api({
          method: "POST",
          path: changeRequestId ? `/v1/spaces/${enc(spaceId)}/change-requests/${enc(changeRequestId)}/comments` : `/v1/spaces/${enc(spaceId)}/comments`,
          body: { body: { markdown }, ...(pageId ? { page: pageId } : {}) },
          idempotencyKey: key,
        }),
      ),
  );
  server.registerTool(
    "requestReview",
    {
      description: "Asks members of the organization (by user id) to review a change request, and marks a draft change request open (ready for review), as the app's \"Request review\" does.",
      inputSchema: { spaceId: id, changeRequestId: id, userIds: z.array(id).min(1).max(50), idempotencyKey },
      annotations: write,
    },
    async ({ spaceId, changeRequestId, userIds, idempotencyKey: key }) => {
      const path = `/v1/spaces/${enc(spaceId)}/change-requests/${enc(changeRequestId)}`;
      const requested = await api({ method: "POST", path: `${path}/requested-reviewers`, body: { users: userIds }, idempotencyKey: key });
      if (requested.status >= 400) return fromApi(requested);
      const current = await api({ method: "GET", path });
      if ((current.body as { status?: unknown } | undefined)?.status === "draft") {
        const opened = await api({ method: "PATCH", path, body: { status: "open" } });
        if (opened.status >= 400) return fromApi(opened);
      }
      return fromApi(requested);
    },
  );
  return server;
}

/** The /v1 client of one MCP request: the caller's Authorization, X-Request-ID and client address carried over. */
function apiClient(gateway: ApiMcpGateway, req: IncomingMessage): Api {
  const origin = gateway.loopbackOrigin();
  const authorization = String(req.headers.authorization ?? "");
  const requestId = req.headers["x-request-id"];
  return async ({ method, path, query, body, idempotencyKey }) => {
    const url = new URL(path, origin);
    // Only this instance's /v1, whatever a tool built (ids are checked by their schemas, paths encoded).
    if (url.origin !== new URL(origin).origin || !url.pathname.startsWith("/v1/")) throw new Error("not an API path");
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (typeof requestId === "string") headers["x-request-id"] = requestId;
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(gateway.timeoutMs + 5_000), redirect: "manual" });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text };
  };
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Answers one request of `/mcp`. */
export async function serveApiMcp(gateway: ApiMcpGateway, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "POST") return send(res, 405, rpcError("This MCP server takes POST requests (Streamable HTTP, stateless)."), { Allow: "POST" });
  const userId = await gateway.callerId(req);
  const admitted = gateway.admit(req, userId);
  if (!admitted.allowed) return send(res, 429, rpcError("Too many requests."), { "Retry-After": String(admitted.retryAfter) });
  if (!userId) return send(res, 401, rpcError("An API token is required: Authorization: Bearer <token>."), { "WWW-Authenticate": 'Bearer realm="docshelf"' });
  const type = req.headers["content-type"];
  if (typeof type !== "string" || !/^application\/json\b/i.test(type.trim())) return send(res, 415, rpcError("An MCP request is JSON (Content-Type: application/json)."));
  const body = await readBody(req, gateway.bodyLimitBytes);
  if (body === null) return send(res, 413, rpcError("The request body is too large."));
  const server = apiServer(apiClient(gateway, req));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers: Record<string, string> = { "content-type": type, accept: String(req.headers.accept ?? "") };
    const version = req.headers["mcp-protocol-version"];
    if (typeof version === "string") headers["mcp-protocol-version"] = version;
    const response = await transport.handleRequest(new Request(`http://localhost${API_MCP_PATH}`, { method: "POST", headers, body }));
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name === "content-type" || name === "allow") out[name] = value;
    });
    send(res, response.status, await response.text(), out);
  } finally {
    await server.close().catch(() => undefined);
  }
}
