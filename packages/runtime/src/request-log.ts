// One log line per action call carrying the request id the gateway took from (or gave as) X-Request-ID.
import type { Context, Errors, Middleware, ServiceBroker } from "moleculer";

/**
 * Failures a server should look at (5xx) are logged at warn, every call at debug, each with
 * `requestID` so one request can be followed across processes. Params and results are never logged.
 */
export function requestLog(level: string): Middleware {
  const debug = level === "debug" || level === "trace";
  let logger: ReturnType<ServiceBroker["getLogger"]>;
  return {
    name: "RequestLog",
    created(broker: ServiceBroker) {
      logger = broker.getLogger("request");
    },
    localAction(next: (ctx: Context) => Promise<unknown>, action: { name: string }) {
      if (action.name.startsWith("$")) return next;
      // Below debug only failures are logged: the success path costs one promise handler, nothing more.
      if (!debug) {
        return function logFailures(ctx: Context) {
          return next(ctx).catch((err: Errors.MoleculerError) => {
            const code = typeof err?.code === "number" ? err.code : 500;
            if (code >= 500) logger.warn({ requestID: ctx.requestID, action: action.name, caller: ctx.nodeID, code, type: err?.type }, "action failed");
            throw err;
          });
        };
      }
      return function logged(ctx: Context) {
        const started = process.hrtime.bigint();
        const fields = () => ({
          requestID: ctx.requestID,
          action: action.name,
          caller: ctx.nodeID,
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        });
        return next(ctx).then(
          (result) => {
            if (debug) logger.debug(fields(), "action done");
            return result;
          },
          (err: Errors.MoleculerError) => {
            const code = typeof err?.code === "number" ? err.code : 500;
            if (code >= 500) logger.warn({ ...fields(), code, type: err?.type }, "action failed");
            else if (debug) logger.debug({ ...fields(), code, type: err?.type }, "action refused");
            throw err;
          },
        );
      };
    },
  } as unknown as Middleware;
}
