// Fixed-window rate limiting arithmetic: which window a moment is in, and what the headers say.

export interface RateWindow {
  /** Window number since the epoch; part of the counter key, so each window counts from zero. */
  index: number;
  /** Epoch seconds at which this window ends and the count starts again. */
  resetAt: number;
}

export function windowAt(nowMs: number, windowMs: number): RateWindow {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetAt: Math.ceil(((index + 1) * windowMs) / 1000) };
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<"X-RateLimit-Limit" | "X-RateLimit-Remaining" | "X-RateLimit-Reset", string>;
  /** Seconds until the window resets (at least 1), for Retry-After. */
  retryAfter: number;
}

/** GitBook's headers and the verdict for the `count`-th request of a window whose limit is `limit`. */
export function decide(limit: number, count: number, window: RateWindow, nowMs: number): RateDecision {
  return {
    allowed: count <= limit,
    headers: {
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Remaining": String(Math.max(0, limit - count)),
      "X-RateLimit-Reset": String(window.resetAt),
    },
    retryAfter: Math.max(1, window.resetAt - Math.floor(nowMs / 1000)),
  };
}
