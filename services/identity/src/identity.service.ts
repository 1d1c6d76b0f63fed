// Users and API tokens: who the caller is, the instance administrator bootstrap, and SAML sign-in.
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { callerOf, hashToken, type Caller } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, op, storeMixin } from "@docshelf/store";
import { urlRule } from "@docshelf/validation";
import { collections, type TokenDoc, type UserDoc } from "./models";
import { presentUser, type UserResource } from "./present";
import { samlFlowActions } from "./saml-flow.actions";
import { samlProviderActions } from "./saml-providers.actions";
import { ssoDomainActions } from "./sso-domains.actions";
import type { Vars } from "./service-types";
import { newToken } from "./tokens";
interface Methods {
  present(user: UserDoc, caller?: Caller): UserResource;
  loadUser(userId: string): Promise<UserDoc>;
  ensureAdmin(token: string, email: string): Promise<void>;
  assertSelfOrAdmin(caller: Caller, userId: string): void;
}

type Ctx<P> = Context<P, Record<string, unknown>>;

/** Start-up refuses: ADMIN_EMAIL names an ordinary account, which would otherwise become administrator. */
export class AdminEmailTakenError extends Error {}

function adminEmailTaken(email: string): AdminEmailTakenError {
  return new AdminEmailTakenError(
    `ADMIN_EMAIL (${email}) belongs to an existing account that is not an instance administrator; start-up never promotes an account. Set ADMIN_EMAIL to an address no account uses.`,
  );
}

export function identitySchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "identity",
    mixins: [storeMixin(collections)],

    actions: {
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

      /** Internal: users by id, for services that embed a User. */
      getMany: {
        visibility: "public",
        params: { ids: { type: "array", items: "string", max: 1000 } },
        async handler(ctx: Ctx<{ ids: string[] }>): Promise<Record<string, UserResource>> {
          const cfg = configFor(this.broker);
          const docs = await this.users.find({ id: op.in(ctx.params.ids) });
          return Object.fromEntries(docs.map((u) => [u.id, presentUser(u, cfg.publicUrl, true)]));
        },
      },

      /** Internal: users by email (lower-cased), for invitations. */
      findByEmails: {
        visibility: "public",
        params: { emails: { type: "array", items: "email", max: 1000 } },
        async handler(ctx: Ctx<{ emails: string[] }>): Promise<Array<{ id: string; email: string }>> {
          const docs = await this.users.find({ email: op.in(ctx.params.emails.map((e) => e.toLowerCase())) });
          return docs.map((u) => ({ id: u.id, email: u.email }));
        },
      },

      me: {
        async handler(ctx: Ctx<Record<string, never>>) {
          const caller = callerOf(ctx);
          return this.present(await this.loadUser(caller.id), caller);
        },
      },

      getUser: {
        params: { userId: { type: "string", min: 1, max: 64 } },
        async handler(ctx: Ctx<{ userId: string }>) {
          const caller = callerOf(ctx);
          return this.present(await this.loadUser(ctx.params.userId), caller);
        },
      },

      createUser: {
        params: {
          email: { type: "email", max: 254 },
          displayName: { type: "string", min: 1, max: 100, trim: true },
          photoURL: urlRule(2048, { optional: true }),
        },
        async handler(ctx: Ctx<{ email: string; displayName: string; photoURL?: string }>) {
          const caller = callerOf(ctx);
          if (!caller.instanceAdmin) throw new ForbiddenError("Only an instance administrator can create users.");
          const now = new Date().toISOString();
          const user: UserDoc = {
            id: newId(),
            email: ctx.params.email.toLowerCase(),
            displayName: ctx.params.displayName,
            instanceAdmin: false,
            createdAt: now,
            updatedAt: now,
          };
          if (ctx.params.photoURL) user.photoURL = ctx.params.photoURL;
          try {
            await this.users.insert(user);
          } catch (err) {
            if (err instanceof ConflictError) throw new ConflictError(`A user with the email ${user.email} already exists.`);
            throw err;
          }
          // An instance administrator vouches for the email: pending invitations of every organization convert.
          ctx.emit("identity.user.created", { id: user.id, email: user.email, via: "instance-admin" });
          ctx.meta.$statusCode = 201;
          return this.present(user, caller);
        },
      },

      /**
       * PATCH /users/:userId `{displayName?, photoURL?, email?}` (GitBook's updateUserById) — the user or an
       * instance administrator. `email` only by an instance administrator (there is no re-verification
       * of a new address): anyone else 403 naming it. A taken email 409. `photoURL: null` removes it.
       */
      updateUser: {
        params: {
          userId: { type: "string", min: 1, max: 64 },
          displayName: { type: "string", min: 1, max: 64, trim: true, optional: true },
          photoURL: urlRule(2048, { optional: true, nullable: true }),
          email: { type: "email", max: 254, optional: true },
        },
        async handler(ctx: Ctx<{ userId: string; displayName?: string; photoURL?: string | null; email?: string }>) {
          const caller = callerOf(ctx);
          const { userId, displayName, photoURL, email } = ctx.params;
          if (displayName === undefined && photoURL === undefined && email === undefined) {
            throw new BadRequestError("Invalid parameters: give 'displayName', 'photoURL' or 'email'.");
          }
          if (caller.id !== userId && !caller.instanceAdmin) throw new ForbiddenError("Only the user or an instance administrator can change a user.");
          const user = await this.loadUser(userId);
          if (email !== undefined && !caller.instanceAdmin) throw new ForbiddenError("Only an instance administrator can change the 'email' of a user.");
          const set: Partial<UserDoc> = { updatedAt: new Date().toISOString() };
          const unset: string[] = [];
          if (displayName !== undefined) set.displayName = displayName;
          if (photoURL === null) unset.push("photoURL");
          else if (photoURL !== undefined) set.photoURL = photoURL;
          if (email !== undefined) set.email = email.toLowerCase();
          let updated: UserDoc | null;
          try {
            updated = await this.users.updateOne({ id: user.id }, { $set: set, $unset: unset });
          } catch (err) {
            if (err instanceof ConflictError) throw new ConflictError(`A user with the email ${set.email} already exists.`);
            throw err;
          }
          if (!updated) throw new NotFoundError(`User ${userId} was not found.`);
          // Gateways drop cached callers; orgs refreshes the member search text.
          await this.broker.broadcast("identity.user.changed", { id: updated.id, displayName: updated.displayName, email: updated.email });
          return this.present(updated, caller);
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
            await this.broker.broadcast("identity.token.revoked", { tokenHash: token.hash });
          }
          ctx.meta.$statusCode = 204;
          return null;
        },
      },

      ...samlProviderActions,
      ...samlFlowActions,
      ...ssoDomainActions,
    },

    methods: {
      present(user: UserDoc, caller?: Caller): UserResource {
        const cfg = configFor(this.broker);
        return presentUser(user, cfg.publicUrl, !caller || caller.id === user.id || caller.instanceAdmin);
      },

      async loadUser(userId: string): Promise<UserDoc> {
        const user = await this.users.findOne({ id: userId });
        if (!user) throw new NotFoundError(`User ${userId} was not found.`);
        return user;
      },

      assertSelfOrAdmin(caller: Caller, userId: string) {
        if (caller.id !== userId && !caller.instanceAdmin) {
          throw new ForbiddenError("Only the user or an instance administrator can manage this user's tokens.");
        }
      },

      /**
       * Idempotent: the admin user and its token exist after this, however often it runs. The
       * administrator is a dedicated account: an existing account that is not one is never promoted.
       */
      async ensureAdmin(token: string, email: string) {
        const now = new Date().toISOString();
        let admin = await this.users.findOne({ email });
        if (admin && !admin.instanceAdmin) throw adminEmailTaken(email);
        if (!admin) {
          const doc: UserDoc = { id: newId(), email, displayName: "Administrator", instanceAdmin: true, createdAt: now, updatedAt: now };
          try {
            admin = await this.users.insert(doc);
          } catch (err) {
            if (!(err instanceof ConflictError)) throw err;
            admin = await this.users.findOne({ email });
          }
        }
        if (!admin) throw new Error("could not create the instance administrator");
        if (!admin.instanceAdmin) throw adminEmailTaken(email); // another process's account got the email first
        const hash = hashToken(token);
        const existing = await this.tokens.findOne({ hash });
        if (existing && existing.userId === admin.id) return;
        if (existing) await this.tokens.deleteOne({ id: existing.id });
        try {
          await this.tokens.insert({ id: newId(), userId: admin.id, hash, label: "ADMIN_TOKEN", createdAt: now });
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err; // another replica got there first
        }
      },
    },

    async started() {
      const cfg = configFor(this.broker);
      if (cfg.adminToken) {
        await this.ensureAdmin(cfg.adminToken, cfg.adminEmail);
        this.logger.info(`instance administrator ${cfg.adminEmail} is ready`);
      }
    },
  };
}

export default identitySchema;
