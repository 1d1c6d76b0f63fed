// The Location of a 201 answer.

export type ResponseMeta = { $statusCode?: number; $responseHeaders?: Record<string, unknown>; $location?: string };

/**
 * moleculer-web sets `Location` on a 201 from `ctx.meta.$location` and warns on every 201 without one.
 * Actions that create something set `Location` in `$responseHeaders`, or answer the created resource,
 * whose `urls.location` is its address: either becomes the 201's `$location`.
 */
export function settleCreatedLocation(meta: ResponseMeta, data: unknown): void {
  if (meta.$statusCode !== 201 || meta.$location) return;
  const given = meta.$responseHeaders?.Location;
  const own = (data as { urls?: { location?: unknown } } | null)?.urls?.location;
  if (typeof given === "string") meta.$location = given;
  else if (typeof own === "string") meta.$location = own;
}
