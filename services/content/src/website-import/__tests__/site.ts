// A small website on 127.0.0.x for import tests: fixed routes, counted requests and connections.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { safeFetch } from "@docshelf/safe-fetch";
import type { ImportFetch } from "../import-website";

export interface Route {
  status?: number;
  type?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (to test time limits). */
  hang?: boolean;
}

export interface Site {
  origin: string;
  /** Request paths (with query) in the order they arrived. */
  requested: string[];
  connections: () => number;
  close: () => Promise<void>;
}

/** A route: an HTML body, a full answer, or a function of the site's origin giving one. */
export type RouteEntry = string | Route | ((origin: string) => Route);

export async function startSite(routes: Record<string, RouteEntry>, host = "127.0.0.1"): Promise<Site> {
  const requested: string[] = [];
  let connections = 0;
  let origin = "";
  const server = http.createServer((req, res) => {
    requested.push(req.url ?? "");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const entry = routes[path];
    const route = typeof entry === "function" ? entry(origin) : typeof entry === "string" ? { body: entry } : entry;
    if (!route) {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>Not found</h1>");
      return;
    }
    if (route.hang) return;
    res.writeHead(route.status ?? 200, { "content-type": route.type ?? "text/html; charset=utf-8", ...route.headers });
    res.end(route.body ?? "");
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requested,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** safeFetch with the test-only allowance for our 127.0.0.1 listener, and nothing else. */
export const testFetch: ImportFetch = (url, options) => safeFetch(url, { ...options, isAllowedAddress: (address) => address === "127.0.0.1" });

/** A full HTML document around a body. */
export function html(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title><style>.x{color:red}</style><script>var secret = 1;</script></head><body>${body}</body></html>`;
}
