// API tokens: the caller a token stands for (authenticate, for the gateway), creating and revoking them.
import { broadcast } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { callerOf, hashToken, type Caller } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError } from "@docshelf/errors";
import { newId } from "@docshelf/store";
import type { TokenDoc } from "./models";
import type { Ctx, IdentityActions } from "./service-types";
import { newToken } from "./tokens";

export const tokenActions: IdentityActions = {
  /** Internal: the caller a token hash stands for, or null. */
  authenticate: {
    visibility: "public",
    params: { tokenHash: { type: "string", length: 64 } },
    async handler(ctx: Ctx<{ tokenHash: string }>): Promise<Caller | null> {
      const token = await this.tokens.findOne({ hash: ctx.params.tokenHash });
      if (!token) return null;
      const user = await this.users.findOne({ id: token.userId });
      return user ? { id: user.id, instanceAdmin: user.instanceAdmin } : null;
    },
  },


  createToken: {
    params: {
      userId: { type: "string", min: 1, max: 64 },
      label: { type: "string", optional: true, max: 100 },
    },
    async handler(ctx: Ctx<{ userId: string; label?: string }>) {
      const caller = callerOf(ctx);
      this.assertSelfOrAdmin(caller, ctx.params.userId);
      await this.loadUser(ctx.params.userId);
      const max = configFor(this.broker).maxTokensPerUser;
      if ((await this.tokens.count({ userId: ctx.params.userId })) >= max) {
        throw new BadRequestError(`A user holds at most ${max} API tokens (MAX_TOKENS_PER_USER); revoke one before creating another.`);
      }
      const token = newToken();
      const doc: TokenDoc = {
        id: newId(),
        userId: ctx.params.userId,
        hash: hashToken(token),
        createdAt: new Date().toISOString(),
      };
      if (ctx.params.label) doc.label = ctx.params.label;
      await this.tokens.insert(doc);
      // Counted again after the insert: of creations racing past the limit, none stays beyond it.
      if ((await this.tokens.count({ userId: ctx.params.userId })) > max) {
        await this.tokens.deleteOne({ id: doc.id });
        throw new BadRequestError(`A user holds at most ${max} API tokens (MAX_TOKENS_PER_USER); revoke one before creating another.`);
      }
      ctx.meta.$statusCode = 201;
      // Where the token is revoked: the address of what was created.
      ctx.meta.$location = `${configFor(this.broker).publicUrl}/v1/users/${ctx.params.userId}/tokens/${doc.id}`;
      // The only time the token is ever shown.
      return { id: doc.id, token };
    },
  },

  revokeToken: {
    params: {
      userId: { type: "string", min: 1, max: 64 },
      tokenId: { type: "string", min: 1, max: 64 },
    },
    async handler(ctx: Ctx<{ userId: string; tokenId: string }>) {
      const caller = callerOf(ctx);
      this.assertSelfOrAdmin(caller, ctx.params.userId);
      const token = await this.tokens.findOne({ id: ctx.params.tokenId, userId: ctx.params.userId });
      if (token) {
        await this.tokens.deleteOne({ id: token.id });
        // The answering gateway drops it from ctx.meta at once; every other gateway on the broadcast.
        ctx.meta.revokedTokenHash = token.hash;
        await broadcast(this.broker, events.identityTokenRevoked, { tokenHash: token.hash });
      }
      ctx.meta.$statusCode = 204;
      return null;
    },
  },
};
