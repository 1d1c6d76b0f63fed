// Fixtures of the published-site suites: a site with pages, raw HTTP reads (Host header, unnormalized
// paths), visitor tokens signed by hand, and the HTML parsed for assertions.
import { createHmac, randomBytes } from "node:crypto";
import { request } from "node:http";
import { parse, type HTMLElement } from "node-html-parser";
import type { RunningSystem } from "@docshelf/testkit";
import { newSite, newSpace, type SitesWorld } from "./sites-fixtures";

export interface Fetched {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface PageSpec {
  id?: string;
  parent?: string;
  title: string;
  markdown?: string;
  description?: string;
  hidden?: boolean;
}

/** A GET through node:http, so the path is sent as written and any Host header can be given. */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export const header = (res: Fetched, name: string): string => {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join("\n") : (value ?? "");
};

export const html = (res: Fetched): HTMLElement => parse(res.text);

/** `name=value` pairs of the Set-Cookie headers, for the next request's Cookie header. */
export function cookiesOf(res: Fetched): string {
  const set = res.headers["set-cookie"] ?? [];
  return (Array.isArray(set) ? set : [set]).map((c) => c.split(";")[0]).join("; ");
}

export async function addPages(sys: RunningSystem, spaceId: string, pages: PageSpec[]): Promise<void> {
  if (!pages.length) return;
  const changes = pages.map((p) => ({ type: "insert_page", ...p }));
  const res = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes });
  if (res.status !== 201) throw new Error(`insert pages: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function setVariables(sys: RunningSystem, spaceId: string, variables: Record<string, string>): Promise<void> {
  const res = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "set_variables", variables }] });
  if (res.status !== 201) throw new Error(`set variables: ${res.status} ${JSON.stringify(res.body)}`);
}

export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

/** The pages most suites read: an introduction with headings, a guide with a child, a hidden page. */
export const GUIDE_PAGES: PageSpec[] = [
  {
    id: "intro",
    title: "Introduction",
    description: "What this site is about",
    markdown: "Welcome to the docs.\n\n## Getting started\n\nRead the [guide](guide.md).\n\n### Install the tool\n\nRun it.\n",
  },
  { id: "guide", title: "Guide", markdown: "The guide.\n\n## Configure\n\nSet things up.\n" },
  { id: "advanced", parent: "guide", title: "Advanced", markdown: "Advanced topics about zeppelins.\n" },
  { id: "secret", title: "Hidden page", hidden: true, markdown: "Hidden but reachable.\n" },
  { id: "faq", title: "FAQ", markdown: "Questions.\n" },
];

export interface PublishedSite {
  site: { id: string; [k: string]: unknown };
  spaceId: string;
  basename: string;
  /** `/sites/{basename}` */
  base: string;
}

/** A site with one space of `pages`, a basename, published; `visibility` set on creation. */
export async function publishedSite(sys: RunningSystem, w: SitesWorld, options: { visibility?: string; pages?: PageSpec[]; title?: string } = {}): Promise<PublishedSite> {
  const spaceId = await newSpace(w, "Handbook");
  await addPages(sys, spaceId, options.pages ?? GUIDE_PAGES);
  const site = await newSite(w, { spaces: [spaceId], visibility: options.visibility ?? "public", title: options.title ?? "Docs site" });
  const basename = unique("docs");
  const patched = await w.owner.api.patch(`${w.sites}/${site.id}`, { basename });
  if (patched.status !== 200) throw new Error(`basename: ${patched.status} ${JSON.stringify(patched.body)}`);
  const published = await w.owner.api.post(`${w.sites}/${site.id}/publish`);
  if (published.status !== 200) throw new Error(`publish: ${published.status}`);
  return { site, spaceId, basename, base: `/sites/${basename}` };
}

const b64url = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

/** A JWT made by hand (not with the library the service verifies with), so bad ones can be made too. */
export function signToken(key: string, payload: Record<string, unknown>, alg = "HS256"): string {
  const head = `${b64url({ alg, typ: "JWT" })}.${b64url(payload)}`;
  if (alg === "none") return `${head}.`;
  return `${head}.${createHmac("sha256", key).update(head).digest("base64url")}`;
}
