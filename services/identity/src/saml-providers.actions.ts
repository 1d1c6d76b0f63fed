// SAML providers of an organization (its administrators manage them) and the sign-in entries its members see.
import { call } from "@docshelf/contracts/action";
import * as orgs from "@docshelf/contracts/orgs";
import { atLeast, callerOf, ROLES, type RoleOrGuest } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import type { SamlProviderDoc } from "./models";
import { normalizeCertificate } from "./saml-config";
import { presentSamlProvider, presentSsoLogin, type TeamResource } from "./saml-present";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";

interface ProviderFields {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: RoleOrGuest;
}
type OrgRef = { organizationId: string };
type ProviderRef = OrgRef & { samlProviderId: string };

const fields = {
  label: { type: "string", min: 1, max: 30, trim: true, optional: true },
  entityID: { type: "string", min: 1, max: 1024, trim: true, optional: true },
  certificate: { type: "string", min: 1, max: 10000, optional: true },
  ssoURL: urlRule(2048, { optional: true }),
  defaultTeam: { ...idRule, optional: true },
  defaultRole: { type: "enum", values: [...ROLES], nullable: true, optional: true },
} as const;

/** 404 unless the caller is a member of the organization, 403 when `admin` is asked and they are not one. */
export async function requireMember(ctx: Ctx<OrgRef>, admin: boolean): Promise<void> {
  const caller = callerOf(ctx);
  const membership = await call(ctx, orgs.memberRole, { organizationId: ctx.params.organizationId, userId: caller.id });
  if (!membership.member) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
  if (admin && !atLeast(membership.role, "admin")) throw new ForbiddenError("Only an administrator of the organization can manage its SAML providers.");
}

async function teamsOf(ctx: Ctx<OrgRef>, teamIds: string[]): Promise<Record<string, TeamResource>> {
  if (!teamIds.length) return {};
  return call(ctx, orgs.teamsById, { organizationId: ctx.params.organizationId, teamIds });
}

/** Checks and normalizes the fields a caller gave; the default team must be one of the organization's. */
async function checkedFields(ctx: Ctx<OrgRef & ProviderFields>): Promise<Partial<SamlProviderDoc>> {
  const { label, entityID, certificate, ssoURL, defaultTeam, defaultRole } = ctx.params;
  const set: Partial<SamlProviderDoc> = {};
  if (label !== undefined) set.label = label;
  if (entityID !== undefined) set.entityID = entityID;
  if (ssoURL !== undefined) set.ssoURL = ssoURL;
  if (defaultRole !== undefined) set.defaultRole = defaultRole;
  if (certificate !== undefined) {
    const pem = normalizeCertificate(certificate);
    if (!pem) throw new BadRequestError("Invalid parameters: The 'certificate' field must be an X.509 certificate (PEM or base64).");
    set.certificate = pem;
  }
  if (defaultTeam !== undefined) {
    const teams = await teamsOf(ctx, [defaultTeam]);
    if (!teams[defaultTeam]) throw new BadRequestError(`Invalid parameters: The 'defaultTeam' field names no team of this organization.`);
    set.defaultTeam = defaultTeam;
  }
  return set;
}

async function loadProvider(service: IdentityService, ref: ProviderRef): Promise<SamlProviderDoc> {
  const provider = await service.samlProviders.findOne({ id: ref.samlProviderId, organizationId: ref.organizationId });
  if (!provider) throw new NotFoundError(`SAML provider ${ref.samlProviderId} was not found.`);
  return provider;
}

async function present(service: IdentityService, ctx: Ctx<OrgRef>, providers: SamlProviderDoc[]) {
  const publicUrl = configFor(service.broker).publicUrl;
  const teams = await teamsOf(ctx, [...new Set(providers.flatMap((p) => (p.defaultTeam ? [p.defaultTeam] : [])))]);
  return providers.map((p) => presentSamlProvider(p, publicUrl, p.defaultTeam ? teams[p.defaultTeam] : undefined));
}

export const samlProviderActions: IdentityActions = {
  listSamlProviders: {
    params: { organizationId: idRule, ...listParams },
    async handler(this: IdentityService, ctx: Ctx<OrgRef & { page?: string; limit?: number }>) {
      await requireMember(ctx, true);
      const { organizationId, page, limit } = ctx.params;
      return listPage(this.samlProviders, { organizationId }, { page, limit, sort: [["createdAt", 1]] }, (docs) => present(this, ctx, docs));
    },
  },

  createSamlProvider: {
    params: {
      organizationId: idRule,
      ...fields,
      label: { type: "string", min: 1, max: 30, trim: true },
      entityID: { type: "string", min: 1, max: 1024, trim: true },
      certificate: { type: "string", min: 1, max: 10000 },
      ssoURL: urlRule(2048),
    },
    async handler(this: IdentityService, ctx: Ctx<OrgRef & ProviderFields>) {
      await requireMember(ctx, true);
      const now = new Date().toISOString();
      const provider = { id: newId(), organizationId: ctx.params.organizationId, defaultRole: "read", createdAt: now, updatedAt: now, ...(await checkedFields(ctx)) } as SamlProviderDoc;
      await this.samlProviders.insert(provider);
      const [resource] = await present(this, ctx, [provider]);
      ctx.meta.$statusCode = 201;
      ctx.meta.$location = resource.urls.location;
      return resource;
    },
  },

  getSamlProvider: {
    params: { organizationId: idRule, samlProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef>) {
      await requireMember(ctx, true);
      return (await present(this, ctx, [await loadProvider(this, ctx.params)]))[0];
    },
  },

  updateSamlProvider: {
    params: { organizationId: idRule, samlProviderId: idRule, ...fields },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef & ProviderFields>) {
      await requireMember(ctx, true);
      const current = await loadProvider(this, ctx.params);
      const set = await checkedFields(ctx);
      const updated = await this.samlProviders.updateOne({ id: current.id }, { $set: { ...set, updatedAt: new Date().toISOString() } });
      if (!updated) throw new NotFoundError(`SAML provider ${current.id} was not found.`);
      return (await present(this, ctx, [updated]))[0];
    },
  },

  deleteSamlProvider: {
    params: { organizationId: idRule, samlProviderId: idRule },
    async handler(this: IdentityService, ctx: Ctx<ProviderRef>) {
      await requireMember(ctx, true);
      await this.samlProviders.deleteOne({ id: ctx.params.samlProviderId, organizationId: ctx.params.organizationId });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /** Internal: whether the user ever signed in through (or linked their account to) one of the organization's SAML providers. */
  ssoLinkedTo: {
    visibility: "public",
    params: { organizationId: idRule, userId: idRule },
    async handler(this: IdentityService, ctx: Ctx<OrgRef & { userId: string }>): Promise<boolean> {
      const [links, oidcLinks] = await Promise.all([this.samlLinks.find({ userId: ctx.params.userId }, { limit: 1000 }), this.oidcLinks.find({ userId: ctx.params.userId }, { limit: 1000 })]);
      if (links.length && (await this.samlProviders.count({ organizationId: ctx.params.organizationId, id: op.in(links.map((l) => l.providerId)) })) > 0) return true;
      return oidcLinks.length > 0 && (await this.oidcProviders.count({ organizationId: ctx.params.organizationId, id: op.in(oidcLinks.map((l) => l.providerId)) })) > 0;
    },
  },

  /** The sign-in entries of an organization: for its members, and for anyone who must sign in to become one. */
  listSsoLogins: {
    params: { organizationId: idRule },
    async handler(this: IdentityService, ctx: Ctx<OrgRef>) {
      // Anyone signed in may see them: members an `sso` organization refuses need them to come back in.
      const caller = callerOf(ctx);
      const membership = await call(ctx, orgs.memberRole, { organizationId: ctx.params.organizationId, userId: caller.id });
      if (!membership.exists) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
      const publicUrl = configFor(this.broker).publicUrl;
      const providers = await this.samlProviders.find({ organizationId: ctx.params.organizationId }, { sort: [["createdAt", 1]], limit: 1000 });
      return { items: providers.map((p) => presentSsoLogin(p, publicUrl)) };
    },
  },
};
