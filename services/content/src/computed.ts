// Computed pages: a page whose `computed` source is `builtin:openapi` shows, when its revision is read
// with `computed=true` (the default), the pages the openapi service renders from the spec it names:
// the page's own body is the spec's overview and one child page per tag follows its stored children.
// Nothing is stored: the evaluated tree is made per read, from renders cached here for a minute and
// dropped as soon as the spec gets a new version or is deleted (openapi's events).
import type { ServiceBroker } from "moleculer";
import { call } from "@docshelf/contracts/action";
import { renderSpecPages, type SpecPages } from "@docshelf/contracts/openapi";
import type { RevisionDoc } from "./models";
import { walk, type PageNode } from "./revisions/tree";

/** A revision as read with computed pages evaluated. */
export interface ComputedView {
  /** The same revision (same id) with every computed page replaced by its evaluated form. */
  revision: RevisionDoc;
  /** Bodies of the evaluated pages (computed pages and the pages made for them), by page id. */
  bodies: Map<string, string>;
  index: Map<string, PageNode>;
  /** Names the spec versions used, for cache keys of serialized answers. */
  variant: string;
}

type Render = { value: SpecPages | null; expires: number };

const CACHE_MS = 60_000;
const CACHE_MAX = 500;
const renders = new WeakMap<ServiceBroker, Map<string, Render>>();
const withComputed = new WeakMap<RevisionDoc, boolean>();

function cacheOf(broker: ServiceBroker): Map<string, Render> {
  let cache = renders.get(broker);
  if (!cache) renders.set(broker, (cache = new Map()));
  return cache;
}

function hasComputedPages(revision: RevisionDoc): boolean {
  let known = withComputed.get(revision);
  if (known === undefined) {
    known = false;
    for (const { page } of walk(revision.pages)) if (page.computed) known = true;
    withComputed.set(revision, known);
  }
  return known;
}

function placeholder(slug: string, reason: "missing" | "unavailable"): string {
  return reason === "missing"
    ? `_The OpenAPI specification \`${slug}\` does not exist in this organization or has no processed version yet; its operations appear here once it has one._\n`
    : `_The OpenAPI specification \`${slug}\` could not be read right now; try again shortly._\n`;
}

/** The rendered spec (cached), null when it does not exist, "unavailable" when the openapi service did not answer. */
async function renderOf(broker: ServiceBroker, organizationId: string, slug: string, models: boolean): Promise<SpecPages | null | "unavailable"> {
  const cache = cacheOf(broker);
  const key = `${organizationId}:${slug}:${models}`;
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.value;
  let value: SpecPages | null;
  try {
    value = await call(broker, renderSpecPages, { organizationId, slug, models });
  } catch (err) {
    broker.logger.warn({ organizationId, slug, error: String((err as Error)?.message) }, "an OpenAPI spec of a computed page could not be rendered");
    return "unavailable";
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, { value, expires: Date.now() + CACHE_MS });
  return value;
}

/** Drops the cached renders of one spec (all `models` variants): openapi broadcasts its new versions and its deletion. */
export function forgetRenders(broker: ServiceBroker, organizationId: string, slug: string): void {
  const cache = cacheOf(broker);
  for (const models of [true, false]) cache.delete(`${organizationId}:${slug}:${models}`);
}

/**
 * The revision with its computed pages evaluated, or null when it has none (the common case costs one
 * walk per revision, remembered). A missing spec gives its page a placeholder body and no children.
 */
export async function computedView(broker: ServiceBroker, organizationId: string, revision: RevisionDoc): Promise<ComputedView | null> {
  if (!hasComputedPages(revision)) return null;
  const bodies = new Map<string, string>();
  const versions: string[] = [];
  const evaluate = async (pages: PageNode[]): Promise<PageNode[]> => {
    const out: PageNode[] = [];
    for (const page of pages) {
      const children = await evaluate(page.pages);
      if (!page.computed) {
        out.push(children === page.pages ? page : { ...page, pages: children });
        continue;
      }
      const { computed, documentId: _stored, ...rest } = page;
      const slug = computed.dependencies.spec.ref.spec;
      const rendered = await renderOf(broker, organizationId, slug, computed.props.models === true);
      const node: PageNode = { ...rest, pages: [...children] };
      if (rendered === null || rendered === "unavailable") {
        bodies.set(page.id, placeholder(slug, rendered === null ? "missing" : "unavailable"));
        versions.push(`${slug}:${rendered === null ? "none" : "unavailable"}`);
      } else {
        versions.push(`${slug}:${rendered.spec.lastVersion}`);
        bodies.set(page.id, rendered.markdown);
        const taken = new Set(children.map((c) => c.slug));
        for (const made of rendered.pages) {
          let childSlug = made.slug;
          for (let n = 2; taken.has(childSlug); n++) childSlug = `${made.slug}-${n}`;
          taken.add(childSlug);
          const child: PageNode = {
            id: `${page.id}-${childSlug}`.slice(0, 64),
            type: "document",
            title: made.title || childSlug,
            slug: childSlug,
            path: `${page.path}/${childSlug}`,
            createdAt: page.createdAt,
            updatedAt: page.updatedAt,
            pages: [],
          };
          if (made.description) child.description = made.description;
          bodies.set(child.id, made.markdown);
          node.pages.push(child);
        }
      }
      out.push(node);
    }
    return out;
  };
  const pages = await evaluate(revision.pages);
  const evaluated: RevisionDoc = { ...revision, pages };
  const index = new Map<string, PageNode>();
  for (const { page } of walk(pages)) index.set(page.id, page);
  return { revision: evaluated, bodies, index, variant: `computed:${versions.join(",")}` };
}

/** What a read with the `computed` flag sees: null with `computed=false` (pages as stored) or nothing to evaluate. */
export function viewFor(broker: ServiceBroker, space: { organizationId: string }, revision: RevisionDoc, computed: boolean | undefined): Promise<ComputedView | null> {
  return computed === false ? Promise.resolve(null) : computedView(broker, space.organizationId, revision);
}
