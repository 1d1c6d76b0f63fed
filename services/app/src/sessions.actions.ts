// Session actions other services (or an operator) may call: end one user's sessions.
import { callerOf } from "@docshelf/access";
import { ForbiddenError } from "@docshelf/errors";
import type { AppActions, AppService, Ctx } from "./service-types";

export const sessionActions: AppActions = {
  /** Ends every session of a user: the user themself or an instance administrator. Answers how many ended. */
  revokeSessions: {
    visibility: "public",
    params: { userId: { type: "string", min: 1, max: 64 } },
    async handler(this: AppService, ctx: Ctx<{ userId: string }>) {
      const caller = callerOf(ctx);
      if (caller.id !== ctx.params.userId && !caller.instanceAdmin) throw new ForbiddenError("Only the user or an instance administrator can end their sessions.");
      return { revoked: await this.sessions.deleteMany({ userId: ctx.params.userId }) };
    },
  },
};
