// The browser-facing SAML flow: the start URL, the assertion consumer, the SP metadata document.
import { broadcast, emit } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { call } from "@docshelf/contracts/action";
import * as orgs from "@docshelf/contracts/orgs";
import { randomBytes } from "node:crypto";
import { generateServiceProviderMetadata, type Profile } from "@node-saml/node-saml";
import { callerOf, hashToken } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { SamlProviderDoc, SamlRequestDoc, UserDoc } from "./models";
import { decideAccount } from "./saml-accounts";
import { checkResponse, SamlRefusal, type ResponseFacts } from "./saml-checks";
import { isConfigured, REQUEST_TTL_MS, samlFor, serviceUrls } from "./saml-config";
import { consumeOnce, requestCache } from "./saml-store";
import { domainVerifiedFor } from "./sso-domains.actions";
import { BINDING, GRANT_COMPLETE_PATH, isLocalPath, mintSignInGrant } from "./sign-in-grants.actions";
import { browserOf } from "./browser";
import { refusalPage, tokenPage } from "./sso-page";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";
import { newToken } from "./tokens";

type ProviderRef = { samlProviderId: string };
type UsableProvider = SamlProviderDoc & { entityID: string; certificate: string; ssoURL: string };
/** A base64 SAML response of a few assertions and certificates fits in this many characters. */
const MAX_RESPONSE_CHARS = 200_000;

async function usableProvider(service: IdentityService, id: string): Promise<UsableProvider> {
  const provider = await service.samlProviders.findOne({ id });
  if (!provider || !isConfigured(provider)) throw new NotFoundError(`SAML provider ${id} was not found.`);
  return provider;
}

/** The user a link ticket was made for; each ticket works once, for its provider, until it expires. */
async function redeemLinkTicket(service: IdentityService, providerId: string, ticket: string): Promise<string> {
  const id = hashToken(ticket);
  const doc = await service.samlLinkTickets.findOne({ id });
  const redeemed = doc && doc.providerId === providerId && doc.expiresAt > Date.now() && (await service.samlLinkTickets.deleteOne({ id }));
  if (!doc || !redeemed) throw new ForbiddenError("The link ticket is unknown, used or expired; ask for a new one.");
  return doc.userId;
}

/** A sign-in refused with a page for the person in the browser rather than a JSON error. */
class PageRefusal extends Error {}

function refused(reason: string): ForbiddenError {
  return new ForbiddenError(`The SAML response was refused: ${reason}`);
}

/** Checks everything about a posted response; answers what it says about the user, or throws 403. */
async function acceptResponse(service: IdentityService, provider: UsableProvider, samlResponse: string): Promise<{ facts: ResponseFacts; request: SamlRequestDoc | null }> {
  const urls = serviceUrls(configFor(service.broker).publicUrl, provider.id);
  const cache = requestCache(service.samlRequests, provider.id);
  const saml = samlFor(provider, urls, cache);
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw refused(err instanceof Error ? err.message.split("\n")[0].slice(0, 200) : "invalid response");
  }
  const responseXml = profile?.getSamlResponseXml?.();
  const assertionXml = profile?.getAssertionXml?.();
  if (!responseXml || !assertionXml) throw refused("the response carries no assertion.");
  let facts: ResponseFacts;
  try {
    facts = checkResponse(responseXml, assertionXml, { acsURL: urls.acsURL, idpEntityID: provider.entityID });
  } catch (err) {
    if (err instanceof SamlRefusal) throw refused(err.message);
    throw err;
  }
  if (!(await consumeOnce(service.samlConsumed, provider.id, [`response:${facts.responseId}`, `assertion:${facts.assertionId}`]))) {
    throw refused("this response was already used.");
  }
  return { facts, request: cache.answered() };
}

/**
 * The account the IdP vouched for: created on first sign-in, else the one linked to this provider
 * (see saml-accounts.ts). The IdP's display name wins on every sign-in.
 */
async function resolveAccount(service: IdentityService, ctx: Ctx<unknown>, provider: UsableProvider, facts: ResponseFacts, request: SamlRequestDoc | null): Promise<UserDoc> {
  const linkId = `${provider.id}:${facts.email}`;
  const [existing, link, linking] = await Promise.all([
    service.users.findOne({ email: facts.email }),
    service.samlLinks.findOne({ id: linkId }),
    request?.linkUserId ? service.users.findOne({ id: request.linkUserId }) : Promise.resolve(null),
  ]);
  const decision = decideAccount({ email: facts.email, existing: existing ?? undefined, linkedUserId: link?.userId, linkingUser: linking ?? undefined });
  if (decision.kind === "refuse") throw refused(decision.reason);
  const now = new Date().toISOString();
  let user: UserDoc;
  if (decision.kind === "create") {
    // An organization's IdP creates accounts only in email domains that organization verified.
    const domain = facts.email.slice(facts.email.lastIndexOf("@") + 1);
    if (!(await domainVerifiedFor(service, provider.organizationId, domain))) {
      throw new PageRefusal(
        `No account was created for ${facts.email}: this organization has not verified the email domain ${domain}, so its identity provider may not create accounts in it.`,
      );
    }
    user = { id: newId(), email: facts.email, displayName: facts.displayName, instanceAdmin: false, createdAt: now, updatedAt: now };
    // Two first sign-ins at once: the email is unique, so the second fails here and may retry.
    await service.users.insert(user);
    // Vouched for by this organization's SSO only: orgs converts this organization's invitations, no other's.
    void emit(ctx, events.identityUserCreated, { id: user.id, email: user.email, via: "sso", organizationId: provider.organizationId });
  } else {
    const found = decision.userId === existing?.id ? existing : linking;
    if (!found) throw refused("the account is gone.");
    user = found;
    if (user.displayName !== facts.displayName) {
      user = (await service.users.updateOne({ id: user.id }, { $set: { displayName: facts.displayName, updatedAt: now } })) ?? user;
      // As updateUser does: gateways drop cached callers, orgs refreshes the member search text, services drop cached users.
      await broadcast(service.broker, events.identityUserChanged, { id: user.id, displayName: user.displayName, email: user.email });
    }
  }
  if (decision.kind === "create" || decision.link) {
    await service.samlLinks.deleteOne({ id: linkId });
    await service.samlLinks.insert({ id: linkId, providerId: provider.id, userId: user.id, createdAt: now });
  }
  return user;
}

/**
 * Each sign-in mints a token, and a user holds at most MAX_TOKENS_PER_USER: once the new token is in,
 * the oldest tokens earlier browser sign-ins (SSO, password, email link) minted go (revoked on every gateway); tokens made through the
 * API are never touched, so when only those are left the new token goes instead (400). Counting after
 * the insert keeps sign-ins at the same moment from overshooting the limit together.
 */
export async function keepTokensWithinLimit(service: IdentityService, userId: string, newTokenId: string): Promise<void> {
  const max = configFor(service.broker).maxTokensPerUser;
  const held = await service.tokens.count({ userId });
  if (held <= max) return;
  const all = await service.tokens.find({ userId }, { sort: [["createdAt", 1]] });
  const doomed = all.filter((t) => t.id !== newTokenId && (t.session || t.label?.startsWith("SSO: "))).slice(0, held - max);
  if (held - doomed.length > max) {
    await service.tokens.deleteOne({ id: newTokenId });
    throw new BadRequestError(`A user holds at most ${max} API tokens (MAX_TOKENS_PER_USER); revoke one before signing in again.`);
  }
  for (const token of doomed) {
    await service.tokens.deleteOne({ id: token.id });
    await broadcast(service.broker, events.identityTokenRevoked, { tokenHash: token.hash });
  }
}

export const samlFlowActions: IdentityActions = {
  /**
   * GET /sso/saml/{id}/start: sends the browser to the IdP with an AuthnRequest (HTTP-Redirect binding).
   * From the app (`app` = the browser's binding, `return` = a local path): the sign-in ends with a
   * grant for the app instead of a token page (sign-in-grants.actions.ts).
   */
  samlStart: {
    params: {
      samlProviderId: idRule,
      link: { type: "string", optional: true, min: 1, max: 64 },
      app: { type: "string", optional: true, length: 64 },
      return: { type: "string", optional: true, min: 1, max: 2048 },
    },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef & { link?: string; app?: string; return?: string }>) {
      const { app, return: returnTo = "/app" } = ctx.params;
      if (app !== undefined && !BINDING.test(app)) throw new BadRequestError("app must be 64 hexadecimal characters.");
      if (ctx.params.return !== undefined && (app === undefined || !isLocalPath(returnTo))) {
        throw new BadRequestError("return must be a path of this instance (starting with one /), given with app.");
      }
      const provider = await usableProvider(this, ctx.params.samlProviderId);
      const urls = serviceUrls(configFor(this.broker).publicUrl, provider.id);
      const linkUserId = ctx.params.link ? await redeemLinkTicket(this, provider.id, ctx.params.link) : undefined;
      const appSignIn = app === undefined ? undefined : { binding: app, returnTo };
      const saml = samlFor(provider, urls, requestCache(this.samlRequests, provider.id, { linkUserId, app: appSignIn }));
      ctx.meta.$statusCode = 302;
      ctx.meta.$location = await saml.getAuthorizeUrlAsync("", undefined, {});
      ctx.meta.$responseHeaders = { "Cache-Control": "no-store" };
      return "";
    },
  },

  /**
   * POST /sso/saml/{id}/acs: checks the IdP's response, makes the user an SSO member, mints a new API
   * token and shows it; a sign-in started from the app goes on to the app with a grant instead.
   */
  samlAcs: {
    params: {
      samlProviderId: idRule,
      SAMLResponse: { type: "string", min: 1, max: MAX_RESPONSE_CHARS },
      RelayState: { type: "string", max: 1024, optional: true },
    },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef & { SAMLResponse: string }>) {
      const provider = await usableProvider(this, ctx.params.samlProviderId);
      const { facts, request } = await acceptResponse(this, provider, ctx.params.SAMLResponse);
      let user: UserDoc;
      try {
        user = await resolveAccount(this, ctx, provider, facts, request);
      } catch (err) {
        if (!(err instanceof PageRefusal)) throw err;
        ctx.meta.$statusCode = 403;
        ctx.meta.$responseType = "text/html; charset=utf-8";
        ctx.meta.$responseHeaders = { "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'", "Referrer-Policy": "no-referrer" };
        return refusalPage({ title: "Sign-in refused", reason: err.message, advice: "Ask an administrator of the organization to verify the domain (GET /v1/orgs/{organizationId}/domains), or sign in with an account that already exists and is linked to this provider." });
      }
      const joined = await call(ctx, orgs.joinBySso, {
        organizationId: provider.organizationId,
        userId: user.id,
        email: user.email,
        role: provider.defaultRole,
        ...(provider.defaultTeam ? { teamId: provider.defaultTeam } : {}),
      });
      if (!joined.member) throw new ForbiddenError("Your membership of this organization is disabled.");
      const token = newToken();
      const tokenId = newId();
      // A sign-in from the app is a session (listed and ended as one); the token page's token is an API token.
      const session = request?.app ? { session: { method: "sso" as const, address: browserOf(ctx).address ?? "unknown" } } : {};
      await this.tokens.insert({ id: tokenId, userId: user.id, hash: hashToken(token), label: `SSO: ${provider.label}`, ...session, createdAt: new Date().toISOString() });
      await keepTokensWithinLimit(this, user.id, tokenId);
      if (request?.app) {
        // The request (matched by InResponseTo, so chosen by us, not by the response) says where to go.
        const grant = await mintSignInGrant(this, { userId: user.id, tokenHash: hashToken(token), ...request.app });
        ctx.meta.$statusCode = 303;
        ctx.meta.$location = `${GRANT_COMPLETE_PATH}?grant=${grant}`;
        ctx.meta.$responseHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
        return "";
      }
      ctx.meta.$responseType = "text/html; charset=utf-8";
      ctx.meta.$responseHeaders = { "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'", "Referrer-Policy": "no-referrer" };
      return tokenPage({ organizationId: provider.organizationId, email: user.email, token, tokenId, publicUrl: configFor(this.broker).publicUrl });
    },
  },

  /**
   * POST /v1/orgs/{organizationId}/saml/{samlProviderId}/link: the caller's start URL that links their
   * existing account to this provider, if the IdP vouches for the caller's email. One use, 10 minutes.
   */
  createSamlLink: {
    params: { organizationId: idRule, samlProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef & { organizationId: string }>) {
      const caller = callerOf(ctx);
      const provider = await this.samlProviders.findOne({ id: ctx.params.samlProviderId, organizationId: ctx.params.organizationId });
      if (!provider || !isConfigured(provider)) throw new NotFoundError(`SAML provider ${ctx.params.samlProviderId} was not found.`);
      const ticket = randomBytes(32).toString("base64url");
      const expiresAt = Date.now() + REQUEST_TTL_MS;
      await this.samlLinkTickets.deleteMany({ expiresAt: op.lt(Date.now()) });
      await this.samlLinkTickets.insert({ id: hashToken(ticket), userId: caller.id, providerId: provider.id, expiresAt });
      const { startURL } = serviceUrls(configFor(this.broker).publicUrl, provider.id);
      return { url: `${startURL}?link=${ticket}`, expiresAt: new Date(expiresAt).toISOString() };
    },
  },

  /** GET /sso/saml/{id}/metadata: the SP metadata document to give the IdP. */
  samlMetadata: {
    params: { samlProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef>) {
      const provider = await this.samlProviders.findOne({ id: ctx.params.samlProviderId });
      if (!provider) throw new NotFoundError(`SAML provider ${ctx.params.samlProviderId} was not found.`);
      const urls = serviceUrls(configFor(this.broker).publicUrl, provider.id);
      ctx.meta.$responseType = "application/samlmetadata+xml; charset=utf-8";
      return generateServiceProviderMetadata({
        issuer: urls.entityID,
        callbackUrl: urls.acsURL,
        identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        wantAssertionsSigned: true,
      });
    },
  },
};
