// The identity service: users, API tokens, SAML sign-in and SSO domains. Actions live in the
// *.actions.ts files; here are the store, the instance administrator bootstrap and the shared methods.
import type { Context, ServiceSchema } from "moleculer";
import type { PayloadOf } from "@docshelf/contracts/action";
import type * as events from "@docshelf/contracts/events";
import { configFor } from "@docshelf/config";
import { hashToken, type Caller } from "@docshelf/access";
import { ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, storeMixin } from "@docshelf/store";
import { collections, type UserDoc } from "./models";
import { presentUser, type UserResource } from "./present";
import { createMailer } from "./mailer";
import { prepareDummyHash } from "./passwords";
import { notificationActions } from "./notifications.actions";
import { oidcActions } from "./oidc.actions";
import { samlFlowActions } from "./saml-flow.actions";
import { samlProviderActions } from "./saml-providers.actions";
import type { Methods, Vars } from "./service-types";
import { signInGrantActions } from "./sign-in-grants.actions";
import { accountActions, inviteActions, logSetupLink, signInActions } from "./sign-in.actions";
import { ssoDomainActions } from "./sso-domains.actions";
import { tokenActions } from "./tokens.actions";
import { userActions } from "./users.actions";

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
      ...userActions,
      ...tokenActions,
      ...samlProviderActions,
      ...samlFlowActions,
      ...signInGrantActions,
      ...ssoDomainActions,
      ...signInActions,
      ...accountActions,
      ...inviteActions,
      ...oidcActions,
      ...notificationActions,
    },

    events: {
      // A space deleted for good: the notifications about it go too (their links would lead nowhere).
      "content.space.purged": {
        async handler(ctx: Context<PayloadOf<typeof events.contentSpacePurged>>) {
          await this.notifications.deleteMany({ spaceId: ctx.params.spaceId });
        },
      },
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

    created() {
      const cfg = configFor(this.broker);
      this.mailer = createMailer(cfg.smtpUrl, cfg.mailFrom, this.logger);
    },

    async started() {
      const cfg = configFor(this.broker);
      if (cfg.adminToken) {
        await this.ensureAdmin(cfg.adminToken, cfg.adminEmail);
        this.logger.info(`instance administrator ${cfg.adminEmail} is ready`);
      }
      // First run without ADMIN_TOKEN: the administrator is made in the browser, through a logged link.
      await logSetupLink(this);
      await prepareDummyHash();
    },

    stopped() {
      this.mailer.close();
    },
  };
}

export default identitySchema;
