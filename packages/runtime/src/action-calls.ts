// What every action call goes through besides the handler: its timeout, its fallback and the log of its failure.
import { Stream } from "node:stream";
import { Errors, type Context, type Middleware, type ServiceBroker } from "moleculer";
import { DeadlineWheel, type Pending } from "./deadline";

const TIMEOUTS_METRIC = "moleculer.request.timeout.total";
const FALLBACKS_METRIC = "moleculer.request.fallback.total";

type Handler = (ctx: Context) => Promise<unknown>;
type Fallback = (this: unknown, ctx: Context, err: unknown) => unknown;

interface CalledAction {
  name: string;
  timeout?: number;
  fallback?: string | Fallback;
  service?: { fullName: string; logger: { warn(...args: unknown[]): void } } & Record<string, unknown>;
}

interface CallOptions {
  timeout?: number | null;
  fallbackResponse?: unknown;
}

/**
 * Moleculer's Timeout, Fallback and the project's failure log as one middleware (Moleculer's own Timeout
 * and Fallback are not loaded, see moleculer.config.ts). The meaning is theirs:
 * - the timeout is the call's `timeout`, else the action's, else `requestTimeout` (0: none); nested and
 *   remote calls carry the rest of it through `ctx.startHrTime`; a late call rejects with
 *   RequestTimeoutError (504 at the gateway);
 * - a failure answers the call's `fallbackResponse`, else the action's `fallback`, when there is one;
 * - a failure a server should look at (5xx) is logged at warn with the request id, every call at debug.
 * On the way of a successful call this costs one promise (two with a timeout) where the three separate
 * middlewares cost five promises and a timer: every HTTP request makes two calls.
 */
export function actionCalls(level: string): Middleware {
  const debug = level === "debug" || level === "trace";
  let broker: ServiceBroker;
  let logger: ReturnType<ServiceBroker["getLogger"]>;
  const wheel = new DeadlineWheel();

  /** The error of a call past its deadline, logged and counted. */
  function timedOut(ctx: Context, action: string): Error {
    const timeout = ctx.options.timeout;
    logger.warn({ requestID: ctx.requestID, nodeID: ctx.nodeID, timeout }, `Request '${action}' is timed out.`);
    if (ctx.params instanceof Stream) ctx.params.emit("moleculer-timeout-middleware", timeout);
    if (broker.isMetricsEnabled()) broker.metrics.increment(TIMEOUTS_METRIC, { action });
    return new Errors.RequestTimeoutError({ action, nodeID: ctx.nodeID ?? broker.nodeID });
  }

  function wrap(handler: Handler, action: CalledAction, local: boolean): Handler {
    const logged = local && !action.name.startsWith("$");
    const service = action.service;
    const ownFallback = local && action.fallback && service ? (typeof action.fallback === "string" ? service[action.fallback] : action.fallback) : undefined;
    if (ownFallback !== undefined && typeof ownFallback !== "function") {
      throw new Errors.MoleculerError(`The 'fallback' of '${action.name}' action is not a Function or valid method name: ${String(action.fallback)}`);
    }

    /** A failed call: logged, then answered by a fallback when there is one, else rethrown. */
    function failed(ctx: Context, started: number, err: unknown): unknown {
      if (logged) {
        const code = typeof (err as Errors.MoleculerError)?.code === "number" ? (err as Errors.MoleculerError).code : 500;
        const type = (err as Errors.MoleculerError)?.type;
        if (code >= 500) logger.warn({ requestID: ctx.requestID, action: action.name, caller: ctx.nodeID, code, type, ms: Date.now() - started }, "action failed");
        else if (debug) logger.debug({ requestID: ctx.requestID, action: action.name, caller: ctx.nodeID, code, type, ms: Date.now() - started }, "action refused");
      }
      const options = ctx.options as CallOptions;
      if (options.fallbackResponse) {
        logger.warn({ requestID: ctx.requestID, action: action.name, err: (err as Error)?.message }, "request failed; answering its fallback response");
        if (broker.isMetricsEnabled()) broker.metrics.increment(FALLBACKS_METRIC, { action: action.name });
        (ctx as Context & { fallbackResult?: boolean }).fallbackResult = true;
        return typeof options.fallbackResponse === "function" ? (options.fallbackResponse as Fallback)(ctx, err) : options.fallbackResponse;
      }
      if (ownFallback) {
        service!.logger.warn({ requestID: ctx.requestID, action: action.name, err: (err as Error)?.message }, "request failed; answering the action's fallback");
        if (broker.isMetricsEnabled()) broker.metrics.increment(FALLBACKS_METRIC, { service: service!.fullName, action: action.name });
        (ctx as Context & { fallbackResult?: boolean }).fallbackResult = true;
        return (ownFallback as Fallback).call(service, ctx, err);
      }
      throw err;
    }

    function done(ctx: Context, started: number, value: unknown): unknown {
      if (logged) logger.debug({ requestID: ctx.requestID, action: action.name, caller: ctx.nodeID, ms: Date.now() - started }, "action done");
      return value;
    }

    return function call(ctx: Context): Promise<unknown> {
      const options = ctx.options as CallOptions;
      if (options.timeout == null) options.timeout = action.timeout ?? broker.options.requestTimeout ?? 0;
      const timeout = options.timeout;
      // One clock read serves the failure log and the deadline.
      const started = logged || timeout > 0 ? Date.now() : 0;
      if (!(timeout > 0)) {
        const answer = handler(ctx);
        return debug ? answer.then((value) => done(ctx, started, value), (err: unknown) => failed(ctx, started, err)) : answer.catch((err: unknown) => failed(ctx, started, err));
      }
      if (!ctx.startHrTime) ctx.startHrTime = process.hrtime();
      const answer = handler(ctx);
      return new Promise((resolve, reject) => {
        let settled = false;
        const settle = (outcome: () => unknown) => {
          try {
            resolve(outcome());
          } catch (err) {
            reject(err);
          }
        };
        const pending: Pending = {
          ctx,
          expire() {
            if (settled) return;
            settled = true;
            const err = timedOut(ctx, action.name);
            settle(() => failed(ctx, started, err));
          },
        };
        const bucket = wheel.add(pending, started + timeout);
        answer.then(
          (value) => {
            bucket.delete(pending);
            if (settled) return;
            settled = true;
            if (debug) settle(() => done(ctx, started, value));
            else resolve(value);
          },
          (err: unknown) => {
            bucket.delete(pending);
            if (settled) return;
            settled = true;
            settle(() => failed(ctx, started, err));
          },
        );
      });
    };
  }

  return {
    name: "ActionCalls",
    created(b: ServiceBroker) {
      broker = b;
      logger = broker.getLogger("request");
      if (broker.isMetricsEnabled()) {
        broker.metrics.register({ name: TIMEOUTS_METRIC, type: "counter", labelNames: ["service", "action"], description: "Number of timed out requests", rate: true });
        broker.metrics.register({ name: FALLBACKS_METRIC, type: "counter", labelNames: ["service", "action"], description: "Number of fallbacked requests", rate: true });
      }
    },
    stopped() {
      wheel.stop();
    },
    localAction(handler: Handler, action: CalledAction) {
      return wrap(handler, action, true);
    },
    remoteAction(handler: Handler, action: CalledAction) {
      return wrap(handler, action, false);
    },
  } as unknown as Middleware;
}
