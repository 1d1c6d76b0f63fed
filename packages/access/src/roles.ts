// The roles, and the keys under which content stores the roles it grants.
export const ROLES = ["admin", "create", "review", "edit", "comment", "read"] as const;
export type Role = (typeof ROLES)[number];
/** null is a guest: a member with no role of their own. */
export type RoleOrGuest = Role | null;

/**
 * Roles granted on one piece of content (a space or a collection) to teams and to single members,
 * keyed by `grantKey`: stored on the content's own document so that reading it costs no extra query.
 */
export type Grants = Record<string, Role>;

export function grantKey(principal: "team" | "user", id: string): string {
  return `${principal === "team" ? "t" : "u"}_${id}`;
}
