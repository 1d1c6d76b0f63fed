// What a published site reads from the content service, and the caches that keep a warm page cheap:
// page trees by revision (revisions never change) and rendered bodies by revision, page and base URL.
import { call, type ActionCaller } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import type { PublishedHead, PublishedTree, PublishedTreePage as TreePage, SearchHit } from "@docshelf/contracts/content";
import { readJson } from "@docshelf/runtime";
import { Lru } from "./lru";
import { consoleHref } from "./api-console";
import * as openapi from "@docshelf/contracts/openapi";
import { operationFromSpec, renderMarkdown, type RenderedPage } from "@docshelf/document";

/** What `content.publishedHeads`, `content.publishedTree` (its pages) and `content.publishedSearch` answer. */
export type { PublishedHead, SearchHit, TreePage };

/** A revision's tree indexed for serving: pages by path, reading order, parents. */
export class TreeIndex {
  readonly byPath = new Map<string, TreePage>();
  readonly byId = new Map<string, TreePage>();
  readonly parentOf = new Map<string, TreePage | undefined>();
  /** Visible pages (not hidden, nor under a hidden one) in reading order: navigation, previous/next, sitemap. */
  readonly order: TreePage[] = [];
  private readonly position = new Map<string, number>();

  /** Download URLs of the revision's files, by file name. */
  readonly files = new Map<string, string>();

  constructor(
    readonly revisionId: string,
    readonly variables: Record<string, string>,
    readonly pages: TreePage[],
    files: Array<{ name: string; url: string }> = [],
    /** The Git ref Git sync imported the revision from. */
    readonly gitRef?: string,
  ) {
    for (const file of files) if (!this.files.has(file.name)) this.files.set(file.name, file.url);
    const visit = (list: TreePage[], parent: TreePage | undefined, hidden: boolean) => {
      for (const page of list) {
        this.byPath.set(page.path, page);
        this.byId.set(page.id, page);
        this.parentOf.set(page.id, parent);
        const pageHidden = hidden || !!page.hidden;
        if (!pageHidden) {
          this.position.set(page.id, this.order.length);
          this.order.push(page);
        }
        visit(page.pages, page, pageHidden);
      }
    };
    visit(pages, undefined, false);
  }

  /** The page a site space's root shows: its first visible page. */
  get first(): TreePage | undefined {
    return this.order[0];
  }

  neighbours(page: TreePage): { previous?: TreePage; next?: TreePage } {
    const at = this.position.get(page.id);
    if (at === undefined) return {};
    return { previous: this.order[at - 1], next: this.order[at + 1] };
  }

  /** The page and its ancestors, root first. */
  trail(page: TreePage): TreePage[] {
    const trail: TreePage[] = [];
    for (let current: TreePage | undefined = page; current; current = this.parentOf.get(current.id)) trail.unshift(current);
    return trail;
  }
}


/** An API block naming a hosted spec: `{% openapi-operation spec="slug" … %}` (and the older block names). */
const API_BLOCK_SPEC = /\{%\s*(openapi-operation|openapi|swagger|openapi-webhook)\b[^%]*?\bspec="([a-z0-9][a-z0-9_-]{0,99})"/gi;
/** An API block naming its spec by URL (`{% openapi src="https://…" … %}`): a spec the organization registered with that URL. */
const API_BLOCK_SRC = /\{%\s*(openapi-operation|openapi|swagger|openapi-webhook)\b[^%]*?\bsrc="(https?:\/\/[^"\s]{1,2040})"/gi;
/** At most this many specs are read for one page. */
const MAX_PAGE_SPECS = 5;
/** How long a page with API blocks is kept rendered before its specs are read again (a spec changes apart from pages). */
const SPEC_BODY_MS = 60_000;

export class PublishedContent {
  private readonly trees = new Lru<string, Promise<TreeIndex>>(32);
  /** Rendered bodies: at most 4,000, and about 64 MB of HTML (weighed once rendered). */
  private readonly bodies = new Lru<string, Promise<RenderedPage>>(4000, 64 * 1024 * 1024);
  /** Bodies with API blocks: when each is rendered again (its specs read anew). */
  private readonly specBodies = new Map<string, number>();
  /** Hosted specs' documents, by organization and slug, shared by the pages that name them. */
  private readonly specDocuments = new Map<string, { expires: number; document: Promise<{ slug: string; document: Record<string, unknown> } | null> }>();

  constructor(private readonly caller: ActionCaller) {}

  heads(spaceIds: string[]): Promise<PublishedHead[]> {
    return spaceIds.length ? call(this.caller, content.publishedHeads, { spaceIds }) : Promise.resolve([]);
  }

  tree(spaceId: string, revisionId: string): Promise<TreeIndex> {
    const key = `${spaceId}:${revisionId}`;
    let tree = this.trees.get(key);
    if (!tree) {
      tree = call(this.caller, content.publishedTree, { spaceId, revisionId })
        .then((answer) => readJson<PublishedTree>(answer))
        .then((t) => new TreeIndex(t.revisionId, t.variables, t.pages, t.files, t.gitRef));
      this.trees.set(key, tree);
      // A failed read is not kept: the next request tries again.
      tree.catch(() => this.trees.delete(key));
    }
    return tree;
  }

  /**
   * A page body as HTML, rendered once per revision, page and site-space URL (links between pages
   * depend on it); a new revision is a new key, so nothing needs invalidating.
   */
  body(spaceId: string, tree: TreeIndex, page: TreePage, linkBase: string, organizationId?: string): Promise<RenderedPage> {
    const key = `${tree.revisionId}:${page.id}:${linkBase}`;
    let body = this.bodies.get(key);
    const stale = this.specBodies.get(key);
    if (body && stale !== undefined && stale <= Date.now()) {
      // A page with API blocks shows its specs as they are now: rendered again once SPEC_BODY_MS have passed.
      this.bodies.delete(key);
      body = undefined;
    }
    if (!body) {
      body = call(this.caller, content.publishedPage, { spaceId, revisionId: tree.revisionId, pageId: page.id }).then(async (answer) => {
        const markdown = answer?.markdown ?? "";
        const { specs, sources } = organizationId ? await this.specsOf(organizationId, markdown) : { specs: new Map<string, Record<string, unknown>>(), sources: new Map<string, string>() };
        if (specs.size) {
          this.specBodies.delete(key);
          this.specBodies.set(key, Date.now() + SPEC_BODY_MS);
          // Bounded like the bodies: the oldest go, with their bodies (rendered again when next asked).
          while (this.specBodies.size > 4000) {
            const oldest = this.specBodies.keys().next().value as string;
            this.specBodies.delete(oldest);
            this.bodies.delete(oldest);
          }
        }
        return renderMarkdown(markdown, {
          spaceVars: tree.variables,
          pageVars: page.variables ?? {},
          resolveLink: (href) => resolvePageLink(href, page, tree, linkBase),
          resolveImage: (src) => resolveFileLink(src, tree),
          describeLink: (href) => describePageLink(href, page, tree, linkBase),
          apiConsoleHref: (operation) => consoleHref(pageUrl(linkBase, tree, page), operation),
          apiOperation: ({ spec, method, path }) => operationFromSpec(specs.get(spec), method, path),
          apiSpecOfSource: (src) => sources.get(src),
          reusableContent: (ref) => answer?.includes?.[ref.reusableContent],
        });
      });
      this.bodies.set(key, body);
      const pending = body;
      body.then(
        // Weighed by its size once known (UTF-16 code units: close enough to bytes for a budget).
        (rendered) => {
          if (this.bodies.get(key) === pending) this.bodies.set(key, pending, rendered.html.length + 1);
        },
        () => this.bodies.delete(key),
      );
    }
    return body;
  }

  /**
   * The hosted specs (by slug) the page's API blocks name, at most MAX_PAGE_SPECS of them: by slug (`spec=`), or by
   * the URL the organization registered one with (`src=`, `sources` telling which slug that is). A spec that cannot
   * be read is left out; a URL no spec of the organization was registered with is never fetched from here.
   */
  private async specsOf(organizationId: string, markdown: string): Promise<{ specs: Map<string, Record<string, unknown>>; sources: Map<string, string> }> {
    const named: Array<{ slug: string } | { url: string }> = [];
    const seen = new Set<string>();
    for (const [pattern, kind] of [[API_BLOCK_SPEC, "slug"], [API_BLOCK_SRC, "url"]] as const) {
      for (const m of markdown.matchAll(pattern)) {
        if (named.length >= MAX_PAGE_SPECS) break;
        if (seen.has(`${kind}:${m[2]}`)) continue;
        seen.add(`${kind}:${m[2]}`);
        named.push(kind === "slug" ? { slug: m[2] } : { url: m[2] });
      }
    }
    const specs = new Map<string, Record<string, unknown>>();
    const sources = new Map<string, string>();
    await Promise.all(
      named.map(async (name) => {
        const found = await this.specContent(organizationId, name);
        if (!found) return;
        specs.set(found.slug, found.document);
        if ("url" in name) sources.set(name.url, found.slug);
      }),
    );
    return { specs, sources };
  }

  /** A hosted spec's document (by slug, or by the URL it was registered with), read once per SPEC_BODY_MS for every page that names it (or null). */
  private specContent(organizationId: string, name: { slug: string } | { url: string }): Promise<{ slug: string; document: Record<string, unknown> } | null> {
    const key = "slug" in name ? `${organizationId}:${name.slug}` : `${organizationId}:url:${name.url}`;
    const known = this.specDocuments.get(key);
    if (known && known.expires > Date.now()) return known.document;
    const read = "slug" in name ? call(this.caller, openapi.getSpecContent, { organizationId, slug: name.slug }) : call(this.caller, openapi.getSpecContentBySource, { organizationId, url: name.url });
    const document = read.then(
      (found) => (found ? { slug: found.slug, document: found.document } : null),
      () => null,
    );
    this.specDocuments.delete(key);
    this.specDocuments.set(key, { expires: Date.now() + SPEC_BODY_MS, document });
    while (this.specDocuments.size > 256) this.specDocuments.delete(this.specDocuments.keys().next().value as string);
    return document;
  }

  /** The ids of every page of a revision (hidden ones too). */
  async pageIds(spaceId: string, revisionId: string): Promise<Set<string>> {
    const tree = await this.tree(spaceId, revisionId);
    return new Set([...tree.byPath.values()].map((page) => page.id));
  }

  search(spaceIds: string[], query: string, limit: number): Promise<SearchHit[]> {
    return call(this.caller, content.publishedSearch, { spaceIds, query, limit });
  }
}

/** URL of a page under its site space's base: the first page is the site space's root. */
export function pageUrl(base: string, tree: TreeIndex, page: TreePage): string {
  return page.id === tree.first?.id ? base || "/" : `${base}/${page.path}`;
}

/**
 * A relative link of a page's markdown (`install.md`, `../guide/README.md`, `setup#step-2`) as the URL
 * of the page it names in the same revision; anything else (absolute, mailto, unknown) is left alone.
 */
export function resolvePageLink(href: string, from: TreePage, tree: TreeIndex, base: string): string | undefined {
  const linked = linkedPage(href, from, tree);
  return linked && `${pageUrl(base, tree, linked.page)}${linked.anchor ? `#${linked.anchor}` : ""}`;
}

/** The page of the revision a relative link names, and its anchor. */
function linkedPage(href: string, from: TreePage, tree: TreeIndex): { page: TreePage; anchor?: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/") || href.startsWith("#")) return undefined;
  const [pathPart, anchor] = href.split("#", 2);
  const dir = from.pages.length ? from.path.split("/") : from.path.split("/").slice(0, -1);
  const segments = [...dir];
  for (const segment of pathPart.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  let path = segments.join("/").replace(/\.md$/i, "");
  if (/(^|\/)readme$/i.test(path)) path = path.replace(/\/?readme$/i, "");
  const page = tree.byPath.get(path);
  return page && { page, ...(anchor ? { anchor } : {}) };
}

/** A content-ref's page card: the linked page's URL, title and description (undefined when it names no page of the revision). */
export function describePageLink(href: string, from: TreePage, tree: TreeIndex, base: string): { href: string; title: string; description?: string } | undefined {
  const linked = linkedPage(href, from, tree);
  if (!linked) return undefined;
  const url = `${pageUrl(base, tree, linked.page)}${linked.anchor ? `#${linked.anchor}` : ""}`;
  return { href: url, title: linked.page.title || "Untitled", ...(linked.page.description ? { description: linked.page.description } : {}) };
}

/** A relative image of a page (`.gitbook/assets/logo.svg`, `../assets/a b.png`) as the download URL of the revision's file of that name. */
export function resolveFileLink(src: string, tree: TreeIndex): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith("//")) return undefined;
  const name = src.split(/[?#]/, 1)[0].split("/").pop() ?? "";
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    /* keep it as written */
  }
  return tree.files.get(decoded) ?? tree.files.get(name);
}
