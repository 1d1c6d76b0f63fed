// Full-text search of a space and of an organization's spaces, over this node's in-memory index.
import { createHash } from "node:crypto";
import type { Context } from "moleculer";
import { callerOf } from "@docshelf/access";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { decodePageToken, DEFAULT_PAGE_SIZE, encodePageToken, listParams, type ListEnvelope } from "@docshelf/list";
import { op, type Filter, type Sort } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { SpaceDoc } from "../models";
import { MAX_QUERY_LENGTH, presentSearchPage, presentSearchSpace, SearchIndex } from "../search";
import { MAX_LIMIT } from "../search/query";
import type { ContentPart, Ctx } from "../service-types";

interface SearchQuery {
  query: string;
  page?: string;
  limit?: number;
}

const searchParams = { query: { type: "string", max: MAX_QUERY_LENGTH }, ...listParams } as const;

/** Spaces indexed at once while a search waits for them. */
const BUILD_CONCURRENCY = 4;

/**
 * Page tokens hold the offset of the next page, bound to the query (by a short hash): a token of one
 * query is refused for another, as a keyset token is refused for another order.
 */
const TOKEN_SORT: Sort = [["search", 1]];

function queryKey(query: string): string {
  return createHash("sha256").update(query.trim()).digest("base64url").slice(0, 16);
}

function offsetOf(query: string, page: string | undefined): number {
  if (!page) return 0;
  const cursor = decodePageToken(TOKEN_SORT, page);
  const offset = cursor.values[0];
  if (cursor.id !== queryKey(query) || typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    throw new BadRequestError("Invalid parameters: 'page' is not a page token this API issued for this query.");
  }
  return offset as number;
}

/**
 * `limit + 1` results from `offset`, the extra one telling whether there is a next page. The index
 * answers at most MAX_LIMIT at once, so at that limit the extra one is asked for separately.
 */
function withLookahead<T>(limit: number, offset: number, search: (limit: number, offset: number) => T[]): T[] {
  if (limit < MAX_LIMIT) return search(limit + 1, offset);
  const found = search(limit, offset);
  return found.length < limit ? found : [...found, ...search(1, offset + limit)];
}

/** One page of results: `limit + 1` were asked for, so one more than `limit` means a next page. */
function envelope<T, R>(query: string, found: T[], limit: number, offset: number, present: (items: T[]) => R[]): ListEnvelope<R> {
  const items = found.slice(0, limit);
  const result: ListEnvelope<R> = { items: present(items) } as ListEnvelope<R>;
  if (found.length > limit) result.next = { page: encodePageToken(TOKEN_SORT, { values: [offset + limit], id: queryKey(query) }) };
  return result;
}

export const searchActions: ContentPart = {
  actions: {
    searchSpaceContent: {
      params: { spaceId: idRule, ...searchParams },
      async handler(ctx: Ctx<SearchQuery & { spaceId: string }>) {
        const { query, page, limit = DEFAULT_PAGE_SIZE } = ctx.params;
        const offset = offsetOf(query, page);
        const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
        await this.ensureIndexed([space]);
        const found = withLookahead(limit, offset, (n, at) => this.searchIndex.search(query, { spaceIds: [space.id], limit: n, offset: at }));
        const publicUrl = this.publicUrl();
        // Up to 1000 pages with excerpts can pass what one transporter message holds: streamed then.
        return this.respondJson(ctx, null, () => envelope(query, found, limit, offset, (hits) => hits.map((hit) => presentSearchPage(hit, publicUrl))));
      },
    },

    searchOrganizationContent: {
      params: { organizationId: idRule, ...searchParams },
      async handler(ctx: Ctx<SearchQuery & { organizationId: string }>) {
        const { organizationId, query, page, limit = DEFAULT_PAGE_SIZE } = ctx.params;
        const offset = offsetOf(query, page);
        const spaces = await this.readableSpaces(ctx, organizationId);
        await this.ensureIndexed(spaces);
        const titles = new Map(spaces.map((s) => [s.id, s.title]));
        const spaceIds = spaces.map((s) => s.id);
        const found = withLookahead(limit, offset, (n, at) => this.searchIndex.searchBySpace(query, { spaceIds, limit: n, offset: at }));
        const publicUrl = this.publicUrl();
        return this.respondJson(ctx, null, () =>
          envelope(query, found, limit, offset, (hits) =>
            hits.map((hit) => presentSearchSpace({ id: hit.spaceId, title: titles.get(hit.spaceId) ?? "" }, hit.pages, publicUrl)),
          ),
        );
      },
    },
  },

  events: {
    // Every content node hears this (a broadcast): a space this node has indexed is indexed again in
    // the background; one it has not waits for its first search.
    "content.revision.changed": {
      handler(ctx: Context<{ spaceId: string; revisionId: string }>) {
        const { spaceId, revisionId } = ctx.params;
        if (this.searchIndex.revisionOf(spaceId) === undefined) return;
        void this.indexSpace(spaceId, revisionId).catch((err: unknown) => this.logger.warn({ err, spaceId }, "re-indexing a space for search failed; its next search retries"));
      },
    },
    "content.space.deleted": {
      handler(ctx: Context<{ spaceId: string }>) {
        void this.unindexSpace(ctx.params.spaceId);
      },
    },
    "content.space.purged": {
      handler(ctx: Context<{ spaceId: string }>) {
        void this.unindexSpace(ctx.params.spaceId);
      },
    },
  },

  methods: {
    /** The organization's live spaces the caller may read; 404 for callers who are not members. */
    async readableSpaces(ctx: Context, organizationId: string): Promise<SpaceDoc[]> {
      const caller = callerOf(ctx);
      const membership = await this.membership(organizationId, caller.id);
      if (!membership.exists || !membership.member) throw new NotFoundError(`Organization ${organizationId} was not found.`);
      const filter: Filter = { organizationId, deletedAt: op.exists(false) };
      // Guests see only what is open to everyone signed in (as listSpaces).
      if (membership.role === null) filter.visibility = op.in(["public", "unlisted"]);
      const spaces = await this.spaces.find(filter);
      const roles = await Promise.all(spaces.map((space) => this.roleOn(space, membership)));
      return spaces.filter((_space, i) => roles[i]);
    },

    /** Brings the index up to each space's current revision (the store is the truth; events only warm it). */
    async ensureIndexed(spaces: SpaceDoc[]): Promise<void> {
      const stale = spaces.filter((space) => this.searchIndex.revisionOf(space.id) !== space.revision);
      for (let i = 0; i < stale.length; i += BUILD_CONCURRENCY) {
        await Promise.all(stale.slice(i, i + BUILD_CONCURRENCY).map((space) => this.indexSpace(space.id, space.revision)));
      }
    },

    /** Indexes a revision of a space; steps for one space run one after the other, in the order asked. */
    indexSpace(spaceId: string, revisionId: string): Promise<void> {
      return this.searchStep(spaceId, async () => {
        if (this.searchIndex.revisionOf(spaceId) === revisionId) return;
        // Read straight from the store: indexing many spaces would churn the small revision cache.
        const revision = await this.revisions.findOne({ id: revisionId });
        if (!revision || revision.spaceId !== spaceId) return;
        this.searchIndex.indexRevision(spaceId, revisionId, await this.pagesWithMarkdown(revision));
      });
    },

    unindexSpace(spaceId: string): Promise<void> {
      return this.searchStep(spaceId, async () => this.searchIndex.removeSpace(spaceId));
    },

    searchStep(spaceId: string, step: () => Promise<void>): Promise<void> {
      const previous = this.searchBuilds.get(spaceId) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(step);
      this.searchBuilds.set(spaceId, next);
      const forget = () => {
        if (this.searchBuilds.get(spaceId) === next) this.searchBuilds.delete(spaceId);
      };
      next.then(forget, forget);
      return next;
    },
  },

  created() {
    // One index per content node, built lazily per space on its first search.
    this.searchIndex = new SearchIndex();
    this.searchBuilds = new Map();
  },
};
