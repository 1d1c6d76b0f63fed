// OpenID Connect sign-in per organization (openid-client, authorization code flow): providers managed by
// the organization's admins (/v1/docshelf/orgs/{id}/oidc, not in GitBook's API), and the browser routes
// /sso/oidc/{id}/start and /callback. Each sign-in carries a state (stored only as its hash, one use,
// 10 minutes), a nonce and a PKCE verifier; it starts from the app (bound to the browser) and ends with
// the app's grant, as SAML does. Accounts follow SAML's rule: an OP creates accounts only in email
// domains its organization verified, and signs in only the accounts it created or that their owner linked
// (POST …/oidc/{id}/link, as SAML's link tickets), by `sub`.
import { emit } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { call } from "@docshelf/contracts/action";
import * as orgs from "@docshelf/contracts/orgs";
import { randomBytes } from "node:crypto";
import { callerOf, hashToken, ROLES, type RoleOrGuest } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import { browserOf, doneMessage, page, seeOther } from "./browser";
import type { OidcProviderDoc, TokenDoc, UserDoc } from "./models";
import { configurationOf, oidc } from "./oidc-client";
import { keepTokensWithinLimit } from "./saml-flow.actions";
import { requireMember } from "./saml-providers.actions";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";
import { BINDING, GRANT_COMPLETE_PATH, isLocalPath, mintSignInGrant } from "./sign-in-grants.actions";
import { domainVerifiedFor } from "./sso-domains.actions";
import { newToken } from "./tokens";

export const OIDC_REQUEST_TTL_MS = 10 * 60_000;
type OrgRef = { organizationId: string };
type ProviderRef = OrgRef & { oidcProviderId: string };

function urlsOf(publicUrl: string, id: string) {
  return { startURL: `${publicUrl}/sso/oidc/${id}/start`, redirectURL: `${publicUrl}/sso/oidc/${id}/callback` };
}

export function presentOidcProvider(p: OidcProviderDoc, publicUrl: string) {
  return {
    object: "oidc-provider",
    id: p.id,
    organizationId: p.organizationId,
    label: p.label,
    issuer: p.issuer,
    clientId: p.clientId,
    defaultRole: p.defaultRole,
    ...(p.defaultTeam ? { defaultTeam: p.defaultTeam } : {}),
    // Give the OP this redirect URI; the client secret is never answered.
    ...urlsOf(publicUrl, p.id),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

function refusedPage(ctx: Ctx<unknown>, reason: string): string {
  return page(ctx, 403, "Sign-in refused", doneMessage(reason));
}

/** The account the OP vouched for, or a reason it may not sign in. */
async function resolveAccount(service: IdentityService, ctx: Ctx<unknown>, provider: OidcProviderDoc, claims: { sub: string; email?: unknown; email_verified?: unknown; name?: unknown }): Promise<UserDoc | string> {
  const linkId = `${provider.id}:${claims.sub}`;
  const link = await service.oidcLinks.findOne({ id: linkId });
  if (link) {
    const user = await service.users.findOne({ id: link.userId });
    return user ?? "the account this identity signed in before is gone.";
  }
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : "";
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) return "the identity provider named no email.";
  if (claims.email_verified !== true) return `the identity provider did not say that ${email} is verified.`;
  if (await service.users.findOne({ email })) {
    return `an account with the email ${email} already exists and was not created by this identity provider, so the provider may not sign it in; its owner links it with POST /v1/docshelf/orgs/{organizationId}/oidc/{oidcProviderId}/link.`;
  }
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (!(await domainVerifiedFor(service, provider.organizationId, domain))) {
    return `No account was created for ${email}: this organization has not verified the email domain ${domain}, so its identity provider may not create accounts in it.`;
  }
  const now = new Date().toISOString();
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 64) : email.slice(0, email.indexOf("@")).slice(0, 64);
  const user: UserDoc = { id: newId(), email, displayName: name, instanceAdmin: false, createdAt: now, updatedAt: now };
  await service.users.insert(user);
  await service.oidcLinks.insert({ id: linkId, providerId: provider.id, userId: user.id, createdAt: now });
  void emit(ctx, events.identityUserCreated, { id: user.id, email: user.email, via: "sso", organizationId: provider.organizationId });
  return user;
}

/** The end of a link: the OP must vouch (verified) for the linking account's own email; then its `sub` signs that account in. */
async function linkAccount(service: IdentityService, ctx: Ctx<unknown>, provider: OidcProviderDoc, userId: string, claims: { sub: string; email?: unknown; email_verified?: unknown }): Promise<string> {
  const user = await service.users.findOne({ id: userId });
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : "";
  if (!user) return refusedPage(ctx, "The account that asked to link is gone.");
  if (email !== user.email || claims.email_verified !== true) {
    return refusedPage(ctx, `The identity provider vouched for ${email || "no email"}${claims.email_verified === true ? "" : " (not verified)"}, not for the account that asked to link.`);
  }
  const id = `${provider.id}:${claims.sub}`;
  const existing = await service.oidcLinks.findOne({ id });
  if (existing && existing.userId !== user.id) return refusedPage(ctx, "This identity is already linked to another account.");
  if (!existing) await service.oidcLinks.insert({ id, providerId: provider.id, userId: user.id, createdAt: new Date().toISOString() });
  return page(ctx, 200, "Account linked", doneMessage(`Your account ${user.email} is linked to ${provider.label}: sign in with it from the app's SSO form.`));
}

const providerFields = {
  label: { type: "string", min: 1, max: 30, trim: true },
  issuer: urlRule(2048),
  clientId: { type: "string", min: 1, max: 256 },
  clientSecret: { type: "string", min: 1, max: 512 },
  defaultRole: { type: "enum", values: [...ROLES], nullable: true, optional: true },
  defaultTeam: { ...idRule, optional: true },
} as const;

export const oidcActions: IdentityActions = {
  listOidcProviders: {
    params: { organizationId: idRule, ...listParams },
    async handler(this: IdentityService, ctx: Ctx<OrgRef & { page?: string; limit?: number }>) {
      await requireMember(ctx, true);
      const publicUrl = configFor(this.broker).publicUrl;
      const { organizationId, page: pageToken, limit } = ctx.params;
      return listPage(this.oidcProviders, { organizationId }, { page: pageToken, limit, sort: [["createdAt", 1]] }, async (docs) => docs.map((p) => presentOidcProvider(p, publicUrl)));
    },
  },

  createOidcProvider: {
    params: { organizationId: idRule, ...providerFields },
    async handler(this: IdentityService, ctx: Ctx<OrgRef & { label: string; issuer: string; clientId: string; clientSecret: string; defaultRole?: RoleOrGuest | null; defaultTeam?: string }>) {
      await requireMember(ctx, true);
      const { organizationId, label, issuer, clientId, clientSecret, defaultRole, defaultTeam } = ctx.params;
      const allowPrivate = configFor(this.broker).oidcAllowPrivate;
      if (!issuer.startsWith("https://") && allowPrivate.length === 0) throw new BadRequestError("Invalid parameters: The 'issuer' field must be an https:// URL.");
      if (defaultTeam !== undefined) {
        const teams = await call(ctx, orgs.teamsById, { organizationId, teamIds: [defaultTeam] });
        if (!teams[defaultTeam]) throw new BadRequestError("Invalid parameters: The 'defaultTeam' field names no team of this organization.");
      }
      if ((await this.oidcProviders.count({ organizationId })) >= 20) throw new BadRequestError("An organization has at most 20 OpenID providers.");
      const now = new Date().toISOString();
      // The issuer exactly as given (a trailing slash included): discovery checks the OP names itself so.
      const doc: OidcProviderDoc = { id: newId(), organizationId, label, issuer, clientId, clientSecret, defaultRole: defaultRole ?? "read", createdAt: now, updatedAt: now };
      if (defaultTeam) doc.defaultTeam = defaultTeam;
      await this.oidcProviders.insert(doc);
      ctx.meta.$statusCode = 201;
      return presentOidcProvider(doc, configFor(this.broker).publicUrl);
    },
  },

  getOidcProvider: {
    params: { organizationId: idRule, oidcProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef>) {
      await requireMember(ctx, true);
      const doc = await this.oidcProviders.findOne({ id: ctx.params.oidcProviderId, organizationId: ctx.params.organizationId });
      if (!doc) throw new NotFoundError(`OpenID provider ${ctx.params.oidcProviderId} was not found.`);
      return presentOidcProvider(doc, configFor(this.broker).publicUrl);
    },
  },

  deleteOidcProvider: {
    params: { organizationId: idRule, oidcProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef>) {
      await requireMember(ctx, true);
      await this.oidcProviders.deleteOne({ id: ctx.params.oidcProviderId, organizationId: ctx.params.organizationId });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /**
   * POST /v1/docshelf/orgs/{organizationId}/oidc/{oidcProviderId}/link → `{url, expiresAt}`: the caller's start
   * URL that links their existing account to this provider, if the OP vouches for the caller's email. One use, 10 minutes.
   */
  createOidcLink: {
    params: { organizationId: idRule, oidcProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef>) {
      const caller = callerOf(ctx);
      const provider = await this.oidcProviders.findOne({ id: ctx.params.oidcProviderId, organizationId: ctx.params.organizationId });
      if (!provider) throw new NotFoundError(`OpenID provider ${ctx.params.oidcProviderId} was not found.`);
      const ticket = randomBytes(32).toString("base64url");
      const expiresAt = Date.now() + OIDC_REQUEST_TTL_MS;
      await this.emailTokens.deleteMany({ expiresAt: op.lt(Date.now()) });
      await this.emailTokens.insert({ id: hashToken(ticket), kind: "oidc-link", userId: caller.id, providerId: provider.id, expiresAt });
      return { url: `${urlsOf(configFor(this.broker).publicUrl, provider.id).startURL}?link=${ticket}`, expiresAt: new Date(expiresAt).toISOString() };
    },
  },

  /** GET /sso/oidc/{id}/start `?app&return` (from the app's SSO form): 302 to the OP with state, nonce and a PKCE challenge. */
  oidcStart: {
    params: { oidcProviderId: idRule, app: { type: "string", max: 64, optional: true }, return: { type: "string", max: 2048, optional: true }, link: { type: "string", max: 64, optional: true } },
    async handler(this: IdentityService, ctx: Ctx<{ oidcProviderId: string; app?: string; return?: string; link?: string }>) {
      const provider = await this.oidcProviders.findOne({ id: ctx.params.oidcProviderId });
      if (!provider) throw new NotFoundError(`OpenID provider ${ctx.params.oidcProviderId} was not found.`);
      let target: { app: { binding: string; returnTo: string } } | { linkUserId: string };
      if (ctx.params.link !== undefined) {
        // Linking an existing account: the ticket (one use, 10 minutes, this provider's) names the account.
        const ticket = await this.emailTokens.findOne({ id: hashToken(ctx.params.link) });
        if (!ticket || ticket.kind !== "oidc-link" || ticket.providerId !== provider.id || ticket.expiresAt <= Date.now() || !ticket.userId || !(await this.emailTokens.deleteOne({ id: ticket.id }))) {
          return refusedPage(ctx, "The link ticket is unknown, used or expired; ask for a new one.");
        }
        target = { linkUserId: ticket.userId };
      } else {
        if (!ctx.params.app || !BINDING.test(ctx.params.app)) throw new BadRequestError("app must be 64 hexadecimal characters: start the sign-in from /app/sign-in.");
        const returnTo = ctx.params.return ?? "/app";
        if (!isLocalPath(returnTo)) throw new BadRequestError("return must be a path of this instance (starting with one /).");
        target = { app: { binding: ctx.params.app, returnTo } };
      }
      const cfg = configFor(this.broker);
      let config;
      try {
        config = await configurationOf(provider, cfg.oidcAllowPrivate);
      } catch (err) {
        this.logger.warn({ err: { message: err instanceof Error ? err.message : String(err) } }, `OpenID provider ${provider.id}: discovery failed`);
        return page(ctx, 502, "Sign-in unavailable", doneMessage("The organization's identity provider could not be reached. Try again later, or ask its administrator."));
      }
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await this.oidcRequests.deleteMany({ expiresAt: op.lt(Date.now()) });
      await this.oidcRequests.insert({ id: hashToken(state), providerId: provider.id, codeVerifier, nonce, ...target, expiresAt: Date.now() + OIDC_REQUEST_TTL_MS });
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: urlsOf(cfg.publicUrl, provider.id).redirectURL,
        scope: "openid email profile",
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      });
      ctx.meta.$statusCode = 302;
      ctx.meta.$location = url.href;
      ctx.meta.$responseHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
      return "";
    },
  },

  /**
   * GET /sso/oidc/{id}/callback `?code&state` (or `?error`): the state is used up first (one use, this
   * provider's, unexpired); openid-client checks the code against the PKCE verifier at the token
   * endpoint, the ID token's signature, issuer, audience and nonce. Then the account, the membership,
   * a session token and the app's grant (303 to /app/sso/complete).
   */
  oidcCallback: {
    params: {
      oidcProviderId: idRule,
      state: { type: "string", max: 256, optional: true },
      code: { type: "string", max: 4096, optional: true },
      error: { type: "string", max: 256, optional: true },
      error_description: { type: "string", max: 1024, optional: true },
      iss: { type: "string", max: 2048, optional: true },
      session_state: { type: "string", max: 1024, optional: true },
    },
    async handler(this: IdentityService, ctx: Ctx<{ oidcProviderId: string; state?: string; code?: string; error?: string; iss?: string; session_state?: string }>) {
      const { oidcProviderId, state } = ctx.params;
      if (!state) return refusedPage(ctx, "The identity provider's answer carries no state.");
      const id = hashToken(state);
      const request = await this.oidcRequests.findOne({ id });
      // Using the state up is the first thing: of two answers with one state, one gets it.
      if (!request || !(await this.oidcRequests.deleteOne({ id })) || request.providerId !== oidcProviderId || request.expiresAt <= Date.now()) {
        return refusedPage(ctx, "This sign-in is unknown, used or expired (its state does not match one started here). Sign in again.");
      }
      if (ctx.params.error) return refusedPage(ctx, `The identity provider refused the sign-in (${ctx.params.error}).`);
      const provider = await this.oidcProviders.findOne({ id: oidcProviderId });
      if (!provider) return refusedPage(ctx, "This identity provider no longer exists.");
      const cfg = configFor(this.broker);
      const current = new URL(urlsOf(cfg.publicUrl, provider.id).redirectURL);
      for (const name of ["code", "state", "iss", "session_state"] as const) {
        const value = ctx.params[name];
        if (value !== undefined) current.searchParams.set(name, value);
      }
      let claims;
      try {
        const config = await configurationOf(provider, cfg.oidcAllowPrivate);
        const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: request.codeVerifier, expectedState: state, expectedNonce: request.nonce, idTokenExpected: true });
        claims = tokens.claims();
      } catch (err) {
        // openid-client's message is general; the oauth4webapi error it wraps names the claim (nonce, iss, aud…).
        const cause = err instanceof Error ? err.cause : undefined;
        const detail = cause instanceof Error ? cause : err;
        // An error the OP answered (ResponseBodyError) carries its OAuth error code and description.
        const answered = err as { error?: unknown; error_description?: unknown };
        const reason =
          typeof answered.error === "string"
            ? `${answered.error}${typeof answered.error_description === "string" ? ` (${answered.error_description})` : ""}`.slice(0, 200)
            : detail instanceof Error
              ? detail.message.split("\n")[0].slice(0, 200)
              : "invalid answer";
        this.logger.info(`OpenID provider ${provider.id}: sign-in refused: ${reason}`);
        return refusedPage(ctx, `The identity provider's answer was refused: ${reason}`);
      }
      if (!claims) return refusedPage(ctx, "The identity provider's answer carries no ID token.");
      if (request.linkUserId) return linkAccount(this, ctx, provider, request.linkUserId, claims);
      if (!request.app) return refusedPage(ctx, "This sign-in was not started from the app. Sign in again.");
      const account = await resolveAccount(this, ctx, provider, claims);
      if (typeof account === "string") return refusedPage(ctx, account);
      const joined = await call(ctx, orgs.joinBySso, {
        organizationId: provider.organizationId,
        userId: account.id,
        email: account.email,
        role: provider.defaultRole,
        ...(provider.defaultTeam ? { teamId: provider.defaultTeam } : {}),
      });
      if (!joined.member) return refusedPage(ctx, "Your membership of this organization is disabled.");
      const token = newToken();
      const doc: TokenDoc = { id: newId(), userId: account.id, hash: hashToken(token), label: `SSO: ${provider.label}`, session: { method: "oidc", address: browserOf(ctx).address ?? "unknown" }, createdAt: new Date().toISOString() };
      await this.tokens.insert(doc);
      await keepTokensWithinLimit(this, account.id, doc.id);
      const grant = await mintSignInGrant(this, { userId: account.id, tokenHash: doc.hash, ...request.app });
      return seeOther(ctx, `${GRANT_COMPLETE_PATH}?grant=${grant}`);
    },
  },
};
