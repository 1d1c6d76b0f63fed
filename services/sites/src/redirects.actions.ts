// Site redirects (GitBook's createSiteRedirect, bulkUpsertSiteRedirects, listSiteRedirects,
// updateSiteRedirectById, deleteSiteRedirectById, getSiteRedirectBySource); serving them is in serve/.
import { callerOf } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, ConflictError, NotFoundError } from "@docshelf/errors";
import { decodePageToken, DEFAULT_PAGE_SIZE, encodePageToken, listPage, listParams } from "@docshelf/list";
import { newId, op, type Filter, type Sort } from "@docshelf/store";
import { gitRedirectsOf, isGitRedirectId } from "./git-redirects";
import { idRule, urlRule } from "@docshelf/validation";
import type { RedirectDestination, RedirectDoc, SiteDoc } from "./models";
import { matchRedirect, MAX_SOURCE, SOURCE_PATTERN, withSuffix } from "./redirects";
import { siteRef, type SiteRef } from "./params";
import type { PublishedHead } from "./serve/content";
import { pageUrl } from "./serve/content";
import { buildSiteMap, type SiteMap } from "./serve/site-map";
import type { Ctx, SitesActions, SitesService } from "./service-types";
import { sitePathName } from "./structure";

const MAX_BULK = 500;
const sourceRule = {
  type: "string",
  max: MAX_SOURCE,
  pattern: SOURCE_PATTERN,
  messages: { stringPattern: "The 'source' field must be a path such as /old/page, optionally ending in /* or *." },
} as const;
const destinationRule = {
  type: "object",
  strict: "remove",
  props: {
    kind: { type: "enum", values: ["site-section", "site-space", "site-page", "external", "path"] },
    siteSectionId: { type: "string", optional: true, min: 1, max: 64 },
    siteSpaceId: { type: "string", optional: true, min: 1, max: 64 },
    pageId: { type: "string", optional: true, min: 1, max: 64 },
    url: urlRule(2048, { optional: true }),
    spaceId: { type: "string", optional: true, min: 1, max: 64 },
    path: { type: "string", optional: true, max: 1024 },
  },
} as const;

interface DestinationInput {
  kind: RedirectDestination["kind"] | "path";
  siteSectionId?: string;
  siteSpaceId?: string;
  pageId?: string;
  url?: string;
  spaceId?: string;
  path?: string;
}

export interface RedirectResource {
  object: "site-redirect";
  id: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
  /** Only on redirects of a space's `.gitbook.yaml` (read-only): the space and the file it names. */
  origin?: { kind: "git-sync"; spaceId: string; file: string };
}

function present(doc: RedirectDoc): RedirectResource {
  const out: RedirectResource = {
    object: "site-redirect",
    id: doc.id,
    source: doc.source,
    draft: doc.draft,
    captureWildcard: doc.captureWildcard,
    permanent: doc.permanent,
    destination: doc.destination,
    createdAt: doc.createdAt,
  };
  if (doc.updatedAt) out.updatedAt = doc.updatedAt;
  if (doc.origin) out.origin = { ...doc.origin };
  return out;
}

/** The stored destination; 400 naming the field when it is incomplete or names nothing of the site. */
async function checkDestination(service: SitesService, siteId: string, input: DestinationInput, field: string): Promise<RedirectDestination> {
  const need = (name: keyof DestinationInput): string => {
    const value = input[name];
    if (typeof value !== "string" || !value) throw new BadRequestError(`The '${field}.${name}' field is required for a ${input.kind} destination.`);
    return value;
  };
  switch (input.kind) {
    case "external":
      return { kind: "external", url: need("url") };
    case "site-section": {
      const siteSectionId = need("siteSectionId");
      if (!(await service.sections.findOne({ id: siteSectionId, siteId }))) throw new BadRequestError(`The '${field}.siteSectionId' field names no section of the site.`);
      return { kind: "site-section", siteSectionId };
    }
    case "site-space":
    case "site-page": {
      const siteSpaceId = need("siteSpaceId");
      if (!(await service.siteSpaces.findOne({ id: siteSpaceId, siteId }))) throw new BadRequestError(`The '${field}.siteSpaceId' field names no site space of the site.`);
      return input.kind === "site-space" ? { kind: "site-space", siteSpaceId } : { kind: "site-page", siteSpaceId, pageId: need("pageId") };
    }
    case "path":
      return resolvePath(service, siteId, need("spaceId"), need("path"), field);
    default:
      throw new BadRequestError(`The '${field}.kind' field must be site-section, site-space, site-page, external or path.`);
  }
}

/**
 * GitBook's input destination `{kind: "path", spaceId, path}`: the page at that path in the published
 * revision of the space, on the site's first site space (in the site's order) that shows the space, stored
 * and answered as the `site-page` it resolves to (as GitBook does). A space the site does not link, a
 * space with nothing published or a path that is no page of its revision: 400 naming the field.
 */
async function resolvePath(service: SitesService, siteId: string, spaceId: string, path: string, field: string): Promise<RedirectDestination> {
  const linked = (await service.siteSpaces.find({ siteId, spaceId })).sort((a, b) => a.position - b.position);
  if (!linked.length) throw new BadRequestError(`The '${field}.spaceId' field names no space of the site.`);
  const [head] = await service.publishedContent.heads([spaceId]);
  if (!head?.revisionId) throw new BadRequestError(`The '${field}.spaceId' field names a space with no published content.`);
  const tree = await service.publishedContent.tree(spaceId, head.revisionId);
  let wanted = path.split(/[?#]/)[0].replace(/^\/+|\/+$/g, "").replace(/\.md$/i, "").replace(/(^|\/)README$/i, "");
  try {
    wanted = decodeURIComponent(wanted);
  } catch {
    throw new BadRequestError(`The '${field}.path' field is not a valid path.`);
  }
  const page = wanted ? tree.byPath.get(wanted) : tree.first;
  if (!page) throw new BadRequestError(`The '${field}.path' field names no page of the space's published content.`);
  return { kind: "site-page", siteSpaceId: linked[0].id, pageId: page.id };
}

/** The site as an anonymous reader maps it (or with every site space, `ignoreConditions`), under its `/sites/` URL path on this instance. */
async function siteMapOf(service: SitesService, site: SiteDoc, base: string, options: { ignoreConditions?: boolean } = {}): Promise<SiteMap> {
  const [sections, groups, siteSpaces] = await Promise.all([
    service.sections.find({ siteId: site.id }),
    service.groups.find({ siteId: site.id }),
    service.siteSpaces.find({ siteId: site.id }),
  ]);
  const heads = new Map<string, PublishedHead>((await service.publishedContent.heads([...new Set(siteSpaces.map((s) => s.spaceId))])).map((h) => [h.spaceId, h]));
  return buildSiteMap({ site, sections, groups, siteSpaces }, heads, {}, base, options);
}

/** The site's `/sites/…` URL path on this instance. */
function instanceBase(service: SitesService, site: SiteDoc): string {
  const publicPath = new URL(configFor(service.broker).publicUrl).pathname.replace(/\/+$/, "");
  return `${publicPath}/sites/${sitePathName(site)}`;
}

/** The Git redirects of the site's published site spaces (every one, conditions aside), in the site's order. */
async function siteGitRedirects(service: SitesService, site: SiteDoc): Promise<RedirectDoc[]> {
  const base = instanceBase(service, site);
  const map = await siteMapOf(service, site, base, { ignoreConditions: true });
  return gitRedirectsOf(service.broker, site, map.all, base, (spaceId, revisionId) => service.publishedContent.pageIds(spaceId, revisionId), service.logger);
}

/** 409 for a redirect of a space's `.gitbook.yaml`: it changes in the repository, by the next import. */
function refuseGitRedirect(id: string): void {
  if (isGitRedirectId(id)) {
    throw new ConflictError(`Redirect ${id} comes from a space's .gitbook.yaml (Git sync): change it in the repository and import again.`);
  }
}

/** Git redirects are listed after the site's own: their page tokens hold an offset under this order. */
const GIT_TOKEN_SORT: Sort = [["gitRedirect", 1]];
const GIT_TOKEN_ID = "git-redirects";

function gitOffsetOf(page: string | undefined): number | null {
  if (!page) return null;
  let cursor;
  try {
    cursor = decodePageToken(GIT_TOKEN_SORT, page);
  } catch {
    return null;
  }
  const offset = cursor.values[0];
  if (cursor.id !== GIT_TOKEN_ID || typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) throw new BadRequestError("Invalid parameters: 'page' is not a page token this API issued.");
  return offset;
}

/**
 * Where a redirect sends a visitor of the site: a URL path of the site (under `map.base`) or an
 * external URL; null when its destination is not published or not visible to them.
 */
export async function redirectTarget(service: SitesService, map: SiteMap, redirect: RedirectDoc, suffix: string): Promise<string | null> {
  const dest = redirect.destination;
  let target: string | null = null;
  if (dest.kind === "external") target = dest.url;
  else if (dest.kind === "site-section") target = map.sections.find((s) => s.doc.id === dest.siteSectionId)?.base ?? null;
  else {
    const view = map.all.find((v) => v.doc.id === dest.siteSpaceId);
    if (view && dest.kind === "site-space") target = view.base;
    else if (view && dest.kind === "site-page") {
      const tree = await service.publishedContent.tree(view.spaceId, view.revisionId);
      const page = [...tree.byPath.values()].find((p) => p.id === dest.pageId);
      target = page ? pageUrl(view.base, tree, page) : null;
    }
  }
  if (target === null) return null;
  return withSuffix(target || "/", redirect, suffix);
}

async function loadRedirect(service: SitesService, siteId: string, redirectId: string): Promise<RedirectDoc> {
  const doc = await service.redirects.findOne({ id: redirectId, siteId });
  if (!doc) throw new NotFoundError(`Redirect ${redirectId} was not found on the site.`);
  return doc;
}

async function insertRedirect(service: SitesService, doc: RedirectDoc): Promise<RedirectDoc> {
  try {
    return await service.redirects.insert(doc);
  } catch (err) {
    if (err instanceof ConflictError) throw new ConflictError(`The site already has a ${doc.draft ? "draft" : "live"} redirect from ${doc.source}.`);
    throw err;
  }
}

type BulkItem =
  | { source: string; intent: "publish" }
  | { source: string; intent?: "live" | "draft"; captureWildcard?: boolean; permanent?: boolean; destination?: DestinationInput | null };
type BulkResult =
  | { status: "created" | "updated" | "published"; source: string; draft: boolean; id: string }
  | { status: "deleted"; source: string; draft: boolean }
  | { status: "error"; source: string; draft: boolean; error: string };

export const redirectActions: SitesActions = {
  /** POST …/redirects → 201 — create or admin. */
  createRedirect: {
    params: {
      ...siteRef,
      source: sourceRule,
      destination: destinationRule,
      captureWildcard: { type: "boolean", optional: true },
      draft: { type: "boolean", optional: true },
      permanent: { type: "boolean", optional: true },
    },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { source: string; destination: DestinationInput; captureWildcard?: boolean; draft?: boolean; permanent?: boolean }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const destination = await checkDestination(this, site.id, ctx.params.destination, "destination");
      const doc: RedirectDoc = {
        id: newId(),
        siteId: site.id,
        source: ctx.params.source,
        draft: ctx.params.draft ?? false,
        captureWildcard: ctx.params.captureWildcard ?? false,
        permanent: ctx.params.permanent ?? false,
        destination,
        createdAt: new Date().toISOString(),
      };
      await insertRedirect(this, doc);
      ctx.meta.$statusCode = 201;
      return present(doc);
    },
  },

  /** GET …/redirects `?search&draft&orderBy&page&limit` — members with a role who see the site. */
  listRedirects: {
    params: {
      ...siteRef,
      ...listParams,
      search: { type: "string", optional: true, max: MAX_SOURCE },
      draft: { type: "boolean", optional: true, convert: true },
      orderBy: { type: "enum", values: ["createdAt", "updatedAt", "source"], optional: true },
    },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { page?: string; limit?: number; search?: string; draft?: boolean; orderBy?: "createdAt" | "updatedAt" | "source" }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const draft = ctx.params.draft ?? false;
      const filter: Filter = { siteId: site.id, draft };
      if (ctx.params.search) filter.source = op.contains(ctx.params.search);
      const orderBy = ctx.params.orderBy ?? "createdAt";
      // `updatedAt` falls back to the creation date: a never-updated redirect sorts by when it was made.
      const sort: Array<[string, 1 | -1]> = orderBy === "source" ? [["source", 1]] : orderBy === "updatedAt" ? [["updatedAt", -1], ["createdAt", -1]] : [["createdAt", -1]];
      // The space's Git redirects (always live) come after the site's own, in the same order among themselves.
      const search = ctx.params.search?.toLowerCase();
      // Case-insensitive, as the store's `contains`.
      const git = draft ? [] : (await siteGitRedirects(this, site)).filter((r) => !search || r.source.toLowerCase().includes(search));
      if (orderBy === "source") git.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
      else git.sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : 0));
      const limit = ctx.params.limit ?? DEFAULT_PAGE_SIZE;
      const gitPage = (offset: number, room: number, storedCount: number, items: RedirectResource[]) => {
        const slice = git.slice(offset, offset + room);
        const out: { items: RedirectResource[]; count: number; next?: { page: string } } = { items: [...items, ...slice.map(present)], count: storedCount + git.length };
        if (offset + room < git.length) out.next = { page: encodePageToken(GIT_TOKEN_SORT, { values: [offset + room], id: GIT_TOKEN_ID }) };
        return out;
      };
      const gitOffset = gitOffsetOf(ctx.params.page);
      if (gitOffset !== null) return gitPage(gitOffset, limit, await this.redirects.count(filter), []);
      const stored = await listPage(this.redirects, filter, { page: ctx.params.page, limit, sort }, async (docs) => docs.map(present));
      if (stored.next || !git.length) return { ...stored, count: stored.count + git.length };
      return gitPage(0, limit - stored.items.length, stored.count, stored.items);
    },
  },

  /** PATCH …/redirects/:siteRedirectId — create or admin; `draft: false` promotes a draft to live. */
  updateRedirect: {
    params: {
      ...siteRef,
      siteRedirectId: idRule,
      source: { ...sourceRule, optional: true },
      destination: { ...destinationRule, optional: true },
      captureWildcard: { type: "boolean", optional: true },
      draft: { type: "boolean", optional: true },
      permanent: { type: "boolean", optional: true },
    },
    async handler(
      this: SitesService,
      ctx: Ctx<SiteRef & { siteRedirectId: string; source?: string; destination?: DestinationInput; captureWildcard?: boolean; draft?: boolean; permanent?: boolean }>,
    ) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      refuseGitRedirect(ctx.params.siteRedirectId);
      const doc = await loadRedirect(this, site.id, ctx.params.siteRedirectId);
      const set: Partial<RedirectDoc> = { updatedAt: new Date().toISOString() };
      if (ctx.params.destination) set.destination = await checkDestination(this, site.id, ctx.params.destination, "destination");
      for (const field of ["source", "captureWildcard", "draft", "permanent"] as const) if (ctx.params[field] !== undefined) (set as Record<string, unknown>)[field] = ctx.params[field];
      let updated: RedirectDoc | null;
      try {
        updated = await this.redirects.updateOne({ id: doc.id }, { $set: set });
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(`The site already has a ${(set.draft ?? doc.draft) ? "draft" : "live"} redirect from ${set.source ?? doc.source}.`);
        throw err;
      }
      if (!updated) throw new NotFoundError(`Redirect ${doc.id} was not found on the site.`);
      return present(updated);
    },
  },

  /** DELETE …/redirects/:siteRedirectId — create or admin; 205 deleted, 204 when there was none (GitBook's codes). */
  deleteRedirect: {
    params: { ...siteRef, siteRedirectId: idRule },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { siteRedirectId: string }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      refuseGitRedirect(ctx.params.siteRedirectId);
      ctx.meta.$statusCode = (await this.redirects.deleteOne({ id: ctx.params.siteRedirectId, siteId: site.id })) ? 205 : 204;
      return null;
    },
  },

  /**
   * GET …/redirect?source=/path — members with a role who see the site: the live redirect a visitor of
   * that path gets (wildcards included) and its target URL; 404 when none, or its destination is not published.
   */
  getRedirectBySource: {
    params: { ...siteRef, source: { type: "string", min: 1, max: 8192 }, siteShareKey: { type: "string", optional: true, max: 256 } },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { source: string }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      if (!ctx.params.source.startsWith("/")) throw new BadRequestError("The 'source' parameter must be a path starting with /.");
      const path = ctx.params.source.split("?")[0];
      const { publicUrl } = configFor(this.broker);
      const base = instanceBase(this, site);
      const map = await siteMapOf(this, site, base);
      // The site's own redirects first: one of them wins over a Git redirect of the same source.
      const redirects = [...(await this.redirects.find({ siteId: site.id, draft: false }, { limit: 10_000 })), ...(await gitRedirectsOf(this.broker, site, map.all, base, (spaceId, revisionId) => this.publishedContent.pageIds(spaceId, revisionId), this.logger))];
      const match = matchRedirect(redirects, path.length > 1 ? path.replace(/\/+$/, "") : path);
      if (!match) throw new NotFoundError(`No redirect of the site matches ${path}.`);
      const target = await redirectTarget(this, map, match.redirect, match.suffix);
      if (target === null) throw new NotFoundError(`The redirect from ${match.redirect.source} leads to nothing published.`);
      return { redirect: present(match.redirect), target: /^https?:/.test(target) ? target : `${new URL(publicUrl).origin}${target}` };
    },
  },

  /**
   * PUT …/redirects `{redirects[1..500]}` → 200 `{results}` — create or admin. Per item, by source and
   * intent (live, draft; `destination: null` deletes) or `publish` (the draft becomes the live one).
   * Items are applied in order; one that fails answers `status: "error"` and the others still apply.
   */
  bulkUpsertRedirects: {
    params: {
      ...siteRef,
      redirects: {
        type: "array",
        min: 1,
        max: MAX_BULK,
        items: {
          type: "object",
          strict: "remove",
          props: {
            source: sourceRule,
            intent: { type: "enum", values: ["live", "draft", "publish"], optional: true },
            captureWildcard: { type: "boolean", optional: true },
            permanent: { type: "boolean", optional: true },
            destination: { ...destinationRule, optional: true, nullable: true },
          },
        },
      },
    },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { redirects: BulkItem[] }>): Promise<{ results: BulkResult[] }> {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const results: BulkResult[] = [];
      for (const [i, item] of ctx.params.redirects.entries()) {
        const draft = item.intent === "draft";
        try {
          results.push(await applyBulkItem(this, site.id, item, i));
        } catch (err) {
          if ((err as { code?: number })?.code !== 400 && (err as { code?: number })?.code !== 409) throw err;
          results.push({ status: "error", source: item.source, draft, error: (err as Error).message });
        }
      }
      return { results };
    },
  },
};

async function applyBulkItem(service: SitesService, siteId: string, item: BulkItem, i: number): Promise<BulkResult> {
  const now = new Date().toISOString();
  if (item.intent === "publish") {
    const draft = await service.redirects.findOne({ siteId, source: item.source, draft: true });
    if (!draft) throw new BadRequestError(`The 'redirects[${i}].source' field names no draft redirect to publish.`);
    await service.redirects.deleteOne({ siteId, source: item.source, draft: false });
    const live = await service.redirects.updateOne({ id: draft.id }, { $set: { draft: false, updatedAt: now } });
    return { status: "published", source: item.source, draft: false, id: (live ?? draft).id };
  }
  const draft = item.intent === "draft";
  const existing = await service.redirects.findOne({ siteId, source: item.source, draft });
  if (item.destination === null) {
    if (existing) await service.redirects.deleteOne({ id: existing.id });
    return { status: "deleted", source: item.source, draft };
  }
  if (!item.destination) throw new BadRequestError(`The 'redirects[${i}].destination' field is required (null deletes the redirect).`);
  const destination = await checkDestination(service, siteId, item.destination, `redirects[${i}].destination`);
  if (existing) {
    const set: Partial<RedirectDoc> = { destination, updatedAt: now };
    if (item.captureWildcard !== undefined) set.captureWildcard = item.captureWildcard;
    if (item.permanent !== undefined) set.permanent = item.permanent;
    await service.redirects.updateOne({ id: existing.id }, { $set: set });
    return { status: "updated", source: item.source, draft, id: existing.id };
  }
  const doc: RedirectDoc = { id: newId(), siteId, source: item.source, draft, captureWildcard: item.captureWildcard ?? false, permanent: item.permanent ?? false, destination, createdAt: now };
  await insertRedirect(service, doc);
  return { status: "created", source: item.source, draft, id: doc.id };
}
