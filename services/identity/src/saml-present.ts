// The API shapes of a SAML provider and of its sign-in entry.
import type { Team } from "@docshelf/contracts/orgs";
import type { RoleOrGuest } from "@docshelf/access";
import type { SamlProviderDoc } from "./models";
import { isConfigured, serviceUrls } from "./saml-config";

/** A team as orgs presents it (GitBook's OrganizationTeam). */
/** GitBook's Team, as `orgs.teamsById` gives it. */
export type TeamResource = Team;

export interface SamlProviderResource {
  object: "saml-provider";
  id: string;
  label: string;
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultTeam?: TeamResource;
  defaultRole: RoleOrGuest;
  createdAt: string;
  status: "active" | "pending";
  service: { acsURL: string; startURL: string; entityID: string };
  urls: { location: string };
}

export function presentSamlProvider(p: SamlProviderDoc, publicUrl: string, team: TeamResource | undefined): SamlProviderResource {
  const urls = serviceUrls(publicUrl, p.id);
  const resource: SamlProviderResource = {
    object: "saml-provider",
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? "",
    entityID: p.entityID ?? "",
    certificate: p.certificate ?? "",
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: isConfigured(p) ? "active" : "pending",
    service: { acsURL: urls.acsURL, startURL: urls.startURL, entityID: urls.entityID },
    urls: { location: `${publicUrl}/v1/orgs/${p.organizationId}/saml/${p.id}` },
  };
  if (team) resource.defaultTeam = team;
  return resource;
}

export function presentSsoLogin(p: SamlProviderDoc, publicUrl: string): { id: string; label: string; startURL: string } {
  return { id: p.id, label: p.label, startURL: serviceUrls(publicUrl, p.id).startURL };
}
