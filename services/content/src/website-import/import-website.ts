// Imports a website: the page at a URL and the same-site pages it links to, as markdown pages.
import { BadRequestError } from "@docshelf/errors";
import { safeFetch, SafeFetchError } from "@docshelf/safe-fetch";
import type { HTMLElement } from "node-html-parser";
import { decodeHtml } from "./decode";
import { parsePage, rewriteLinks } from "./html-page";
import { PathAllocator, relativePagePath, slugPath } from "./page-paths";
import { htmlToMarkdown } from "./to-markdown";
import { fetchTarget, isCandidatePage, pageKey, publicUrl, resolveHref } from "./urls";

export interface ImportFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  accept: string;
  redirect: "manual";
}

export interface ImportFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  finalUrl: string;
  contentType: string;
}

/** What the import fetches with: `safeFetch` in production, `safeFetch` with a test allowance in tests. */
export type ImportFetch = (url: string, options: ImportFetchOptions) => Promise<ImportFetchResponse>;

export interface ImportWebsiteOptions {
  fetch?: ImportFetch;
  /** Pages imported at most. Default 50. */
  maxPages?: number;
  /** Bytes downloaded at most, all responses together. Default 20 MB. */
  maxBytesTotal?: number;
  /** Time for the whole import. Default 60 s. */
  timeoutMs?: number;
  /** Largest single page. Default 5 MB. */
  maxBytesPerPage?: number;
  /** Turns the pages' HTML into Markdown, in order; default htmlToMarkdown on each, in this thread. */
  convert?: (htmls: string[]) => Promise<string[]>;
}

export interface ImportedPage {
  title: string;
  /** Unique slug path derived from the URL path, e.g. "guides/install". */
  path: string;
  markdown: string;
  /** The page's URL, without credentials or fragment. */
  sourceUrl: string;
}

export interface ImportWebsiteResult {
  pages: ImportedPage[];
  importedResources: number;
  /** Distinct same-site pages found (imported or not, e.g. over a limit or not HTML). */
  totalResources: number;
}

export const IMPORT_DEFAULTS = { maxPages: 50, maxBytesTotal: 20 * 1024 * 1024, timeoutMs: 60_000, maxBytesPerPage: 5 * 1024 * 1024 } as const;

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_START_REDIRECTS = 5;

interface FetchedPage {
  key: string;
  url: URL;
  path: string;
  title: string;
  content: HTMLElement;
  base: URL;
}

function parseStartUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new SafeFetchError("bad-url", "The URL to import must be an absolute http or https URL.");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new SafeFetchError("scheme", "Only http and https websites can be imported.");
  }
  return parsed;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new BadRequestError(`Invalid parameters: '${name}' must be a positive integer.`);
  return value;
}

/** One crawl: a breadth-first queue of same-site URLs, bounded in pages, bytes and time. */
class Crawl {
  readonly fetched: FetchedPage[] = [];
  /** Page key → the key it redirected to, so links to the old URL reach the new page. */
  readonly aliases = new Map<string, string>();
  private readonly queue: URL[] = [];
  private readonly seen = new Set<string>();
  private readonly paths = new PathAllocator();
  private bytesUsed = 0;
  private readonly deadline: number;
  private origin = "";

  constructor(
    private readonly start: URL,
    private readonly fetch: ImportFetch,
    private readonly limits: { maxPages: number; maxBytesTotal: number; maxBytesPerPage: number; timeoutMs: number },
  ) {
    this.deadline = Date.now() + limits.timeoutMs;
  }

  get totalResources(): number {
    return this.seen.size;
  }

  async run(): Promise<void> {
    await this.fetchStart();
    while (this.queue.length > 0 && this.fetched.length < this.limits.maxPages && this.hasBudget()) {
      const url = this.queue.shift()!;
      try {
        await this.visit(url);
      } catch (err) {
        if (!(err instanceof SafeFetchError)) throw err;
        // One page failing (gone, too big, too slow) skips that page; the import goes on while budget lasts.
      }
    }
  }

  /** The start page must work: its failures are the import's. Its redirects may change the site. */
  private async fetchStart(): Promise<void> {
    let url = this.start;
    for (let hops = 0; ; hops++) {
      this.origin = url.origin;
      this.seen.add(pageKey(url));
      const response = await this.get(url);
      const location = this.redirectLocation(response, url);
      if (location) {
        if (hops >= MAX_START_REDIRECTS) throw new SafeFetchError("too-many-redirects", "The website redirected too many times.");
        this.aliases.set(pageKey(url), pageKey(location));
        url = location;
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        throw new BadRequestError(`The website answered ${response.status} for the URL to import.`);
      }
      if (!HTML_TYPES.has(response.contentType)) throw new BadRequestError("The URL to import is not an HTML page.");
      this.addPage(url, response);
      return;
    }
  }

  private async visit(url: URL): Promise<void> {
    const response = await this.get(url);
    const location = this.redirectLocation(response, url);
    if (location) {
      // Redirects stay on the site: one to another origin is not followed.
      if (isCandidatePage(location, this.origin)) {
        this.aliases.set(pageKey(url), pageKey(location));
        this.discover(location);
      }
      return;
    }
    if (response.status >= 200 && response.status <= 299 && HTML_TYPES.has(response.contentType)) this.addPage(url, response);
  }

  private async get(url: URL): Promise<ImportFetchResponse> {
    const remainingBytes = this.limits.maxBytesTotal - this.bytesUsed;
    const remainingMs = this.deadline - Date.now();
    if (remainingMs <= 0) throw new SafeFetchError("timeout", "The website import ran out of time.");
    const response = await this.fetch(fetchTarget(url, this.start), {
      timeoutMs: remainingMs,
      maxBytes: Math.min(this.limits.maxBytesPerPage, remainingBytes),
      accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
      redirect: "manual",
    }).catch((err: unknown) => {
      // A page cut off by the total budget uses it up; so does running out of time.
      if (err instanceof SafeFetchError && err.reason === "too-large" && remainingBytes < this.limits.maxBytesPerPage) this.bytesUsed = this.limits.maxBytesTotal;
      throw err;
    });
    this.bytesUsed += response.body.length;
    return response;
  }

  private redirectLocation(response: ImportFetchResponse, url: URL): URL | undefined {
    if (!REDIRECT_STATUSES.has(response.status) || !response.headers.location) return undefined;
    return resolveHref(response.headers.location, url);
  }

  private addPage(url: URL, response: ImportFetchResponse): void {
    const page = parsePage(decodeHtml(response.body, response.headers["content-type"]), url);
    const path = this.paths.allocate(slugPath(url));
    this.fetched.push({ key: pageKey(url), url, path, title: page.title || path, content: page.content, base: page.base });
    for (const link of page.links) this.discover(link);
  }

  /** Queues a same-site page once; fragments and query strings don't make another page. */
  private discover(link: URL): void {
    if (!isCandidatePage(link, this.origin)) return;
    const key = pageKey(link);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const url = new URL(link.href);
    url.search = "";
    url.hash = "";
    this.queue.push(url);
  }

  private hasBudget(): boolean {
    return this.bytesUsed < this.limits.maxBytesTotal && Date.now() < this.deadline;
  }
}

/**
 * Fetches the page at `url` and, breadth-first, the same-origin pages it links to, and turns them
 * into markdown pages whose links to each other are relative page paths. Throws a 400
 * (BadRequestError, or SafeFetchError with a `reason`) when the start page can't be imported.
 */
export async function importWebsite(url: string, options: ImportWebsiteOptions = {}): Promise<ImportWebsiteResult> {
  const limits = {
    maxPages: positiveInteger("maxPages", options.maxPages, IMPORT_DEFAULTS.maxPages),
    maxBytesTotal: positiveInteger("maxBytesTotal", options.maxBytesTotal, IMPORT_DEFAULTS.maxBytesTotal),
    maxBytesPerPage: positiveInteger("maxBytesPerPage", options.maxBytesPerPage, IMPORT_DEFAULTS.maxBytesPerPage),
    timeoutMs: positiveInteger("timeoutMs", options.timeoutMs, IMPORT_DEFAULTS.timeoutMs),
  };
  const crawl = new Crawl(parseStartUrl(url), options.fetch ?? safeFetch, limits);
  await crawl.run();

  const pathByKey = new Map(crawl.fetched.map((p) => [p.key, p.path]));
  const pathOf = (target: URL): string | undefined => {
    let key = pageKey(target);
    for (let hops = 0; !pathByKey.has(key) && crawl.aliases.has(key) && hops < 10; hops++) key = crawl.aliases.get(key)!;
    return pathByKey.get(key);
  };
  const htmls = crawl.fetched.map((page) => {
    rewriteLinks(page.content, page.base, (target) => {
      const targetPath = pathOf(target);
      return targetPath === undefined ? undefined : relativePagePath(page.path, targetPath);
    });
    return page.content.innerHTML;
  });
  const markdowns = options.convert ? await options.convert(htmls) : htmls.map(htmlToMarkdown);
  const pages = crawl.fetched.map((page, i): ImportedPage => ({ title: page.title, path: page.path, markdown: markdowns[i], sourceUrl: publicUrl(page.url) }));
  return { pages, importedResources: pages.length, totalResources: crawl.totalResources };
}
