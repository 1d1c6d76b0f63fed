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
