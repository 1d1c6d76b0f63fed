// Retries of the action calls a GET or HEAD request makes, when the node that had the call died with it.
import { Errors, type Context, type Middleware } from "moleculer";

/** How often a read is sent again after its node went away. */
export const SAFE_RETRIES = 2;

interface RestParams {
  req?: { method?: string };
}

/** Set on the context of a gateway's GET or HEAD request; nested calls inherit it with the meta. */
export const SAFE_REQUEST_META = "$safeRequest";

/**
 * A process killed mid-request (SIGKILL, OOM, a lost node) leaves its callers waiting until the heartbeat
 * timeout tells them it is gone; Moleculer then rejects those calls with RequestRejectedError. For the
 * calls of a GET or HEAD, which change nothing, this sets `retries` so that Moleculer's Retry middleware
 * (inside this one, enabled with 0 retries for everything else by retryPolicy) sends them again, to a
 * node that is still there, within what is left of the request's deadline. Writes are never retried: the
 * dead node may have applied one before it died.
 */
export function safeRetries(): Middleware {
  type Handler = (ctx: Context) => Promise<unknown>;
  return {
    name: "SafeRetries",
    // moleculer-web's `rest` action runs every HTTP request of a gateway: mark the reads.
    localAction(handler: Handler, action: { name?: string }): Handler {
      if (!action.name?.endsWith(".rest")) return handler;
      return function markSafeRequest(ctx: Context): Promise<unknown> {
        const method = (ctx.params as RestParams | undefined)?.req?.method;
        if (method === "GET" || method === "HEAD") (ctx.meta as Record<string, unknown>)[SAFE_REQUEST_META] = true;
        return handler(ctx);
      };
    },
    remoteAction(handler: Handler): Handler {
      return function retrySafeRequest(ctx: Context): Promise<unknown> {
        if (typeof ctx.options.retries !== "number" && (ctx.meta as Record<string, unknown>)?.[SAFE_REQUEST_META] === true) ctx.options.retries = SAFE_RETRIES;
        return handler(ctx);
      };
    },
  } as Middleware;
}

/** The errors that say the called node went away (or none is left), never that the action failed. */
export function nodeWentAway(err: unknown): boolean {
  return err instanceof Errors.RequestRejectedError || err instanceof Errors.ServiceNotAvailableError;
}
