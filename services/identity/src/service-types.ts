// The identity service's shape as its action modules see it: its collections and shared methods.
import type { Context, Service } from "moleculer";
import type { Collection } from "@docshelf/store";
import type { SamlConsumedDoc, SamlLinkDoc, SamlLinkTicketDoc, SamlProviderDoc, SamlRequestDoc, SsoDomainDoc, TokenDoc, UserDoc } from "./models";

export interface Vars {
  users: Collection<UserDoc>;
  tokens: Collection<TokenDoc>;
  samlProviders: Collection<SamlProviderDoc>;
  samlRequests: Collection<SamlRequestDoc>;
  samlConsumed: Collection<SamlConsumedDoc>;
  samlLinks: Collection<SamlLinkDoc>;
  samlLinkTickets: Collection<SamlLinkTicketDoc>;
  ssoDomains: Collection<SsoDomainDoc>;
}

export type IdentityService = Service<Record<string, unknown>> & Vars;
export type IdentityActions = Service.ServiceActionsSchema<IdentityService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
