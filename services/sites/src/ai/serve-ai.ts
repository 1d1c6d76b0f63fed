// What a published site answers AI tools: `{page}.md` (and a page asked for with `Accept: text/markdown`),
// `/llms.txt`, `/llms-full.txt` and the MCP server at `/~gitbook/mcp`. `sites.serve` calls `serveAi` once
// the visitor's access is decided and the site map built for that visitor, so every one of these follows
// the site's visibility exactly as its HTML pages do (share key, visitor token, conditions of adaptive
// content), and answers through the same `respond` (caching, ETag, noindex). HTML pages get the
// `Link: </llms.txt>; rel="llms-txt"` header from `withAiLinks`.
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import type { ServeAnswer, ServeHead, ServeParams } from "@docshelf/contracts/sites";
import { utf8Chunks } from "@docshelf/runtime";
import { Readable } from "node:stream";
import type { SiteDoc } from "../models";
import type { SitesService } from "../service-types";
import type { TreeIndex, TreePage } from "../serve/content";
import { resolveFileLink, resolvePageLink } from "../serve/content";
import { Lru } from "../serve/lru";
import { routeOf, type SiteMap, type SiteSpaceView } from "../serve/site-map";
import { indexPointer, LLMS_FULL_MAX_MS, LLMS_FULL_MAX_PAGES, LlmsFullWriter, llmsTxt, pageMarkdown, rewriteLinks, substituteMarkdownVariables, type LlmsGroup, type LlmsIndex } from "./markdown";
import { serveSiteMcp } from "./mcp";

export const MARKDOWN = "text/markdown; charset=utf-8";
const TEXT = "text/plain; charset=utf-8";
/** The site's MCP server, at GitBook's path. */
export const MCP_SEGMENTS = ["~gitbook", "mcp"];

export type Respond = (status: number, contentType: string, body: string, noindex?: boolean) => ServeAnswer;

/** One request of a published site, past its access check. */
export interface AiRequest {
  site: SiteDoc;
  /** URL path of the site's root ("" on its own host). */
  base: string;
  /** Absolute URL of the site's root. */
  origin: string;
  /** Path segments after the base. */
  rest: string[];
  query: Record<string, string>;
  /** The site as this visitor sees it. */
  map: SiteMap;
  params: ServeParams;
  respond: Respond;
}

/** Pages llms-full.txt reads at once. */
const LLMS_FULL_BATCH = 16;

/** Bodies of pages as Markdown, by revision, page and the URLs their links point at (revisions never change). */
const bodies = new Lru<string, Promise<string>>(2000, 32 * 1024 * 1024);

/** The site's pages as AI tools address them. */
export class SiteAi {
  constructor(
    readonly service: SitesService,
    readonly request: AiRequest,
  ) {}

  /** `?share=<key>` when the visitor came with a share key in the query, so links an agent follows keep working. */
  get keySuffix(): string {
    const key = this.request.site.visibility === "share-link" ? this.request.query.share : undefined;
    return key ? `?share=${encodeURIComponent(key)}` : "";
  }

  /** A URL path of the site as an absolute URL. */
  absolute(path: string): string {
    const rest = path.slice(this.request.base.length);
    return `${this.request.origin}${rest || (this.request.base ? "" : "/")}`;
  }

  llmsTxtUrl(): string {
    return `${this.absolute(`${this.request.base}/llms.txt`)}${this.keySuffix}`;
  }

  /** The absolute URL of a page's HTML. */
  htmlUrl(view: SiteSpaceView, tree: TreeIndex, page: TreePage): string {
    const path = page.id === tree.first?.id ? view.base : `${view.base}/${page.path}`;
    return `${this.absolute(path)}${this.keySuffix}`;
  }

  /** The absolute URL of a page's Markdown (`{base}/{page path}.md`, the first page too). */
  markdownUrl(view: SiteSpaceView, page: TreePage): string {
    return `${this.absolute(`${view.base}/${page.path}.md`)}${this.keySuffix}`;
  }

  /** A page's body as Markdown: variables substituted, links to pages at their `.md` URLs, images at their files. */
  body(view: SiteSpaceView, tree: TreeIndex, page: TreePage): Promise<string> {
    const key = `${tree.revisionId}:${page.id}:${this.request.origin}:${view.base}:${this.keySuffix}`;
    let body = bodies.get(key);
    if (!body) {
      body = call(this.service.broker, content.publishedPage, { spaceId: view.spaceId, revisionId: tree.revisionId, pageId: page.id }).then((answer) => {
        const markdown = substituteMarkdownVariables(answer?.markdown ?? "", tree.variables, page.variables ?? {});
        return rewriteLinks(
          markdown,
          (href) => {
            const html = resolvePageLink(href, page, tree, view.base);
            if (html === undefined) return undefined;
            const [path, anchor] = html.split("#", 2);
            const target = tree.byPath.get(path === view.base || path === "/" ? (tree.first?.path ?? "") : path.slice(view.base.length + 1));
            return target ? `${this.markdownUrl(view, target)}${anchor ? `#${anchor}` : ""}` : undefined;
          },
          (src) => resolveFileLink(src, tree),
        );
      });
      bodies.set(key, body);
      const pending = body;
      body.then(
        (text) => {
          if (bodies.get(key) === pending) bodies.set(key, pending, text.length + 1);
        },
        () => bodies.delete(key),
      );
    }
    return body;
  }

  /** A page as the Markdown document `.md` answers. */
  async pageDocument(view: SiteSpaceView, tree: TreeIndex, page: TreePage, pointer = indexPointer(this.llmsTxtUrl())): Promise<string> {
    return pageMarkdown({ title: page.title, description: page.description, body: await this.body(view, tree, page) }, pointer);
  }

  /** The page a path of the site names (segments after the base, `.md` already dropped), or null. */
  async pageAt(segments: string[]): Promise<{ view: SiteSpaceView; tree: TreeIndex; page: TreePage } | null> {
    const route = routeOf(this.request.map, segments);
    if (!route) return null;
    const tree = await this.service.publishedContent.tree(route.siteSpace.spaceId, route.siteSpace.revisionId);
    const page = route.pagePath ? tree.byPath.get(route.pagePath) : tree.first;
    return page ? { view: route.siteSpace, tree, page } : null;
  }

  /** The site's index: an H2 per site space (titled by its section too when a section has several), its visible pages. */
  async index(): Promise<{ index: LlmsIndex; pages: Array<{ view: SiteSpaceView; tree: TreeIndex; page: TreePage }> }> {
    const { map, site } = this.request;
    const groups: LlmsGroup[] = [];
    const pages: Array<{ view: SiteSpaceView; tree: TreeIndex; page: TreePage }> = [];
    const sectionOf = new Map(map.sections.flatMap((section) => section.siteSpaces.map((view) => [view, section] as const)));
    for (const view of map.all) {
      const tree = await this.service.publishedContent.tree(view.spaceId, view.revisionId);
      const section = sectionOf.get(view);
      const title = section ? (section.siteSpaces.length > 1 ? `${section.title}: ${view.title}` : section.title) : view.title;
      const listed = tree.order.filter((page) => !page.noIndex && !page.noRobotsIndex);
      groups.push({ title, entries: listed.map((page) => ({ title: page.title, url: this.markdownUrl(view, page), description: page.description })) });
      for (const page of listed) pages.push({ view, tree, page });
    }
    const home = pages[0];
    const description = map.homeSection?.doc.description || home?.page.description;
    return { index: { title: site.title, description, groups }, pages };
  }
}

/** Segments of a path for a `.md` URL: the last one without its `.md`; null when the path is not one. */
export function markdownPath(rest: string[]): string[] | null {
  const last = rest[rest.length - 1];
  if (!last || !last.endsWith(".md") || last.length <= 3) return null;
  return [...rest.slice(0, -1), last.slice(0, -3)];
}

/** An answer sent as a stream of bytes (llms-full.txt): its status and headers, then its body. */
export interface StreamedAnswer {
  head: ServeHead;
  stream: Readable;
}

/** The AI answer for this request, or null when it is one of the site's ordinary pages. */
export async function serveAi(service: SitesService, request: AiRequest): Promise<ServeAnswer | StreamedAnswer | null> {
  const { rest, respond, params } = request;
  const ai = new SiteAi(service, request);
  if (rest.length === MCP_SEGMENTS.length && rest.every((segment, i) => segment === MCP_SEGMENTS[i])) return serveSiteMcp(ai, params.mcp);
  // A POST anywhere else on the site (the gateway forwards only those ending in ~gitbook/mcp).
  if (params.mcp) return serveSiteMcp(ai, undefined);
  if (rest.length === 1 && rest[0] === "llms.txt") {
    const { index } = await ai.index();
    return respond(200, MARKDOWN_TEXT, llmsTxt(index));
  }
  if (rest.length === 1 && rest[0] === "llms-full.txt") {
    // The head as for any answer (caching by visibility, noindex), without an ETag: the body is not known
    // before it is sent. `If-None-Match: *` still gets its 304.
    const head = respond(200, MARKDOWN_TEXT, "");
    if (head.status !== 200) return head;
    delete head.headers.ETag;
    const { index, pages } = await ai.index();
    return { head, stream: Readable.from(llmsFullChunks(ai, index, pages), { objectMode: false }) };
  }
  const mdPath = markdownPath(rest);
  const wantsMarkdown = mdPath !== null || (params.markdown === true && !rest.some((segment) => segment.startsWith("~")));
  if (!wantsMarkdown) return null;
  const found = await ai.pageAt(mdPath ?? rest);
  if (!found) {
    // A `.md` of no page: a Markdown reader gets a plain 404 (an Accept: text/markdown request of a
    // path without a page falls through to the site's own answer: redirects, the 404 page).
    return mdPath ? respond(404, TEXT, "There is no page at this address.\n", true) : null;
  }
  const noindex = !!(found.page.noIndex || found.page.noRobotsIndex);
  return withVaryAccept(respond(200, MARKDOWN, await ai.pageDocument(found.view, found.tree, found.page), noindex));
}

/**
 * llms-full.txt's bytes: the header, then each page as it is read (a few at a time, in order), each piece in
 * chunks of whole UTF-8 characters, until the bound (LLMS_FULL_MAX_BYTES, LLMS_FULL_MAX_PAGES, LLMS_FULL_MAX_MS)
 * or a page that cannot be read, where the closing note ends it.
 */
async function* llmsFullChunks(ai: SiteAi, index: LlmsIndex, pages: Array<{ view: SiteSpaceView; tree: TreeIndex; page: TreePage }>): AsyncGenerator<Buffer> {
  const writer = new LlmsFullWriter(index, ai.llmsTxtUrl());
  const deadline = Date.now() + LLMS_FULL_MAX_MS;
  const listed = pages.slice(0, LLMS_FULL_MAX_PAGES + 1);
  yield* utf8Chunks(Buffer.from(writer.take(), "utf8"));
  for (let at = 0; at < listed.length && !writer.truncated; at += LLMS_FULL_BATCH) {
    const batch = listed.slice(at, at + LLMS_FULL_BATCH);
    const bodies = Date.now() < deadline ? await Promise.all(batch.map(({ view, tree, page }) => ai.body(view, tree, page))).catch(() => null) : null;
    if (!bodies) writer.close();
    else {
      for (const [i, { view, page }] of batch.entries()) {
        const added = at + i < LLMS_FULL_MAX_PAGES ? writer.add({ title: page.title, description: page.description, body: bodies[i] }, ai.markdownUrl(view, page)) : writer.close();
        if (!added) break;
      }
    }
    yield* utf8Chunks(Buffer.from(writer.take(), "utf8"));
  }
}

/** llms.txt and llms-full.txt are served as text/plain (what llmstxt.org's readers fetch), in UTF-8. */
const MARKDOWN_TEXT = TEXT;

function withVaryAccept(answer: ServeAnswer): ServeAnswer {
  const vary = answer.headers.Vary;
  answer.headers.Vary = typeof vary === "string" && vary ? `${vary}, Accept` : "Accept";
  return answer;
}

/**
 * An HTML page's answer with the links to the site's llms.txt and llms-full.txt, and `Vary: Accept`
 * (the same URL answers Markdown to `Accept: text/markdown`).
 */
export function withAiLinks(answer: ServeAnswer, base: string): ServeAnswer {
  const type = answer.headers["Content-Type"];
  if (typeof type !== "string" || !type.startsWith("text/html") || (answer.status !== 200 && answer.status !== 304)) return answer;
  answer.headers.Link = `<${base}/llms.txt>; rel="llms-txt", <${base}/llms-full.txt>; rel="llms-full-txt"`;
  return withVaryAccept(answer);
}
