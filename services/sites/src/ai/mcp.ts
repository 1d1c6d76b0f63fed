// The MCP server of a published site, at `{site}/~gitbook/mcp` (GitBook's path): Streamable HTTP in the
// SDK's stateless mode with JSON answers (each POST is answered by itself, so any sites node can take any
// request), read-only tools over what this visitor may read of the site. The gateway forwards the POST's
// body (`ServeParams.mcp`); `sites.serve` has already decided the visitor's access and built their site
// map, so a share-link site's server without the key is the same 404 as its pages.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ServeAnswer, SiteMcpRequest } from "@docshelf/contracts/sites";
import { z } from "zod";
import { rankSiteSearch } from "../serve/search";
import { markdownPath, type SiteAi } from "./serve-ai";
import { pathSegments } from "../serve/path-segments";

/** Results searchDocumentation answers. */
export const MCP_SEARCH_RESULTS = 10;
/** A tool answer's text is cut here (a page longer than this ends with a note). */
export const MCP_TEXT_MAX_CHARS = 200_000;

const HEADERS = { "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'" };

function jsonRpcError(status: number, message: string, extra: Record<string, string> = {}): ServeAnswer {
  return {
    status,
    headers: { ...HEADERS, "Content-Type": "application/json", ...extra },
    body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
  };
}

const text = (value: string): CallToolResult => ({
  content: [{ type: "text", text: value.length > MCP_TEXT_MAX_CHARS ? `${value.slice(0, MCP_TEXT_MAX_CHARS)}\n\n[Cut at ${MCP_TEXT_MAX_CHARS} characters.]` : value }],
});
const toolError = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

/** Path segments of the site named by `where` (a page URL of this site, or a path in it); null when it is not one. */
export function siteSegments(ai: SiteAi, where: string): string[] | null {
  const { base, origin } = ai.request;
  let path = where.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      return null;
    }
    // The site's own host (the scheme aside: a proxy may end TLS), and a path under its base.
    if (url.host !== new URL(origin).host) return null;
    path = url.pathname;
    if (base && path !== base && !path.startsWith(`${base}/`)) return null;
    path = path.slice(base.length);
  } else {
    path = path.split(/[?#]/, 1)[0];
    if (base && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length);
  }
  path = path.split(/[?#]/, 1)[0];
  const segments = pathSegments(path.startsWith("/") ? path : `/${path}`);
  if (!segments) return null;
  return markdownPath(segments) ?? segments;
}

/** A tool's handler whose unexpected failures answer a plain error result (logged; no internal message reaches the agent). */
function guarded<A>(ai: SiteAi, handler: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (err) {
      ai.service.logger.warn({ err, siteId: ai.request.site.id }, "a site MCP tool failed");
      return toolError("The documentation could not be read just now; try again in a moment.");
    }
  };
}

function siteServer(ai: SiteAi): McpServer {
  const { site } = ai.request;
  const server = new McpServer(
    { name: `${site.title} documentation`.slice(0, 200), version: "1.0.0" },
    { instructions: `Published documentation of "${site.title}". Use searchDocumentation to find pages, then getPage with a page's URL or path to read it as Markdown.` },
  );
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  server.registerTool(
    "searchDocumentation",
    {
      title: "Search the documentation",
      description: `Searches the published documentation of "${site.title}". Answers the best pages as Markdown: each page's title, its URL, and the sections that matched with an excerpt.`,
      inputSchema: { query: z.string().trim().min(1).max(512).describe("What to look for, in words.") },
      annotations: readOnly,
    },
    guarded(ai, async ({ query }: { query: string }) => {
      const ranked = await rankSiteSearch(ai.service.publishedContent, ai.request.map.all, query, MCP_SEARCH_RESULTS);
      if (!ranked.length) return text(`No page of this site matches "${query}".`);
      const parts = ranked.map(({ view, tree, page, hit }) => {
        const lines = [`## ${hit.title || page.title || "Untitled"}`, "", `URL: ${ai.htmlUrl(view, tree, page)}`, `Markdown: ${ai.markdownUrl(view, page)}`];
        if (page.description) lines.push("", page.description);
        for (const section of hit.sections.slice(0, 3)) {
          const excerpt = section.body.replace(/\s+/g, " ").trim().slice(0, 300);
          if (excerpt) lines.push("", `- ${section.title ? `**${section.title}**: ` : ""}${excerpt}`);
        }
        return lines.join("\n");
      });
      return text(`# Results for "${query}"\n\n${parts.join("\n\n")}\n`);
    }),
  );

  server.registerTool(
    "getPage",
    {
      title: "Read a page",
      description: `Reads one page of "${site.title}" as Markdown, by its URL (as searchDocumentation or llms.txt give it, with or without .md) or its path in the site.`,
      inputSchema: { url: z.string().min(1).max(2048).describe("The page's URL, or its path in the site (e.g. guides/install).") },
      annotations: readOnly,
    },
    guarded(ai, async ({ url }: { url: string }) => {
      const segments = siteSegments(ai, url);
      if (!segments) return toolError(`"${url.slice(0, 200)}" is not a page address of this site.`);
      const found = await ai.pageAt(segments);
      if (!found) return toolError(`There is no page at "${url.slice(0, 200)}" on this site.`);
      const pointer = `> URL: ${ai.htmlUrl(found.view, found.tree, found.page)}`;
      return text(await ai.pageDocument(found.view, found.tree, found.page, pointer));
    }),
  );
  return server;
}

/** Answers one MCP request of the site (`undefined`: a GET or other method, which the stateless server refuses). */
export async function serveSiteMcp(ai: SiteAi, request: SiteMcpRequest | undefined): Promise<ServeAnswer> {
  if (!request) return jsonRpcError(405, "Method not allowed: this MCP server takes POST requests (Streamable HTTP, stateless).", { Allow: "POST" });
  const server = siteServer(ai);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers: Record<string, string> = { "content-type": request.contentType ?? "application/json", accept: request.accept ?? "" };
    if (request.protocolVersion) headers["mcp-protocol-version"] = request.protocolVersion;
    const response = await transport.handleRequest(new Request(`${ai.request.origin}/~gitbook/mcp`, { method: "POST", headers, body: request.body }));
    const answerHeaders: Record<string, string> = { ...HEADERS };
    response.headers.forEach((value, name) => {
      if (name === "content-type" || name === "allow" || name === "mcp-protocol-version") answerHeaders[name === "content-type" ? "Content-Type" : name] = value;
    });
    if (!answerHeaders["Content-Type"]) answerHeaders["Content-Type"] = "application/json";
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  } finally {
    await server.close().catch(() => undefined);
  }
}
