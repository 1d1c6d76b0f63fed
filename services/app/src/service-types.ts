// The app service's shape as its action modules see it: its sessions and its shared methods.
import type { Context, Service } from "moleculer";
import type { Caller } from "@docshelf/access";
import type { Action } from "@docshelf/contracts/action";
import type { Collection } from "@docshelf/store";
import type { SessionDoc } from "./models";

export interface Vars {
  sessions: Collection<SessionDoc>;
}

export interface SignedIn {
  caller: Caller;
  /** The cookie's value (the session's secret), which the page's CSRF tokens are bound to. */
  secret: string;
  session: SessionDoc;
}

export interface Methods {
  /** The signed-in user of a session cookie's value, or null (unknown, expired, or its API token no longer works). */
  signedIn(ctx: Context, secret: string | undefined): Promise<SignedIn | null>;
  /** Calls an action as the signed-in user: the same `meta.user` the gateway passes for their API token. */
  as<P, R>(ctx: Context, caller: Caller, target: Action<P, R>, params: P): Promise<R>;
}

export type AppService = Service<Record<string, unknown>> & Vars & Methods;
export type AppActions = Service.ServiceActionsSchema<AppService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
