// The identity service's shape as its action modules see it: its collections and shared methods.
import type { Context, Service } from "moleculer";
import type { Caller } from "@docshelf/access";
import type { Collection } from "@docshelf/store";
import type { AttemptDoc, NotificationDoc, EmailTokenDoc, OidcLinkDoc, OidcProviderDoc, OidcRequestDoc, SignInGrantDoc, SamlConsumedDoc, SamlLinkDoc, SamlLinkTicketDoc, SamlProviderDoc, SamlRequestDoc, SsoDomainDoc, TokenDoc, UserDoc } from "./models";
import type { Mailer } from "./mailer";
import type { UserResource } from "./present";

export interface Vars {
  users: Collection<UserDoc>;
  tokens: Collection<TokenDoc>;
  samlProviders: Collection<SamlProviderDoc>;
  samlRequests: Collection<SamlRequestDoc>;
  samlConsumed: Collection<SamlConsumedDoc>;
  samlLinks: Collection<SamlLinkDoc>;
  samlLinkTickets: Collection<SamlLinkTicketDoc>;
  ssoDomains: Collection<SsoDomainDoc>;
  signInGrants: Collection<SignInGrantDoc>;
  emailTokens: Collection<EmailTokenDoc>;
  oidcProviders: Collection<OidcProviderDoc>;
  oidcRequests: Collection<OidcRequestDoc>;
  oidcLinks: Collection<OidcLinkDoc>;
  attempts: Collection<AttemptDoc>;
  notifications: Collection<NotificationDoc>;
  /** SMTP, or the log when SMTP_URL is unset (mailer.ts). */
  mailer: Mailer;
}

export interface Methods {
  /** The user as `caller` may see them (their email only to themselves and instance administrators). */
  present(user: UserDoc, caller?: Caller): UserResource;
  /** The user; 404 when there is none. */
  loadUser(userId: string): Promise<UserDoc>;
  /** Creates (once) the instance administrator and its token from ADMIN_EMAIL and ADMIN_TOKEN. */
  ensureAdmin(token: string, email: string): Promise<void>;
  /** Only the user or an instance administrator: 403 otherwise. */
  assertSelfOrAdmin(caller: Caller, userId: string): void;
}

export type IdentityService = Service<Record<string, unknown>> & Vars & Methods;
export type IdentityActions = Service.ServiceActionsSchema<IdentityService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
