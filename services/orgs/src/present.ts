// The API shape of an organization.
import { organizationPermissions, type OrganizationPermissions, type RoleOrGuest } from "@docshelf/access";
import type { OrgDoc } from "./models";

export interface OrganizationResource {
  object: "organization";
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: OrgDoc["type"];
  useCase?: string;
  defaultRole: RoleOrGuest;
  defaultContent?: { type: "site"; site: string };
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: "free_2024";
  mergeRules: { type: "none" };
  trial: { status: "notapplicable"; count: number };
  internal_isOnNewTrial: true;
  urls: { location: string; app: string; logo?: string };
  permissions: OrganizationPermissions;
}

export function presentOrganization(org: OrgDoc, memberRole: RoleOrGuest | undefined, publicUrl: string): OrganizationResource {
  const resource: OrganizationResource = {
    object: "organization",
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    type: org.type,
    defaultRole: org.defaultRole,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    // A self-hosted instance has no billing: every organization has every feature.
    plan: "free_2024",
    mergeRules: { type: "none" },
    trial: { status: "notapplicable", count: 0 },
    internal_isOnNewTrial: true,
    urls: { location: `${publicUrl}/v1/orgs/${org.id}`, app: `${publicUrl}/o/${org.id}` },
    permissions: organizationPermissions(memberRole),
  };
  if (org.hostname) resource.hostname = org.hostname;
  if (org.useCase) resource.useCase = org.useCase;
  if (org.defaultContent) resource.defaultContent = org.defaultContent;
  if (org.logo) resource.urls.logo = org.logo;
  return resource;
}
