// Users: read them (me, getUser, and getMany and findByEmails for other services), create them (an
// instance administrator) and change them.
import { broadcast, emit } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { callerOf } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, op } from "@docshelf/store";
import { urlRule } from "@docshelf/validation";
import type { UserDoc } from "./models";
import { presentUser, type UserResource } from "./present";
import type { Ctx, IdentityActions } from "./service-types";

export const userActions: IdentityActions = {
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
      void emit(ctx, events.identityUserCreated, { id: user.id, email: user.email, via: "instance-admin" });
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
      await broadcast(this.broker, events.identityUserChanged, { id: updated.id, displayName: updated.displayName, email: updated.email });
      return this.present(updated, caller);
    },
  },
};
