// fastest-validator rules of parameters that several of the service's action files share.
import { ROLES } from "@docshelf/access";
import { idRule } from "@docshelf/validation";

/** A role in the organization, or null for a guest; left out when not given. */
export const optionalRoleRule = { type: "enum", values: [...ROLES], nullable: true, optional: true } as const;

/** The path of one invite link: `/orgs/{organizationId}/link-invites/{inviteId}` (and the join's `/invites/{inviteId}`). */
export const linkInviteRef = { organizationId: idRule, inviteId: idRule };
export type LinkInviteRef = { organizationId: string; inviteId: string };
