// Which account a SAML sign-in may open. An organization's admin runs its IdP, so an IdP may sign in
// only accounts it created or that their owner linked to it, never any account that shares an email.

export interface AccountFacts {
  /** The email the IdP vouched for. */
  email: string;
  /** The account linked to this provider for that email, if any. */
  linkedUserId?: string;
  /** The account that has that email, if any. */
  existing?: { id: string; email: string };
  /** The account whose owner started this sign-in to link it (with a link ticket), if any. */
  linkingUser?: { id: string; email: string };
}

export type AccountDecision =
  | { kind: "create" }
  | { kind: "signIn"; userId: string; link: boolean }
  | { kind: "refuse"; reason: string };

export function decideAccount(f: AccountFacts): AccountDecision {
  if (f.linkingUser) {
    if (f.linkingUser.email !== f.email) return { kind: "refuse", reason: `the identity provider vouched for ${f.email}, not for the account that asked to link.` };
    return { kind: "signIn", userId: f.linkingUser.id, link: f.linkedUserId !== f.linkingUser.id };
  }
  if (f.existing && f.linkedUserId === f.existing.id) return { kind: "signIn", userId: f.existing.id, link: false };
  if (!f.existing) return { kind: "create" };
  return {
    kind: "refuse",
    reason: `an account with the email ${f.email} already exists and is not linked to this provider; its owner links it with POST /v1/orgs/{organizationId}/saml/{samlProviderId}/link.`,
  };
}
