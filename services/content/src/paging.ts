// Paging over lists computed in memory (link reports, member spaces), with the list package's tokens and limits.
import { BadRequestError } from "@docshelf/errors";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, decodePageToken, encodePageToken, type ListEnvelope } from "@docshelf/list";
import type { Sort } from "@docshelf/store";

export function pageArray<T extends { id: string }, R>(
  all: T[],
  request: { page?: string; limit?: number; order?: "asc" | "desc" },
  present: (items: T[]) => R[],
): ListEnvelope<R> {
  const desc = request.order === "desc";
  const sort: Sort = [["id", desc ? -1 : 1]];
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new BadRequestError(`Invalid parameters: 'limit' must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  const sorted = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (desc) sorted.reverse();
  const after = request.page ? decodePageToken(sort, request.page).id : undefined;
  const rest = after === undefined ? sorted : sorted.filter((item) => (desc ? item.id < after : item.id > after));
  const items = rest.slice(0, limit);
  const envelope: ListEnvelope<R> = { items: present(items), count: all.length };
  if (rest.length > limit) envelope.next = { page: encodePageToken(sort, { values: [], id: items[items.length - 1].id }) };
  return envelope;
}
