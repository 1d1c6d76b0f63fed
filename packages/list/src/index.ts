// The list envelope `{items, count, next: {page}}` with opaque keyset page tokens.
import { BadRequestError } from "@docshelf/errors";
import { cursorOf, normalizeSort, type Collection, type Cursor, type Doc, type Filter, type Sort } from "@docshelf/store";

/** Page size when the caller gives no `limit`. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** fastest-validator rules for `page` and `limit`, shared by every list action. */
export const listParams = {
  page: { type: "string", optional: true, min: 1, max: 1024 },
  limit: { type: "number", optional: true, integer: true, positive: true, max: MAX_PAGE_SIZE, convert: true },
} as const;

export interface ListEnvelope<R> {
  items: R[];
  count: number;
  next?: { page: string };
}

export interface PageRequest {
  page?: string;
  limit?: number;
}

interface TokenBody {
  /** sort signature: a token is only valid for the order it was made for */
  s: string;
  v: Cursor["values"];
  i: string;
}

function signature(sort: Sort): string {
  return sort.map(([f, d]) => `${f}${d === 1 ? "+" : "-"}`).join(",");
}

export function encodePageToken(sort: Sort, cursor: Cursor): string {
  const body: TokenBody = { s: signature(sort), v: cursor.values, i: cursor.id };
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

export function decodePageToken(sort: Sort, token: string): Cursor {
  let body: TokenBody;
  try {
    body = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as TokenBody;
  } catch {
    throw new BadRequestError("Invalid parameters: 'page' is not a page token this API issued.");
  }
  const valid =
    body && typeof body === "object" && body.s === signature(sort) && typeof body.i === "string" && Array.isArray(body.v) &&
    body.v.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v));
  if (!valid) throw new BadRequestError("Invalid parameters: 'page' is not a page token this API issued.");
  return { values: body.v, id: body.i };
}

/** The page size a request asks for: DEFAULT_PAGE_SIZE when absent, else an integer from 1 to MAX_PAGE_SIZE. */
function pageSize(request: PageRequest): number {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new BadRequestError(`Invalid parameters: 'limit' must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  return limit;
}

/**
 * One page of `collection` matching `filter` in `sort` order (id breaks ties). Keyset paging: an
 * item added while a caller walks the pages never makes another item appear twice or be skipped.
 */
export async function listPage<T extends Doc, R>(
  collection: Collection<T>,
  filter: Filter,
  request: PageRequest & { sort?: Sort },
  present: (docs: T[]) => R[] | Promise<R[]>,
): Promise<ListEnvelope<R>> {
  const sort = normalizeSort(request.sort);
  const limit = pageSize(request);
  const after = request.page ? decodePageToken(sort, request.page) : undefined;
  const [docs, count] = await Promise.all([
    collection.find(filter, { sort, limit: limit + 1, after }),
    collection.count(filter),
  ]);
  const pageDocs = docs.slice(0, limit);
  const envelope: ListEnvelope<R> = { items: await present(pageDocs), count };
  if (docs.length > limit) {
    envelope.next = { page: encodePageToken(sort, cursorOf(sort, pageDocs[pageDocs.length - 1] as unknown as Record<string, unknown>)) };
  }
  return envelope;
}

/** Pages over an array already in memory (small derived lists), with the same tokens and limits. */
export function listArray<R extends { id: string }>(all: R[], request: PageRequest): ListEnvelope<R> {
  const sort: Sort = [["id", 1]];
  const limit = pageSize(request);
  const sorted = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = request.page ? decodePageToken(sort, request.page).id : undefined;
  const rest = start === undefined ? sorted : sorted.filter((r) => r.id > start);
  const items = rest.slice(0, limit);
  const envelope: ListEnvelope<R> = { items, count: all.length };
  if (rest.length > limit) envelope.next = { page: encodePageToken(sort, { values: [], id: items[items.length - 1].id }) };
  return envelope;
}
