// Sign-in in the browser without a token: email and password, email sign-in links, password reset, and
// the first-run setup of the administrator. Pages under /sso (gateway route); every form is CSRF-checked
// against identity's form cookie. A successful sign-in mints a session token (never shown) and a grant
// for the app (sign-in-grants.actions.ts), so the app opens its session exactly as after SSO.
import { randomBytes } from "node:crypto";
import { broadcast, emit } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { callerOf, hashToken } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { accountKey, ACCOUNT_FAILURES, addressKey, ADDRESS_ATTEMPTS, clear, countOf, EMAILS_PER_ADDRESS, hit, mailKey, prune } from "./attempts";
import { assertCsrf, browserOf, csrfOf, formSecret, page, seeOther } from "./browser";
import type { EmailTokenDoc, TokenDoc, UserDoc } from "./models";
import { hashPassword, passwordProblem, verifyPassword, PASSWORD_MAX } from "./passwords";
import { keepTokensWithinLimit } from "./saml-flow.actions";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";
import { BINDING, GRANT_COMPLETE_PATH, isLocalPath, mintSignInGrant } from "./sign-in-grants.actions";
import { doneBody, forgotBody, inviteBody, magicBody, resetBody, sentBody, setupBody, signInBody } from "./sign-in-pages";
import { newToken } from "./tokens";

export const RESET_TTL_MS = 30 * 60_000;
export const MAGIC_TTL_MS = 15 * 60_000;
export const SETUP_TTL_MS = 24 * 3600_000;
export const INVITE_TTL_MS = 7 * 24 * 3600_000;
/** Where the browser goes to start a sign-in (the app makes the binding): identity's pages need one. */
const APP_SIGN_IN = "/app/sign-in";

const secretRule = { type: "string", min: 1, max: 64 } as const;
const csrfRule = { type: "string", optional: true, max: 64 } as const;
const emailRule = { type: "email", max: 254 } as const;
const passwordRule = { type: "string", min: 1, max: PASSWORD_MAX } as const;
const appRule = { type: "string", optional: true, max: 64 } as const;
const returnRule = { type: "string", optional: true, max: 2048 } as const;

type AppParams = { app?: string; return?: string };

/** The app binding and return path a form carries: 400 naming the field when either is not usable. */
function appSignIn(params: AppParams): { binding: string; returnTo: string } {
  if (!params.app || !BINDING.test(params.app)) throw new BadRequestError("app must be 64 hexadecimal characters: start the sign-in from /app/sign-in.");
  const returnTo = params.return || "/app";
  if (!isLocalPath(returnTo)) throw new BadRequestError("return must be a path of this instance (starting with one /).");
  return { binding: params.app, returnTo };
}

function addressOf(ctx: Ctx<unknown>): string {
  return browserOf(ctx).address || "unknown";
}

/** A new one-time email token: only its hash is stored; answers the secret for the link. */
async function newEmailToken(service: IdentityService, doc: Omit<EmailTokenDoc, "id">): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  await service.emailTokens.deleteMany({ expiresAt: op.lt(Date.now()) });
  await service.emailTokens.insert({ id: hashToken(secret), ...doc });
  return secret;
}

/** The token's document if it is of `kind` and unexpired, without using it up (to show its page). */
async function peekEmailToken(service: IdentityService, secret: string, kind: EmailTokenDoc["kind"]): Promise<EmailTokenDoc | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const doc = await service.emailTokens.findOne({ id: hashToken(secret) });
  return doc && doc.kind === kind && doc.expiresAt > Date.now() ? doc : null;
}

/** Uses the token up: of two uses at once only one deletes it; expired or of another kind counts as none. */
async function consumeEmailToken(service: IdentityService, secret: string, kind: EmailTokenDoc["kind"]): Promise<EmailTokenDoc | null> {
  const doc = await peekEmailToken(service, secret, kind);
  if (!doc || !(await service.emailTokens.deleteOne({ id: doc.id }))) return null;
  return doc;
}

/** Mints the session token of a browser sign-in and the app's grant for it; answers the 303 to the app. */
async function signInToApp(service: IdentityService, ctx: Ctx<unknown>, user: UserDoc, method: "password" | "email-link", app: { binding: string; returnTo: string }): Promise<string> {
  const token = newToken();
  const doc: TokenDoc = { id: newId(), userId: user.id, hash: hashToken(token), label: `Sign-in: ${method}`, session: { method, address: addressOf(ctx) }, createdAt: new Date().toISOString() };
  await service.tokens.insert(doc);
  await keepTokensWithinLimit(service, user.id, doc.id);
  const grant = await mintSignInGrant(service, { userId: user.id, tokenHash: doc.hash, ...app });
  return seeOther(ctx, `${GRANT_COMPLETE_PATH}?grant=${grant}`);
}

/** Ends every browser session of a user (after a password reset): their session tokens go, on every gateway and in the app. */
async function endSessions(service: IdentityService, userId: string): Promise<void> {
  const tokens = await service.tokens.find({ userId });
  for (const token of tokens.filter((t) => t.session)) {
    await service.tokens.deleteOne({ id: token.id });
    await broadcast(service.broker, events.identityTokenRevoked, { tokenHash: token.hash });
  }
}

const tooMany = (ctx: Ctx<unknown>) => page(ctx, 429, "Too many attempts", doneBody("Too many sign-in attempts from here or for this email. Wait 15 minutes, or reset your password."));

/**
 * Mails a link to the account of `email`, if there is one. The answer and the work done before it are the
 * same either way (a token is stored for unknown emails too, and the mail goes out after the answer),
 * so neither tells whether an account has the email.
 */
async function mailLink(service: IdentityService, ctx: Ctx<unknown>, email: string, kind: "reset" | "magic", app?: { binding: string; returnTo: string }): Promise<boolean> {
  const address = addressOf(ctx);
  if ((await hit(service.attempts, addressKey(address))) > ADDRESS_ATTEMPTS) return false;
  const perEmail = await hit(service.attempts, mailKey(email));
  const user = await service.users.findOne({ email: email.toLowerCase() });
  const secret = await newEmailToken(service, {
    kind,
    ...(user ? { userId: user.id } : {}),
    ...(app ? { app } : {}),
    expiresAt: Date.now() + (kind === "reset" ? RESET_TTL_MS : MAGIC_TTL_MS),
  });
  if (user && perEmail <= EMAILS_PER_ADDRESS) {
    const publicUrl = configFor(service.broker).publicUrl;
    const url = `${publicUrl}/sso/sign-in/${kind === "reset" ? "reset" : "magic"}?token=${secret}`;
    const mail =
      kind === "reset"
        ? { subject: "Reset your docshelf password", lines: [`Someone (hopefully you) asked to reset the password of ${user.email} on ${publicUrl}.`, "The link works once, within 30 minutes. If you did not ask, ignore this email: your password stays as it is."], link: { url, label: "Set a new password" } }
        : { subject: "Your docshelf sign-in link", lines: [`Sign in to ${publicUrl} as ${user.email}.`, "The link works once, within 15 minutes, in the browser you asked for it from."], link: { url, label: "Sign in" } };
    // Not awaited: an account's answer must not wait on SMTP while an unknown email's does not.
    void service.mailer.send({ to: user.email, ...mail });
  }
  return true;
}

export const signInActions: IdentityActions = {
  /** GET /sso/sign-in `?app&return`: the email and password form (and the sign-in link form). */
  signInPage: {
    params: { app: appRule, return: returnRule },
    async handler(this: IdentityService, ctx: Ctx<AppParams>) {
      // Without the app's binding there is no session to open: the app's sign-in page makes one.
      if (!ctx.params.app || !BINDING.test(ctx.params.app)) return seeOther(ctx, APP_SIGN_IN);
      const app = appSignIn(ctx.params);
      return page(ctx, 200, "Sign in", signInBody({ csrf: csrfOf(formSecret(ctx)), app: app.binding, returnTo: app.returnTo }));
    },
  },

  /** POST /sso/sign-in `{_csrf, app, return, email, password}`: 303 to the app with a grant; 401 wrong; 429 limited or locked. */
  signInPassword: {
    params: { _csrf: csrfRule, app: appRule, return: returnRule, email: emailRule, password: passwordRule },
    async handler(this: IdentityService, ctx: Ctx<AppParams & { _csrf?: string; email: string; password: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      const app = appSignIn(ctx.params);
      const email = ctx.params.email.toLowerCase();
      void prune(this.attempts).catch(() => undefined);
      if ((await hit(this.attempts, addressKey(addressOf(ctx)))) > ADDRESS_ATTEMPTS) return tooMany(ctx);
      if ((await countOf(this.attempts, accountKey(email))) >= ACCOUNT_FAILURES) return tooMany(ctx);
      const user = await this.users.findOne({ email });
      // Unknown emails are checked against a dummy hash: same work, same time, same answer.
      if (!(await verifyPassword(ctx.params.password, user?.passwordHash)) || !user) {
        await hit(this.attempts, accountKey(email));
        const form = signInBody({ csrf: csrfOf(formSecret(ctx)), app: app.binding, returnTo: app.returnTo, email, error: "That email and password do not match an account." });
        return page(ctx, 401, "Sign in", form);
      }
      await clear(this.attempts, accountKey(email));
      return signInToApp(this, ctx, user, "password", app);
    },
  },

  /** POST /sso/sign-in/link `{_csrf, app, return, email}`: mails a sign-in link bound to this browser; the same answer for any email. */
  signInLinkRequest: {
    params: { _csrf: csrfRule, app: appRule, return: returnRule, email: emailRule },
    async handler(this: IdentityService, ctx: Ctx<AppParams & { _csrf?: string; email: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      const app = appSignIn(ctx.params);
      if (!(await mailLink(this, ctx, ctx.params.email, "magic", app))) return tooMany(ctx);
      return page(ctx, 200, "Check your email", sentBody("a sign-in link"));
    },
  },

  /** GET /sso/sign-in/magic `?token`: a button that uses the link (a GET alone, as a mail scanner sends, uses nothing). */
  signInLinkPage: {
    params: { token: secretRule },
    async handler(this: IdentityService, ctx: Ctx<{ token: string }>) {
      if (!(await peekEmailToken(this, ctx.params.token, "magic"))) return page(ctx, 403, "Link expired", doneBody("This sign-in link is unknown, used or expired. Ask for a new one."));
      return page(ctx, 200, "Sign in", magicBody(csrfOf(formSecret(ctx)), ctx.params.token));
    },
  },

  /** POST /sso/sign-in/magic `{_csrf, token}`: uses the link once; the app opens the session only in the browser that asked for it. */
  signInLinkRedeem: {
    params: { _csrf: csrfRule, token: secretRule },
    async handler(this: IdentityService, ctx: Ctx<{ _csrf?: string; token: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      const doc = await consumeEmailToken(this, ctx.params.token, "magic");
      const user = doc?.userId ? await this.users.findOne({ id: doc.userId }) : null;
      if (!doc || !doc.app || !user) return page(ctx, 403, "Link expired", doneBody("This sign-in link is unknown, used or expired. Ask for a new one."));
      return signInToApp(this, ctx, user, "email-link", doc.app);
    },
  },

  /** GET /sso/sign-in/forgot: the form that asks for a reset link. */
  forgotPage: {
    async handler(this: IdentityService, ctx: Ctx<Record<string, never>>) {
      return page(ctx, 200, "Reset your password", forgotBody(csrfOf(formSecret(ctx))));
    },
  },

  /** POST /sso/sign-in/forgot `{_csrf, email}`: mails a reset link; the same answer for any email. */
  forgotRequest: {
    params: { _csrf: csrfRule, email: emailRule },
    async handler(this: IdentityService, ctx: Ctx<{ _csrf?: string; email: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      if (!(await mailLink(this, ctx, ctx.params.email, "reset"))) return tooMany(ctx);
      return page(ctx, 200, "Check your email", sentBody("a link to set a new password"));
    },
  },

  /** GET /sso/sign-in/reset `?token`: the new-password form, while the link works. */
  resetPage: {
    params: { token: secretRule },
    async handler(this: IdentityService, ctx: Ctx<{ token: string }>) {
      const doc = await peekEmailToken(this, ctx.params.token, "reset");
      const user = doc?.userId ? await this.users.findOne({ id: doc.userId }) : null;
      if (!user) return page(ctx, 403, "Link expired", doneBody("This reset link is unknown, used or expired. Ask for a new one."));
      // The account's email in the form (hidden), for password managers to store the new password under.
      return page(ctx, 200, "Set a new password", resetBody(csrfOf(formSecret(ctx)), ctx.params.token, user.email));
    },
  },

  /** POST /sso/sign-in/reset `{_csrf, token, password}`: sets the password once, ends the account's browser sessions, lifts a lockout. */
  resetSubmit: {
    params: { _csrf: csrfRule, token: secretRule, password: passwordRule },
    async handler(this: IdentityService, ctx: Ctx<{ _csrf?: string; token: string; password: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      const problem = passwordProblem(ctx.params.password);
      if (problem) throw new BadRequestError(problem);
      const doc = await consumeEmailToken(this, ctx.params.token, "reset");
      const user = doc?.userId ? await this.users.findOne({ id: doc.userId }) : null;
      if (!doc || !user) return page(ctx, 403, "Link expired", doneBody("This reset link is unknown, used or expired. Ask for a new one."));
      await this.users.updateOne({ id: user.id }, { $set: { passwordHash: await hashPassword(ctx.params.password), updatedAt: new Date().toISOString() } });
      // Other reset links of the account go too, and whoever had its sessions is signed out.
      await this.emailTokens.deleteMany({ userId: user.id, kind: "reset" });
      await endSessions(this, user.id);
      await clear(this.attempts, accountKey(user.email));
      return page(ctx, 200, "Password set", doneBody("Your password is set. Sign in with it."));
    },
  },

  /** GET /sso/setup `?token`: the first-run form that creates the first administrator (the link start-up logged). */
  setupPage: {
    params: { token: secretRule },
    async handler(this: IdentityService, ctx: Ctx<{ token: string }>) {
      if (!(await peekEmailToken(this, ctx.params.token, "setup")) || (await this.users.count({ instanceAdmin: true })) > 0) {
        return page(ctx, 403, "Setup link expired", doneBody("This setup link is unknown, used or expired, or an administrator exists already. Restart the server for a new link while no administrator exists."));
      }
      return page(ctx, 200, "Set up docshelf", setupBody(csrfOf(formSecret(ctx)), ctx.params.token));
    },
  },

  /** POST /sso/setup `{_csrf, token, displayName, email, password}`: creates the first administrator, once. */
  setupSubmit: {
    params: { _csrf: csrfRule, token: secretRule, displayName: { type: "string", min: 1, max: 64, trim: true }, email: emailRule, password: passwordRule },
    async handler(this: IdentityService, ctx: Ctx<{ _csrf?: string; token: string; displayName: string; email: string; password: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      const problem = passwordProblem(ctx.params.password);
      if (problem) throw new BadRequestError(problem);
      const email = ctx.params.email.toLowerCase();
      const expired = () => page(ctx, 403, "Setup link expired", doneBody("This setup link is unknown, used or expired, or an administrator exists already."));
      if (!(await peekEmailToken(this, ctx.params.token, "setup")) || (await this.users.count({ instanceAdmin: true })) > 0) return expired();
      // Never promotes an existing account (as ADMIN_EMAIL): the administrator is a new one.
      if (await this.users.findOne({ email })) throw new ConflictError(`email ${email} belongs to an existing account; give the administrator an address no account uses.`);
      const passwordHash = await hashPassword(ctx.params.password);
      if (!(await consumeEmailToken(this, ctx.params.token, "setup"))) return expired();
      const now = new Date().toISOString();
      const user: UserDoc = { id: newId(), email, displayName: ctx.params.displayName, instanceAdmin: true, passwordHash, createdAt: now, updatedAt: now };
      await this.users.insert(user);
      await this.emailTokens.deleteMany({ kind: "setup" });
      void emit(ctx, events.identityUserCreated, { id: user.id, email: user.email, via: "instance-admin" });
      this.logger.info(`first run: the instance administrator ${email} was created in the browser`);
      return page(ctx, 201, "Administrator created", doneBody(`The administrator ${email} is created. Sign in with this email and password.`));
    },
  },
};

/** The invitation page's answer for an address that has an account: sign in, then accept in the app. */
const existingAccountPage = (ctx: Ctx<unknown>, title: string) =>
  page(ctx, 200, "You are invited", doneBody(`You are invited to join ${title}. You already have an account: sign in, then accept the invitation on the app's home page.`));

export const inviteActions: IdentityActions = {
  /** Internal (orgs, after an invitation): mails each address a link to join; capped per address like every mail. */
  mailInvitations: {
    visibility: "public",
    params: { organizationId: idRule, organizationTitle: { type: "string", min: 1, max: 255 }, emails: { type: "array", items: { type: "email", max: 254 }, max: 100 } },
    async handler(this: IdentityService, ctx: Ctx<{ organizationId: string; organizationTitle: string; emails: string[] }>) {
      const publicUrl = configFor(this.broker).publicUrl;
      let mailed = 0;
      for (const raw of ctx.params.emails) {
        const email = raw.toLowerCase();
        if ((await hit(this.attempts, mailKey(email))) > EMAILS_PER_ADDRESS) continue;
        const { organizationId, organizationTitle } = ctx.params;
        const secret = await newEmailToken(this, { kind: "invite", email, organizationId, organizationTitle, expiresAt: Date.now() + INVITE_TTL_MS });
        await this.mailer.send({
          to: email,
          subject: `You are invited to ${organizationTitle} on docshelf`,
          lines: [`You are invited to join ${organizationTitle} on ${publicUrl}.`, "The link works once, within 7 days. If you did not expect it, ignore this email."],
          link: { url: `${publicUrl}/sso/invite?token=${secret}`, label: "Join" },
        });
        mailed++;
      }
      return { mailed };
    },
  },

  /** GET /sso/invite `?token`: the form that creates the invitee's account (or, when the address has one, the way to accept). */
  invitePage: {
    params: { token: secretRule },
    async handler(this: IdentityService, ctx: Ctx<{ token: string }>) {
      const doc = await peekEmailToken(this, ctx.params.token, "invite");
      if (!doc?.email) return page(ctx, 403, "Invitation expired", doneBody("This invitation link is unknown, used or expired. Ask the organization's administrator for a new one."));
      if (await this.users.findOne({ email: doc.email })) return existingAccountPage(ctx, doc.organizationTitle ?? "the organization");
      return page(ctx, 200, "Join", inviteBody(csrfOf(formSecret(ctx)), ctx.params.token, doc.email, doc.organizationTitle ?? "the organization"));
    },
  },

  /**
   * POST /sso/invite `{_csrf, token, displayName, password}`: creates the account of the invited address
   * (the link proves the email), once; orgs turns that organization's invitations into memberships.
   */
  inviteSubmit: {
    params: { _csrf: csrfRule, token: secretRule, displayName: { type: "string", min: 1, max: 64, trim: true }, password: passwordRule },
    async handler(this: IdentityService, ctx: Ctx<{ _csrf?: string; token: string; displayName: string; password: string }>) {
      assertCsrf(ctx, ctx.params._csrf);
      const problem = passwordProblem(ctx.params.password);
      if (problem) throw new BadRequestError(problem);
      const expired = () => page(ctx, 403, "Invitation expired", doneBody("This invitation link is unknown, used or expired. Ask the organization's administrator for a new one."));
      const peeked = await peekEmailToken(this, ctx.params.token, "invite");
      if (!peeked?.email || !peeked.organizationId) return expired();
      if (await this.users.findOne({ email: peeked.email })) return existingAccountPage(ctx, peeked.organizationTitle ?? "the organization");
      const passwordHash = await hashPassword(ctx.params.password);
      const doc = await consumeEmailToken(this, ctx.params.token, "invite");
      if (!doc?.email || !doc.organizationId) return expired();
      const now = new Date().toISOString();
      const user: UserDoc = { id: newId(), email: doc.email, displayName: ctx.params.displayName, instanceAdmin: false, passwordHash, createdAt: now, updatedAt: now };
      try {
        await this.users.insert(user);
      } catch (err) {
        if (err instanceof ConflictError) return existingAccountPage(ctx, doc.organizationTitle ?? "the organization");
        throw err;
      }
      await emit(ctx, events.identityUserCreated, { id: user.id, email: user.email, via: "invite", organizationId: doc.organizationId });
      return page(ctx, 201, "Welcome", doneBody(`Your account ${user.email} is created and joins ${doc.organizationTitle ?? "the organization"}. Sign in with your email and password.`));
    },
  },
};

/** At start-up with no administrator: a one-time setup link, logged for whoever runs the server. */
export async function logSetupLink(service: IdentityService): Promise<void> {
  if ((await service.users.count({ instanceAdmin: true })) > 0) return;
  await service.emailTokens.deleteMany({ kind: "setup" });
  const secret = await newEmailToken(service, { kind: "setup", expiresAt: Date.now() + SETUP_TTL_MS });
  const url = `${configFor(service.broker).publicUrl}/sso/setup?token=${secret}`;
  service.logger.warn(`first run: no administrator exists. Open ${url} to create one (works once, for 24 hours; a restart makes a new link).`);
}

/** The API side (`/v1/docshelf/…`, not in GitBook's API): one's password, sessions and API tokens. */
export const accountActions: IdentityActions = {
  /**
   * PUT /v1/docshelf/user/password `{password, currentPassword?}` → 204: sets the caller's password;
   * `currentPassword` is required (403 when wrong) once the account has one.
   */
  setPassword: {
    params: { password: { type: "string", max: PASSWORD_MAX + 1 }, currentPassword: { type: "string", optional: true, max: PASSWORD_MAX } },
    async handler(this: IdentityService, ctx: Ctx<{ password: string; currentPassword?: string }>) {
      const caller = callerOf(ctx);
      const problem = passwordProblem(ctx.params.password);
      if (problem) throw new BadRequestError(problem);
      const user = await this.loadUser(caller.id);
      if (user.passwordHash) {
        if (ctx.params.currentPassword === undefined) throw new BadRequestError("currentPassword is required to change a password.");
        if ((await countOf(this.attempts, accountKey(user.email))) >= ACCOUNT_FAILURES) throw new ForbiddenError("Too many wrong passwords for this account: wait 15 minutes.");
        if (!(await verifyPassword(ctx.params.currentPassword, user.passwordHash))) {
          await hit(this.attempts, accountKey(user.email));
          throw new ForbiddenError("currentPassword is wrong.");
        }
      }
      await this.users.updateOne({ id: user.id }, { $set: { passwordHash: await hashPassword(ctx.params.password), updatedAt: new Date().toISOString() } });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /** GET /v1/docshelf/user/sessions: the caller's browser sessions (sign-ins), newest first. */
  listSessions: {
    async handler(this: IdentityService, ctx: Ctx<Record<string, never>>) {
      const caller = callerOf(ctx);
      const tokens = await this.tokens.find({ userId: caller.id }, { sort: [["createdAt", -1]], limit: 1000 });
      return {
        items: tokens
          .flatMap((t) => (t.session ? [{ id: t.id, method: t.session.method, label: t.label, createdAt: t.createdAt, ...(t.session.address ? { address: t.session.address } : {}) }] : [])),
      };
    },
  },

  /** DELETE /v1/docshelf/user/sessions/{sessionId} → 204: ends one of the caller's sessions (its token is revoked; the app drops the session). */
  revokeSession: {
    params: { sessionId: { type: "string", min: 1, max: 64 } },
    async handler(this: IdentityService, ctx: Ctx<{ sessionId: string }>) {
      const caller = callerOf(ctx);
      const token = await this.tokens.findOne({ id: ctx.params.sessionId, userId: caller.id });
      if (!token?.session) throw new NotFoundError(`Session ${ctx.params.sessionId} was not found.`);
      await this.tokens.deleteOne({ id: token.id });
      ctx.meta.revokedTokenHash = token.hash;
      await broadcast(this.broker, events.identityTokenRevoked, { tokenHash: token.hash });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /** GET /v1/docshelf/user/tokens: the caller's API tokens, those an SSO token page showed included (never the token itself). */
  listTokens: {
    async handler(this: IdentityService, ctx: Ctx<Record<string, never>>) {
      const caller = callerOf(ctx);
      const tokens = await this.tokens.find({ userId: caller.id }, { sort: [["createdAt", -1]], limit: 1000 });
      return { items: tokens.filter((t) => !t.session).map((t) => ({ id: t.id, label: t.label ?? null, createdAt: t.createdAt })) };
    },
  },
};
