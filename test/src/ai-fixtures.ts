// Fixtures of the AI suites: an MCP client of the SDK over Streamable HTTP, raw MCP POSTs, and generated
// bad tool arguments.
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Fetched } from "./sites-serve-fixtures";

export type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

/** An SDK client connected to `url` (with a bearer token when given). */
export async function mcpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "docshelf-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined);
  await client.connect(transport);
  return client;
}

/** A tool call's answer, with its text joined. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  return { ...result, text: result.content.map((c) => c.text ?? "").join("\n") };
}

/** A POST of raw bytes through node:http (any body, any headers). */
export function rawPost(baseUrl: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The JSON-RPC initialize request a client sends first. */
export const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

/**
 * Bad arguments for a tool of this input schema: each property missing (when required), of every wrong
 * type, empty and too long (the other properties given plausible values).
 */
export function badArguments(schema: { properties?: Record<string, { type?: string | string[]; enum?: unknown[] }>; required?: string[] }): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const props = schema.properties ?? {};
  const valid: Record<string, unknown> = {};
  // An enum's plausible value is its first (any other string would make every case bad for that one field).
  for (const [name, prop] of Object.entries(props)) valid[name] = prop.enum?.length ? prop.enum[0] : sample(prop.type);
  // One of each kind a schema must refuse: a number, a negative and a fraction, a boolean, null, an object
  // (a query operator too), arrays, an empty and an overlong string.
  const wrong: unknown[] = [-1, 1.5, true, null, { $gt: "" }, ["a"], "", "x".repeat(3000)];
  for (const name of Object.keys(props)) {
    if (schema.required?.includes(name)) {
      const missing = { ...valid };
      delete missing[name];
      out.push(missing);
    }
    for (const value of wrong) {
      if (acceptable(props[name].type, value)) continue;
      out.push({ ...valid, [name]: value });
    }
  }
  return out;
}

function sample(type: string | string[] | undefined): unknown {
  const t = Array.isArray(type) ? type[0] : type;
  return t === "number" || t === "integer" ? 1 : t === "array" ? ["aaaaaaaaaaaaaaaaaaaa"] : t === "boolean" ? true : "aaaaaaaaaaaaaaaaaaaa";
}

/** Values that a schema's own type allows and which the generator leaves out (they may be valid). */
function acceptable(type: string | string[] | undefined, value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  if (value === null) return types.includes("null");
  if (types.includes("string") && typeof value === "string" && value.length > 0 && value.length <= 512) return true;
  return false;
}
