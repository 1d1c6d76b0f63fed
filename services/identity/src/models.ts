// Users and API tokens as stored.
import type { RoleOrGuest } from "@docshelf/access";
import type { CollectionSpec } from "@docshelf/store";
import type { NewNotification, NotificationKind } from "@docshelf/contracts/identity";

export interface UserDoc {
  id: string;
  email: string;
  displayName: string;
  photoURL?: string;
  instanceAdmin: boolean;
  /** scrypt hash of the password (passwords.ts); none: the account signs in otherwise (token, SSO, email link). */
  passwordHash?: string;
  /** false: notifications are not mailed (the account page's setting); absent: they are. */
  notifyByEmail?: boolean;
  /** Notification kinds not emailed even while notifyByEmail is on (the account page's per-kind choice). */
  quietKinds?: NotificationKind[];
  createdAt: string;
  updatedAt: string;
}

export interface TokenDoc {
  id: string;
  userId: string;
  /** SHA-256 of the token; the token itself is never stored. */
  hash: string;
  label?: string;
  /** Minted by a sign-in in the browser (password, email link, SSO) for an app session; listed as a session. */
  session?: { method: "password" | "email-link" | "sso" | "oidc"; address?: string };
  createdAt: string;
}

/**
 * A one-time link sent by email or logged at start-up, stored as the hash (`id`) of its secret:
 * a password reset, a sign-in link (bound to the browser that asked for it), or the first-run setup.
 */
export interface EmailTokenDoc {
  id: string;
  kind: "reset" | "magic" | "setup" | "invite" | "oidc-link";
  /** The account it is for (none for setup, nor for an invitation). */
  userId?: string;
  /** An OpenID link ticket: the provider the ticket's user links their account to. */
  providerId?: string;
  /** An invitation: the address it was sent to (the link proves it) and the organization. */
  email?: string;
  organizationId?: string;
  organizationTitle?: string;
  /** A sign-in link: the app binding of the browser that asked for it, and where to go after. */
  app?: AppSignIn;
  /** Epoch ms after which it no longer works. */
  expiresAt: number;
}

/** An OpenID Provider of one organization (OpenID Connect sign-in, authorization code flow with PKCE). */
export interface OidcProviderDoc {
  id: string;
  organizationId: string;
  label: string;
  /** The issuer: its /.well-known/openid-configuration is fetched (through safe-fetch), its `iss` checked. */
  issuer: string;
  clientId: string;
  /**
   * The client secret the OP gave: kept as is (it is sent to the OP's token endpoint, so it cannot be a
   * hash), never answered by the API.
   */
  clientSecret: string;
  defaultRole: RoleOrGuest;
  defaultTeam?: string;
  createdAt: string;
  updatedAt: string;
}

/** A sign-in sent to the OP and not yet back: `id` is the hash of its `state`; one use, 10 minutes. */
export interface OidcRequestDoc {
  id: string;
  providerId: string;
  /** The PKCE verifier and the nonce of this sign-in, checked when the OP's answer comes back. */
  codeVerifier: string;
  nonce: string;
  /** A sign-in from the app: where its grant goes. */
  app?: AppSignIn;
  /** A link of an existing account (its owner asked for the ticket): the OP must vouch for that account's email. */
  linkUserId?: string;
  expiresAt: number;
}

/** The account an OP's subject signs in, `id` `<providerId>:<sub>`. */
export interface OidcLinkDoc {
  id: string;
  providerId: string;
  userId: string;
  createdAt: string;
}

/** Sign-in attempts counted in a window, per account email (`account:<email>`) or client address (`address:<ip>`). */
export interface AttemptDoc {
  id: string;
  count: number;
  /** Epoch ms when the window ends and the count starts again. */
  windowEnds: number;
}

/** A SAML identity provider of one organization. */
export interface SamlProviderDoc {
  id: string;
  organizationId: string;
  label: string;
  /** The IdP's entity id: the Issuer its responses must carry. */
  entityID?: string;
  /** The IdP's signing certificate, PEM; the only key its responses are checked against. */
  certificate?: string;
  /** Where the browser is sent with the AuthnRequest. */
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole: RoleOrGuest;
  createdAt: string;
  updatedAt: string;
}

/** An AuthnRequest we sent and still wait for; `id` is `<providerId>:<request ID>`. */
export interface SamlRequestDoc {
  id: string;
  issuedAt: string;
  /** The user who asked to link their existing account to this provider with this sign-in. */
  linkUserId?: string;
  /** Set when the sign-in started from the app: the answer is a sign-in grant for it, not a token page. */
  app?: AppSignIn;
  /** Epoch ms after which the request is no longer answered (pruned lazily). */
  expiresAt: number;
}

/** What a sign-in started from the app carries through the IdP round trip. */
export interface AppSignIn {
  /** sha256 (hex) of a value only the browser that started the sign-in holds (the app's sign-in cookie). */
  binding: string;
  /** A local path of this instance to return to once signed in. */
  returnTo: string;
}

/**
 * A one-time grant (stored as its hash, `id`) an SSO sign-in started from the app ends with: the app
 * redeems it once, within seconds, for the user and the hash of the token minted for the sign-in.
 */
export interface SignInGrantDoc extends AppSignIn {
  id: string;
  userId: string;
  tokenHash: string;
  /** Epoch ms after which the grant no longer redeems. */
  expiresAt: number;
}

/**
 * The account a provider signs in for an email, `id` `<providerId>:<email>`. An IdP is run by an
 * organization's admin, so it may only sign in accounts it created or that their owner linked to it.
 */
export interface SamlLinkDoc {
  id: string;
  providerId: string;
  userId: string;
  createdAt: string;
}

/** A one-time ticket (stored as its hash) that lets the next sign-in link its holder's account. */
export interface SamlLinkTicketDoc {
  id: string;
  userId: string;
  providerId: string;
  expiresAt: number;
}

/** A response or assertion ID already accepted; the unique id makes a replay fail on insert. */
export interface SamlConsumedDoc {
  id: string;
  expiresAt: number;
}

/**
 * An email domain an organization claims for SSO, `id` `<organizationId>:<domain>`. Several
 * organizations may claim a domain; `verified` (the domain itself, under a unique index) is set on
 * the one claim that proved it, so a domain is verified for one organization at a time.
 */
export interface SsoDomainDoc {
  id: string;
  organizationId: string;
  domain: string;
  /** The value the TXT record must hold; not a secret (it is published in DNS). */
  challenge: string;
  verified?: string;
  verifiedAt?: string;
  verifiedBy?: "dns" | "instance-admin";
  createdAt: string;
}

/** One notification of one user (the newest MAX_NOTIFICATIONS of each user are kept). */
export interface NotificationDoc extends NewNotification {
  id: string;
  createdAt: string;
  read: boolean;
}

type Names = "notifications" | "oidcProviders" | "oidcRequests" | "oidcLinks" | "emailTokens" | "attempts" | "users" | "tokens" | "samlProviders" | "samlRequests" | "samlConsumed" | "samlLinks" | "samlLinkTickets" | "ssoDomains" | "signInGrants";

export const collections: Record<Names, CollectionSpec> = {
  notifications: { name: "notifications", indexes: [{ fields: ["userId", "createdAt"] }, { fields: ["userId", "read"] }, { fields: ["spaceId"] }] },
  oidcProviders: { name: "oidc_providers", indexes: [{ fields: ["organizationId"] }] },
  oidcRequests: { name: "oidc_requests", indexes: [{ fields: ["expiresAt"] }] },
  oidcLinks: { name: "oidc_links", indexes: [{ fields: ["userId"] }, { fields: ["providerId"] }] },
  emailTokens: { name: "email_tokens", indexes: [{ fields: ["expiresAt"] }, { fields: ["userId"] }] },
  attempts: { name: "sign_in_attempts", indexes: [{ fields: ["windowEnds"] }] },
  users: { name: "users", indexes: [{ fields: ["email"], unique: true }] },
  tokens: { name: "tokens", indexes: [{ fields: ["hash"], unique: true }, { fields: ["userId"] }] },
  samlProviders: { name: "saml_providers", indexes: [{ fields: ["organizationId"] }] },
  samlRequests: { name: "saml_requests", indexes: [{ fields: ["expiresAt"] }] },
  samlConsumed: { name: "saml_consumed", indexes: [{ fields: ["expiresAt"] }] },
  samlLinks: { name: "saml_links", indexes: [{ fields: ["userId"] }, { fields: ["providerId"] }] },
  samlLinkTickets: { name: "saml_link_tickets", indexes: [{ fields: ["expiresAt"] }] },
  signInGrants: { name: "sign_in_grants", indexes: [{ fields: ["expiresAt"] }] },
  ssoDomains: { name: "sso_domains", indexes: [{ fields: ["organizationId"] }, { fields: ["verified"], unique: true, sparse: true }] },
};
