// Validation of what a search caller passes in.
import { BadRequestError } from "@docshelf/errors";

export const MAX_QUERY_LENGTH = 512;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export function checkQuery(query: unknown): string {
  if (typeof query !== "string" || query.trim().length === 0) {
    throw new BadRequestError("Invalid parameters: 'query' is required.");
  }
  if (query.length > MAX_QUERY_LENGTH) {
    throw new BadRequestError(`Invalid parameters: 'query' must be at most ${MAX_QUERY_LENGTH} characters long.`);
  }
  return query.trim();
}

export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new BadRequestError(`Invalid parameters: 'limit' must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  return limit;
}

export function checkOffset(offset: number | undefined): number {
  if (offset === undefined) return 0;
  if (!Number.isInteger(offset) || offset < 0) throw new BadRequestError("Invalid parameters: 'offset' must be a non-negative integer.");
  return offset;
}
