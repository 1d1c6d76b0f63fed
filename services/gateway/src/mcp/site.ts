// The gateway's part of a published site's AI answers: a POST to `{site}/~gitbook/mcp` (the site's MCP
// server, run by the sites service) is read here and forwarded with `sites.serve` like a page view, so it
// passes the same rate limit and the same visibility check; and a page asked for with
// `Accept: text/markdown` is marked so the site answers its Markdown.
import type { IncomingMessage } from "node:http";
import type { SiteMcpRequest } from "@docshelf/contracts/sites";

/** The largest MCP request body a site takes (a tool call's arguments are a few hundred bytes). */
export const SITE_MCP_MAX_BODY_BYTES = 256 * 1024;

const MCP_PATH = /\/~gitbook\/mcp\/?$/;

/** Whether the request is a POST to a site's MCP server (the path still has to be a site's: sites.serve decides). */
export function isSiteMcpPost(req: IncomingMessage, path: string): boolean {
  return req.method === "POST" && MCP_PATH.test(path);
}

/** Whether the Accept header asks for Markdown before HTML. */
export function acceptsMarkdown(accept: string | string[] | undefined): boolean {
  if (typeof accept !== "string" || !accept.toLowerCase().includes("markdown")) return false;
  let markdown = -1;
  let html = -1;
  for (const part of accept.split(",")) {
    const [type, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const weight = Number.isFinite(q) ? q : 0;
    if (type === "text/markdown" || type === "text/x-markdown") markdown = Math.max(markdown, weight);
    if (type === "text/html") html = Math.max(html, weight);
  }
  return markdown > 0 && markdown >= html;
}

/** The POST's body and headers, or the HTTP status to refuse it with (413 too large, 415 not JSON). */
export async function readSiteMcp(req: IncomingMessage): Promise<SiteMcpRequest | { refuse: 413 | 415 }> {
  const type = req.headers["content-type"];
  if (typeof type !== "string" || !/^application\/json\b/i.test(type.trim())) return { refuse: 415 };
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > SITE_MCP_MAX_BODY_BYTES) return { refuse: 413 };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SITE_MCP_MAX_BODY_BYTES) return { refuse: 413 };
    chunks.push(chunk);
  }
  const out: SiteMcpRequest = { body: Buffer.concat(chunks).toString("utf8"), contentType: type.slice(0, 256) };
  const accept = req.headers.accept;
  if (typeof accept === "string") out.accept = accept.slice(0, 1024);
  const version = req.headers["mcp-protocol-version"];
  if (typeof version === "string") out.protocolVersion = version.slice(0, 64);
  return out;
}

/** A JSON-RPC error answer for a refused MCP request. */
export function mcpRefusal(status: number, message: string): { status: number; headers: Record<string, string>; body: string } {
  return {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
    body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
  };
}
