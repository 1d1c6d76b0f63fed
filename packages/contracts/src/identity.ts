// The identity service's internal actions other services call, and the answers they give.
import type { Caller } from "@docshelf/access";
import { action } from "./action";

/** GitBook's embedded User, as `identity.getMany` gives it (and as members, change requests and comments embed it). */
export interface User {
  object: "user";
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
  urls: { location: string };
}

/** Users by id; unknown ids are left out. */
export const getMany = action<{ ids: string[] }, Record<string, User>>("identity.getMany");
/** The users with these emails (an email with no user is left out). */
export const findByEmails = action<{ emails: string[] }, Array<{ id: string; email: string }>>("identity.findByEmails");
/** The caller an API token (by its hash) stands for; null for an unknown or expired token. */
export const authenticate = action<{ tokenHash: string }, Caller | null>("identity.authenticate");
/** Whether the user signed in through the organization's SSO (a SAML provider links them). */
export const ssoLinkedTo = action<{ organizationId: string; userId: string }, boolean>("identity.ssoLinkedTo");

/** An SSO provider an organization's members sign in through, and where the sign-in starts. */
export interface SignInProvider {
  id: string;
  label: string;
  startPath: string;
}

/** The organization's SSO providers (the app's sign-in page). */
export const ssoSignInProviders = action<{ organizationId: string }, { items: SignInProvider[] }>("identity.ssoSignInProviders");

/** What a sign-in grant stands for once redeemed: the user, their session's API token (by hash) and the return path. */
export interface RedeemedGrant {
  user: Caller;
  tokenHash: string;
  returnTo: string;
}

/** Redeems an SSO sign-in grant, once and only with the binding of the browser that started the sign-in (403 otherwise). */
export const redeemSignInGrant = action<{ grant: string; binding: string }, RedeemedGrant>("identity.redeemSignInGrant");
