// Sign-in grants: how an SSO sign-in started from the app opens an app session without identity
// knowing anything of the app. The assertion consumer mints a grant (random, stored as its hash, one
// use, 60 seconds, bound to the browser that started the sign-in) and sends the browser to
// `/app/sso/complete?grant=…`; the app redeems it here for the user and the hash of the token minted
// for the sign-in (the session lives as long as that token).
import { randomBytes } from "node:crypto";
import { hashToken, type Caller } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { ForbiddenError } from "@docshelf/errors";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { AppSignIn } from "./models";
import { isConfigured, serviceUrls } from "./saml-config";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";

/** How long a grant redeems: the browser follows the redirect at once. */
export const GRANT_TTL_MS = 60_000;
/** Where the browser goes with its grant (the app's path on this instance). */
export const GRANT_COMPLETE_PATH = "/app/sso/complete";

const GRANT = /^[A-Za-z0-9_-]{43}$/;
export const BINDING = /^[0-9a-f]{64}$/;

/**
 * A path of this origin only (one leading slash, no `//` or `/\`, no control characters or
 * backslashes): the return path a sign-in carries is never another site.
 */
export function isLocalPath(value: string): boolean {
  if (value.length === 0 || value.length > 2048) return false;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return false;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  try {
    return new URL(value, "http://identity.invalid").origin === "http://identity.invalid";
  } catch {
    return false;
  }
}

/** Mints a grant for the user and the token of this sign-in; answers the grant (only its hash is stored). */
export async function mintSignInGrant(service: IdentityService, fields: AppSignIn & { userId: string; tokenHash: string }): Promise<string> {
  const grant = randomBytes(32).toString("base64url");
  const now = Date.now();
  await service.signInGrants.deleteMany({ expiresAt: op.lt(now) });
  await service.signInGrants.insert({
    id: hashToken(grant),
    userId: fields.userId,
    tokenHash: fields.tokenHash,
    binding: fields.binding,
    returnTo: fields.returnTo,
    expiresAt: now + GRANT_TTL_MS,
  });
  return grant;
}

export interface RedeemedGrant {
  user: Caller;
  tokenHash: string;
  returnTo: string;
}

export const signInGrantActions: IdentityActions = {
  /**
   * Internal (the app's sign-in page): the organization's configured SAML providers and their start
   * paths. No caller: the person is not signed in yet; a provider's start URL is not a secret.
   */
  ssoSignInProviders: {
    visibility: "public",
    params: { organizationId: idRule },
    async handler(this: IdentityService, ctx: Ctx<{ organizationId: string }>) {
      const [providers, oidcProviders] = await Promise.all([
        this.samlProviders.find({ organizationId: ctx.params.organizationId }, { sort: [["createdAt", 1]], limit: 100 }),
        this.oidcProviders.find({ organizationId: ctx.params.organizationId }, { sort: [["createdAt", 1]], limit: 100 }),
      ]);
      const publicUrl = configFor(this.broker).publicUrl;
      return {
        items: [
          ...providers.filter(isConfigured).map((p) => ({ id: p.id, label: p.label, startPath: new URL(serviceUrls(publicUrl, p.id).startURL).pathname })),
          // OpenID providers start the same way (`?app=…&return=…`): the app lists them beside SAML's.
          ...oidcProviders.map((p) => ({ id: p.id, label: p.label, startPath: `/sso/oidc/${p.id}/start` })),
        ],
      };
    },
  },

  /**
   * Internal (the app): redeems a grant once. Refused (403) when unknown, used, expired, or redeemed by
   * another browser than the one that started the sign-in (`binding`); a refused grant is used up too.
   */
  redeemSignInGrant: {
    visibility: "public",
    params: { grant: { type: "string", min: 1, max: 64 }, binding: { type: "string", length: 64 } },
    async handler(this: IdentityService, ctx: Ctx<{ grant: string; binding: string }>): Promise<RedeemedGrant> {
      const refused = new ForbiddenError("This sign-in is unknown, used or expired; sign in again.");
      if (!GRANT.test(ctx.params.grant)) throw refused;
      const id = hashToken(ctx.params.grant);
      const doc = await this.signInGrants.findOne({ id });
      // Deleting is the redemption: of two redemptions at once, one deletes it.
      if (!doc || !(await this.signInGrants.deleteOne({ id }))) throw refused;
      if (doc.expiresAt <= Date.now() || doc.binding !== ctx.params.binding) throw refused;
      const [user, token] = await Promise.all([this.users.findOne({ id: doc.userId }), this.tokens.findOne({ hash: doc.tokenHash })]);
      if (!user || !token || token.userId !== user.id) throw refused;
      return { user: { id: user.id, instanceAdmin: user.instanceAdmin }, tokenHash: doc.tokenHash, returnTo: doc.returnTo };
    },
  },
};
