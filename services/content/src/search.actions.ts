// Full-text search of a space and of an organization's spaces, over this node's in-memory index.
import { createHash } from "node:crypto";
import { BadRequestError } from "@docshelf/errors";
import { decodePageToken, DEFAULT_PAGE_SIZE, encodePageToken, listParams, type ListEnvelope } from "@docshelf/list";
import type { Sort } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { MAX_QUERY_LENGTH, presentSearchPage, presentSearchSpace } from "./search";
import { MAX_LIMIT } from "./search/query";
import { ensureIndexed, readableSpaces } from "./search-indexing";
import type { ContentActions, Ctx } from "./service-types";

interface SearchQuery {
  query: string;
  page?: string;
  limit?: number;
}

const searchParams = { query: { type: "string", max: MAX_QUERY_LENGTH }, ...listParams } as const;

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

export const searchActions: ContentActions = {
  searchSpaceContent: {
    params: { spaceId: idRule, ...searchParams },
    async handler(ctx: Ctx<SearchQuery & { spaceId: string }>) {
      const { query, page, limit = DEFAULT_PAGE_SIZE } = ctx.params;
      const offset = offsetOf(query, page);
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      await ensureIndexed(this, [space]);
      // The answer follows from the indexed revision (immutable) and the query alone, whoever asks.
      const key = `${space.id}:${this.searchIndex.revisionOf(space.id)}:${limit}:${offset}:${query}`;
      const publicUrl = this.publicUrl();
      // Up to 1000 pages with excerpts can pass what one transporter message holds: streamed then.
      return this.respondJson(
        ctx,
        key,
        () => {
          const found = withLookahead(limit, offset, (n, at) => this.searchIndex.search(query, { spaceIds: [space.id], limit: n, offset: at }));
          return envelope(query, found, limit, offset, (hits) => hits.map((hit) => presentSearchPage(hit, publicUrl)));
        },
        this.searchAnswers,
      );
    },
  },

  searchOrganizationContent: {
    params: { organizationId: idRule, ...searchParams },
    async handler(ctx: Ctx<SearchQuery & { organizationId: string }>) {
      const { organizationId, query, page, limit = DEFAULT_PAGE_SIZE } = ctx.params;
      const offset = offsetOf(query, page);
      const spaces = await readableSpaces(this, ctx, organizationId);
      await ensureIndexed(this, spaces);
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
};
