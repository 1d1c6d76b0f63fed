// A typed descriptor of an internal action: its full name (a literal, so a search for "content.spaceAccess"
// finds its contract in one hop), the params it takes and the answer it gives; `call` calls it typed.
import type { CallingOptions } from "moleculer";

/** An action other services call: `P` its params, `R` its answer. The types live only at compile time. */
export interface Action<P, R> {
  readonly name: string;
  /** Never set: carries `P` and `R` for inference. */
  readonly types?: { params: P; answer: R };
}

/** The descriptor of action `name` (the service's name, a dot, the action's key in that service). */
export function action<P, R>(name: string): Action<P, R> {
  return { name };
}

/** What can call an action: a moleculer Context (`ctx`) or ServiceBroker (`this.broker`). */
export interface ActionCaller {
  call<TResult, TParams>(actionName: string, params: TParams, opts?: CallingOptions): Promise<TResult>;
}

/** Calls `target` with `params`; the answer is typed by the contract. */
export function call<P, R>(caller: ActionCaller, target: Action<P, R>, params: P, opts?: CallingOptions): Promise<R> {
  return caller.call<R, P>(target.name, params, opts);
}

/**
 * The meta key under which an action that answers an HTTP page as a stream of bytes (a page too long for one
 * transporter message) puts the page's status and headers (`{status, headers}`); the gateway reads it from
 * the call's context and writes the stream as the body.
 */
export const STREAM_HEAD_META = "$serveHead";

/** The params of an action's descriptor. */
export type ParamsOf<A> = A extends Action<infer P, unknown> ? P : never;
/** The answer of an action's descriptor. */
export type AnswerOf<A> = A extends Action<never, infer R> ? R : never;

/** An event a service broadcasts or emits: `P` its payload. */
export interface EventDescriptor<P> {
  readonly name: string;
  readonly types?: { payload: P };
}

/** The descriptor of event `name`. */
export function event<P>(name: string): EventDescriptor<P> {
  return { name };
}

/** What can send an event: a Context or a ServiceBroker. */
export interface EventBroadcaster {
  broadcast<D>(eventName: string, data: D): Promise<void> | void;
  emit<D>(eventName: string, data: D): Promise<void> | void;
}

/** The payload of an event's descriptor (for its listeners' parameters). */
export type PayloadOf<E> = E extends EventDescriptor<infer P> ? P : never;

/** Broadcasts `target` to every node's listeners, the payload typed by the contract. */
export async function broadcast<P>(broadcaster: EventBroadcaster, target: EventDescriptor<P>, payload: P): Promise<void> {
  await broadcaster.broadcast(target.name, payload);
}

/** Emits `target` to one listener per service (balanced), the payload typed by the contract. */
export async function emit<P>(emitter: EventBroadcaster, target: EventDescriptor<P>, payload: P): Promise<void> {
  await emitter.emit(target.name, payload);
}
