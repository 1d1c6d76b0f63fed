// The app: the server-rendered pages behind every `urls.app` link (organization, space, page, change
// request, site), sessions opened by signing in with an API token, and forms guarded by CSRF tokens.
// It owns only its sessions; everything else it reads and writes through the other services' actions,
// as the signed-in user (the same `meta.user` the gateway passes for an API token).
import type { Context, ServiceSchema } from "moleculer";
import type { Caller } from "@docshelf/access";
import { call, type Action, type PayloadOf } from "@docshelf/contracts/action";
import type * as events from "@docshelf/contracts/events";
import * as identity from "@docshelf/contracts/identity";
import { configFor } from "@docshelf/config";
import { readJson } from "@docshelf/runtime";
import { sharedWorkerPool } from "@docshelf/worker-pool";
import { op, storeMixin } from "@docshelf/store";
import { collections } from "./models";
import { serveActions } from "./serve.actions";
import { sessionActions } from "./sessions.actions";
import { collabActions } from "./collab.actions";
import { isSecret, sessionHash } from "./sessions";
import type { AppService, Methods, SignedIn, Vars } from "./service-types";

/** How often expired sessions are deleted (they already open nothing once expired). */
const SWEEP_EVERY_MS = 3600_000;

export function appSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars & { sweepTimer?: NodeJS.Timeout }> {
  return {
    name: "app",
    mixins: [storeMixin(collections)],

    actions: {
      ...serveActions,
      ...sessionActions,
      ...collabActions,
    },

    events: {
      // A session lasts only as long as the token it was opened with.
      "identity.token.revoked": {
        async handler(this: AppService, ctx: Context<PayloadOf<typeof events.identityTokenRevoked>>) {
          if (typeof ctx.params.tokenHash === "string") await this.sessions.deleteMany({ tokenHash: ctx.params.tokenHash });
        },
      },
    },

    methods: {
      async signedIn(this: AppService, ctx: Context, secret: string | undefined): Promise<SignedIn | null> {
        if (!isSecret(secret)) return null;
        const session = await this.sessions.findOne({ id: sessionHash(secret) });
        if (!session) return null;
        if (session.expiresAt <= Date.now()) {
          await this.sessions.deleteOne({ id: session.id });
          return null;
        }
        // Asked every time (identity caches nothing for us): a revoked token or a removed user ends the session at once.
        const caller = await call(ctx, identity.authenticate, { tokenHash: session.tokenHash });
        if (!caller || caller.id !== session.userId) {
          await this.sessions.deleteOne({ id: session.id });
          return null;
        }
        return { caller, secret, session };
      },

      async as<P, R>(this: AppService, ctx: Context, caller: Caller, target: Action<P, R>, params: P): Promise<R> {
        const answer: unknown = await call(ctx, target, params, { meta: { user: caller } });
        // Large answers (a big space's tree) come as a stream of JSON bytes, as the gateway relays them.
        return readJson<R>(answer);
      },
    },

    created() {
      // The process's worker threads (change requests' diffs run there), with the configured limits.
      sharedWorkerPool(configFor(this.broker).workers);
    },

    started(this: AppService & { sweepTimer?: NodeJS.Timeout }) {
      this.sweepTimer = setInterval(() => {
        this.sessions.deleteMany({ expiresAt: op.lt(Date.now()) }).catch((err: unknown) => this.logger.warn({ err }, "could not delete expired sessions"));
      }, SWEEP_EVERY_MS);
      this.sweepTimer.unref();
    },

    stopped(this: AppService & { sweepTimer?: NodeJS.Timeout }) {
      if (this.sweepTimer) clearInterval(this.sweepTimer);
    },
  };
}

export default appSchema;
