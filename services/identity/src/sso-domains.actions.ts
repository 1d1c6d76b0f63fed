// Email domains an organization verifies before its SAML providers may create accounts in them:
// a DNS TXT record the API hands out, or an instance administrator's approval.
import { call } from "@docshelf/contracts/action";
import * as orgs from "@docshelf/contracts/orgs";
import { randomBytes } from "node:crypto";
import { callerOf } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { DnsLookupError, txtRecords } from "./dns-txt";
import type { SsoDomainDoc } from "./models";
import { requireMember } from "./saml-providers.actions";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";

/** Most domains one organization may claim (verified or not). */
export const MAX_DOMAINS_PER_ORG = 20;
/** The label in front of the domain where the TXT record lives. */
export const TXT_LABEL = "_docshelf-verification";
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const domainRule = { type: "string", max: 253, pattern: DOMAIN, messages: { stringPattern: "The 'domain' field must be a domain name such as example.com." } } as const;

type OrgRef = { organizationId: string };
type DomainRef = OrgRef & { domain: string };

export interface SsoDomainResource {
  object: "sso-domain";
  organization: string;
  domain: string;
  status: "pending" | "verified";
  verification: { type: "TXT"; name: string; value: string };
  verifiedAt?: string;
  verifiedBy?: "dns" | "instance-admin";
  createdAt: string;
  urls: { location: string };
}

const claimId = (organizationId: string, domain: string) => `${organizationId}:${domain}`;

function present(d: SsoDomainDoc, publicUrl: string): SsoDomainResource {
  return {
    object: "sso-domain",
    organization: d.organizationId,
    domain: d.domain,
    status: d.verified ? "verified" : "pending",
    verification: { type: "TXT", name: `${TXT_LABEL}.${d.domain}`, value: d.challenge },
    ...(d.verifiedAt ? { verifiedAt: d.verifiedAt, verifiedBy: d.verifiedBy } : {}),
    createdAt: d.createdAt,
    urls: { location: `${publicUrl}/v1/orgs/${d.organizationId}/domains/${d.domain}` },
  };
}

/** Organization admins; instance administrators too where `instanceAdmin` (the organization must exist). */
async function requireAccess(ctx: Ctx<OrgRef>, instanceAdmin: boolean): Promise<void> {
  if (instanceAdmin && callerOf(ctx).instanceAdmin) {
    const m = await call(ctx, orgs.memberRole, { organizationId: ctx.params.organizationId, userId: callerOf(ctx).id });
    if (!m.exists) throw new NotFoundError(`Organization ${ctx.params.organizationId} was not found.`);
    return;
  }
  await requireMember(ctx, true);
}

async function loadClaim(service: IdentityService, ref: DomainRef): Promise<SsoDomainDoc> {
  const claim = await service.ssoDomains.findOne({ id: claimId(ref.organizationId, ref.domain.toLowerCase()) });
  if (!claim) throw new NotFoundError(`The domain ${ref.domain} is not claimed by this organization.`);
  return claim;
}

/** 409 when another organization holds the domain verified. */
async function assertFree(service: IdentityService, organizationId: string, domain: string): Promise<void> {
  const holder = await service.ssoDomains.findOne({ verified: domain });
  if (holder && holder.organizationId !== organizationId) throw heldElsewhere(domain);
}

const heldElsewhere = (domain: string) => new ConflictError(`The domain ${domain} is already verified by another organization.`);

async function markVerified(service: IdentityService, claim: SsoDomainDoc, by: "dns" | "instance-admin"): Promise<SsoDomainDoc> {
  if (claim.verified) return claim;
  try {
    // The unique index on `verified` decides between two organizations verifying at the same moment.
    const updated = await service.ssoDomains.updateOne({ id: claim.id }, { $set: { verified: claim.domain, verifiedAt: new Date().toISOString(), verifiedBy: by } });
    if (!updated) throw new NotFoundError(`The domain ${claim.domain} is not claimed by this organization.`);
    return updated;
  } catch (err) {
    if (err instanceof ConflictError) throw heldElsewhere(claim.domain);
    throw err;
  }
}

/** A new claim (or this organization's existing one) of a domain no other organization holds. */
async function claim(service: IdentityService, organizationId: string, domain: string): Promise<{ doc: SsoDomainDoc; created: boolean }> {
  await assertFree(service, organizationId, domain);
  const existing = await service.ssoDomains.findOne({ id: claimId(organizationId, domain) });
  if (existing) return { doc: existing, created: false };
  if ((await service.ssoDomains.count({ organizationId })) >= MAX_DOMAINS_PER_ORG) {
    throw new BadRequestError(`Invalid parameters: an organization claims at most ${MAX_DOMAINS_PER_ORG} domains; delete one first.`);
  }
  const doc: SsoDomainDoc = { id: claimId(organizationId, domain), organizationId, domain, challenge: `docshelf-verification=${randomBytes(24).toString("base64url")}`, createdAt: new Date().toISOString() };
  try {
    return { doc: await service.ssoDomains.insert(doc), created: true };
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    const again = await service.ssoDomains.findOne({ id: doc.id });
    if (!again) throw err;
    return { doc: again, created: false };
  }
}

/** Whether `organizationId` holds `domain` verified: its SAML providers may create accounts there. */
export async function domainVerifiedFor(service: IdentityService, organizationId: string, domain: string): Promise<boolean> {
  return (await service.ssoDomains.count({ verified: domain.toLowerCase(), organizationId })) > 0;
}

export const ssoDomainActions: IdentityActions = {
  /**
   * Internal: the organization that holds `domain` verified (at most one does), or null. Orgs lists an
   * organization under an email domain only when it is that one.
   */
  /** Internal: whether the organization holds any domain verified (sites send its visitors to external redirects without a warning then). */
  hasVerifiedDomain: {
    visibility: "public",
    params: { organizationId: { type: "string", max: 100 } },
    async handler(this: IdentityService, ctx: Ctx<OrgRef>): Promise<boolean> {
      return (await this.ssoDomains.count({ organizationId: ctx.params.organizationId, verified: op.exists(true) })) > 0;
    },
  },
  verifiedDomainOwner: {
    visibility: "public",
    params: { domain: { type: "string", max: 253 } },
    async handler(this: IdentityService, ctx: Ctx<{ domain: string }>): Promise<string | null> {
      const held = await this.ssoDomains.findOne({ verified: ctx.params.domain.toLowerCase() });
      return held?.organizationId ?? null;
    },
  },

  /** GET /v1/orgs/{organizationId}/domains: the organization's claimed domains. */
  listSsoDomains: {
    params: { organizationId: idRule, ...listParams },
    async handler(this: IdentityService, ctx: Ctx<OrgRef & { page?: string; limit?: number }>) {
      await requireAccess(ctx, true);
      const publicUrl = configFor(this.broker).publicUrl;
      const { organizationId, page, limit } = ctx.params;
      return listPage(this.ssoDomains, { organizationId }, { page, limit, sort: [["domain", 1]] }, async (docs) => docs.map((d) => present(d, publicUrl)));
    },
  },

  /** POST /v1/orgs/{organizationId}/domains `{domain}`: claims it and hands out the TXT record that proves it. */
  createSsoDomain: {
    params: { organizationId: idRule, domain: domainRule },
    async handler(this: IdentityService, ctx: Ctx<DomainRef>) {
      await requireAccess(ctx, false);
      const { doc, created } = await claim(this, ctx.params.organizationId, ctx.params.domain.toLowerCase());
      const resource = present(doc, configFor(this.broker).publicUrl);
      if (created) {
        ctx.meta.$statusCode = 201;
        ctx.meta.$location = resource.urls.location;
      }
      return resource;
    },
  },

  getSsoDomain: {
    params: { organizationId: idRule, domain: domainRule },
    async handler(this: IdentityService, ctx: Ctx<DomainRef>) {
      await requireAccess(ctx, true);
      return present(await loadClaim(this, ctx.params), configFor(this.broker).publicUrl);
    },
  },

  /** POST …/domains/{domain}/verify: looks the TXT record up; verified when it holds the challenge. */
  verifySsoDomain: {
    params: { organizationId: idRule, domain: domainRule },
    async handler(this: IdentityService, ctx: Ctx<DomainRef>) {
      await requireAccess(ctx, false);
      const current = await loadClaim(this, ctx.params);
      const publicUrl = configFor(this.broker).publicUrl;
      if (current.verified) return present(current, publicUrl);
      await assertFree(this, current.organizationId, current.domain);
      const name = `${TXT_LABEL}.${current.domain}`;
      let values: string[];
      try {
        values = await txtRecords(name, configFor(this.broker).ssoDomains);
      } catch (err) {
        if (err instanceof DnsLookupError) throw new BadRequestError(`The domain ${current.domain} is not verified: ${err.message} for the TXT record ${name}.`);
        throw err;
      }
      if (!values.includes(current.challenge)) {
        throw new BadRequestError(`The domain ${current.domain} is not verified: no TXT record ${name} holds "${current.challenge}" (found ${values.length} other record${values.length === 1 ? "" : "s"}).`);
      }
      return present(await markVerified(this, current, "dns"), publicUrl);
    },
  },

  /** POST …/domains/{domain}/approve: an instance administrator vouches for the domain without DNS. */
  approveSsoDomain: {
    params: { organizationId: idRule, domain: domainRule },
    async handler(this: IdentityService, ctx: Ctx<DomainRef>) {
      const caller = callerOf(ctx);
      if (!caller.instanceAdmin) {
        await requireMember(ctx, true);
        throw new ForbiddenError("Only an instance administrator can approve a domain; organization admins verify it by DNS.");
      }
      await requireAccess(ctx, true);
      const { doc } = await claim(this, ctx.params.organizationId, ctx.params.domain.toLowerCase());
      return present(await markVerified(this, doc, "instance-admin"), configFor(this.broker).publicUrl);
    },
  },

  /** DELETE …/domains/{domain} → 204 (also when not claimed): gives the domain up. */
  deleteSsoDomain: {
    params: { organizationId: idRule, domain: domainRule },
    async handler(this: IdentityService, ctx: Ctx<DomainRef>) {
      await requireAccess(ctx, true);
      await this.ssoDomains.deleteOne({ id: claimId(ctx.params.organizationId, ctx.params.domain.toLowerCase()) });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },
};
