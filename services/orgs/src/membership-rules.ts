// Pure rules about memberships: an organization always keeps an administrator; an invitation gives
// each email one role; an invite link's update names one role; SSO organizations admit whom.
import type { RoleOrGuest } from "@docshelf/access";
import { BadRequestError, ConflictError } from "@docshelf/errors";

/**
 * Refuses a change that would leave the organization without an administrator: `current` is the
 * member's role, `next` the role they would have (undefined: removed), `admins` how many active
 * administrators the organization has now.
 */
export function assertAdminRemains(current: RoleOrGuest, next: RoleOrGuest | undefined, admins: number): void {
  if (current !== "admin" || next === "admin") return;
  if (admins <= 1) {
    throw new ConflictError(
      next === undefined
        ? "The last administrator of an organization cannot be removed; make another member an administrator first."
        : "The last administrator of an organization cannot be demoted; make another member an administrator first.",
    );
  }
}

/** One role per invited email (lower-cased): the last entry naming an email wins; a bare email takes `defaultRole`. */
export function inviteRoles(entries: ReadonlyArray<string | { email: string; role: RoleOrGuest }>, defaultRole: RoleOrGuest): Map<string, RoleOrGuest> {
  const roles = new Map<string, RoleOrGuest>();
  for (const entry of entries) {
    if (typeof entry === "string") roles.set(entry.toLowerCase(), defaultRole);
    else roles.set(entry.email.toLowerCase(), entry.role);
  }
  return roles;
}

/**
 * The role an update of an invite link gives it. GitBook's updateOrganizationInviteById takes `{role}`
 * or `{level}` (its name for links to content; here every link is to the organization): exactly one of
 * them, each a role or null for guests. Which roles an admin may give is not limited further: only
 * admins manage links, and an admin may give any role, admin included, as when creating one.
 */
export function linkInviteRole(body: { role?: RoleOrGuest; level?: RoleOrGuest }): RoleOrGuest {
  if (body.role !== undefined && body.level !== undefined) {
    throw new BadRequestError("Invalid parameters: give the link's 'role' or its 'level', not both.");
  }
  if (body.role !== undefined) return body.role;
  if (body.level !== undefined) return body.level;
  throw new BadRequestError("Invalid parameters: The 'role' field (or 'level') is required.");
}

/** The `search` text of a member: what the list's `search` filter matches, lower-cased. */
export function memberSearchText(user: { displayName?: string; email?: string } | undefined): string {
  return [user?.displayName ?? "", user?.email ?? ""].join(" ").toLowerCase().trim();
}

/**
 * An organization with `sso` on refuses members who did not come through single sign-on.
 * Its administrators stay in, so that turning `sso` on cannot lock every administrator out.
 */
export function ssoAdmits(org: { sso: boolean }, member: { sso: boolean; role: RoleOrGuest }): boolean {
  return !org.sso || member.sso || member.role === "admin";
}
