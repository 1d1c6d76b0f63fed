// The identity service's internal actions other services call, and the answers they give.
import type { Caller, RoleOrGuest } from "@docshelf/access";
import { action, call, type ActionCaller } from "./action";

/** GitBook's embedded User, as `identity.getMany` gives it (and as members, change requests and comments embed it). */
export interface User {
  object: "user";
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
  urls: { location: string };
}

/** Users by id; unknown ids are left out. */
export const getMany = action<{ ids: string[] }, Record<string, User>>("identity.getMany");
/** How long a user read through `usersById` is used without asking identity again (a change drops it sooner). */
export const USER_CACHE_TTL_MS = 10_000;
const USER_CACHE_MAX = 10_000;

/**
 * A node's cache of `identity.getMany`: the authors and creators a list or a new comment embeds, without a
 * call to identity for each of them every time. A user is kept `USER_CACHE_TTL_MS`; `identity.user.changed`
 * drops one at once (`dropCachedUser`, from each service that reads through it). Unknown ids are never kept.
 * Names and photos only: no access decision reads this.
 */
export class UserCache {
  private readonly entries = new Map<string, { user: User; expires: number }>();
  /** Counts drops, so that users fetched across a drop (they may predate the change) are not kept. */
  private drops = 0;

  constructor(
    private readonly ttlMs = USER_CACHE_TTL_MS,
    private readonly max = USER_CACHE_MAX,
  ) {}

  /** The users `ids` name (unknown ones left out): the kept ones, the others in one `identity.getMany`. */
  async get(caller: ActionCaller, ids: Iterable<string>): Promise<Record<string, User>> {
    const now = Date.now();
    const found: Record<string, User> = {};
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const hit = this.entries.get(id);
      if (hit && hit.expires > now) found[id] = hit.user;
      else missing.push(id);
    }
    if (!missing.length) return found;
    const drops = this.drops;
    const fetched = await call(caller, getMany, { ids: missing });
    const keep = this.drops === drops;
    if (keep && this.entries.size + missing.length > this.max) this.entries.clear();
    for (const id of missing) {
      const user = fetched[id];
      if (!user) continue;
      // Shared by every answer that embeds it: frozen, so that no presenter changes it for the others.
      Object.freeze(user.urls);
      found[id] = Object.freeze(user);
      if (keep) this.entries.set(id, { user, expires: Date.now() + this.ttlMs });
    }
    return found;
  }

  drop(id: string): void {
    this.drops += 1;
    this.entries.delete(id);
  }
}

/** One cache per broker (every service of a process shares it). */
const userCaches = new WeakMap<object, UserCache>();

function userCacheOf(broker: object): UserCache {
  let cache = userCaches.get(broker);
  if (!cache) userCaches.set(broker, (cache = new UserCache()));
  return cache;
}

/** The users `ids` name, as `identity.getMany` answers, through this node's UserCache. */
export function usersById(ctx: ActionCaller & { broker: object }, ids: Iterable<string>): Promise<Record<string, User>> {
  return userCacheOf(ctx.broker).get(ctx, ids);
}

/** For the `identity.user.changed` handler of each service that reads through `usersById`. */
export function dropCachedUser(broker: object, id: string): void {
  userCacheOf(broker).drop(id);
}

/** The users with these emails (an email with no user is left out). */
export const findByEmails = action<{ emails: string[] }, Array<{ id: string; email: string }>>("identity.findByEmails");
/** The caller an API token (by its hash) stands for; null for an unknown or expired token. */
export const authenticate = action<{ tokenHash: string }, Caller | null>("identity.authenticate");
/** Whether the organization holds any email domain verified. */
export const hasVerifiedDomain = action<{ organizationId: string }, boolean>("identity.hasVerifiedDomain");
/** The organization that holds this email domain verified (DNS or an instance administrator), or null. */
export const verifiedDomainOwner = action<{ domain: string }, string | null>("identity.verifiedDomainOwner");
/** Whether the user signed in through the organization's SSO (a SAML provider links them). */
export const ssoLinkedTo = action<{ organizationId: string; userId: string }, boolean>("identity.ssoLinkedTo");

/** An SSO provider an organization's members sign in through, and where the sign-in starts. */
export interface SignInProvider {
  id: string;
  label: string;
  startPath: string;
}

/** The organization's SSO providers (the app's sign-in page). */
export const ssoSignInProviders = action<{ organizationId: string }, { items: SignInProvider[] }>("identity.ssoSignInProviders");

/** What a sign-in grant stands for once redeemed: the user, their session's API token (by hash) and the return path. */
export interface RedeemedGrant {
  user: Caller;
  tokenHash: string;
  returnTo: string;
}

/** Redeems an SSO sign-in grant, once and only with the binding of the browser that started the sign-in (403 otherwise). */
export const redeemSignInGrant = action<{ grant: string; binding: string }, RedeemedGrant>("identity.redeemSignInGrant");

/**
 * Mails each address an invitation to the organization with a one-time link (/sso/invite): an address with
 * no account sets a name and password there and joins; one with an account is told to sign in and accept.
 * Best effort: a mail not sent (no SMTP_URL: the link is logged) never fails the invitation.
 */
export const mailInvitations = action<{ organizationId: string; organizationTitle: string; emails: string[] }, { mailed: number }>("identity.mailInvitations");

// One's own account in the app (issue 39): API tokens, sign-in sessions and the password, as the signed-in user.
export const createToken = action<{ userId: string; label?: string }, { id: string; token: string }>("identity.createToken");
export const revokeToken = action<{ userId: string; tokenId: string }, null>("identity.revokeToken");
export interface TokenListing {
  id: string;
  label: string | null;
  createdAt: string;
}
export const listTokens = action<Record<string, never>, { items: TokenListing[] }>("identity.listTokens");
export interface SessionListing {
  id: string;
  method: string;
  label?: string;
  createdAt: string;
  address?: string;
}
export const listSessions = action<Record<string, never>, { items: SessionListing[] }>("identity.listSessions");
export const revokeSession = action<{ sessionId: string }, null>("identity.revokeSession");
export const setPassword = action<{ password: string; currentPassword?: string }, null>("identity.setPassword");

// An organization's sign-in settings in the app (administrators): verified domains, OIDC and SAML providers.
export interface SsoDomainResource {
  domain: string;
  status?: string;
  verified?: boolean;
  verification: { type: "TXT"; name: string; value: string };
  [field: string]: unknown;
}
export const listSsoDomains = action<{ organizationId: string; limit?: number }, { items: SsoDomainResource[] }>("identity.listSsoDomains");
export const createSsoDomain = action<{ organizationId: string; domain: string }, SsoDomainResource>("identity.createSsoDomain");
export const verifySsoDomain = action<{ organizationId: string; domain: string }, SsoDomainResource>("identity.verifySsoDomain");
export const deleteSsoDomain = action<{ organizationId: string; domain: string }, null>("identity.deleteSsoDomain");
export interface SsoProviderResource {
  id: string;
  label?: string;
  [field: string]: unknown;
}
export const listOidcProviders = action<{ organizationId: string; limit?: number }, { items: SsoProviderResource[] }>("identity.listOidcProviders");
export const createOidcProvider = action<{ organizationId: string; label: string; issuer: string; clientId: string; clientSecret: string }, SsoProviderResource>("identity.createOidcProvider");
export const deleteOidcProvider = action<{ organizationId: string; oidcProviderId: string }, null>("identity.deleteOidcProvider");
export const listSamlProviders = action<{ organizationId: string; limit?: number }, { items: SsoProviderResource[] }>("identity.listSamlProviders");
export const createSamlProvider = action<
  { organizationId: string; label: string; entityID: string; ssoURL: string; certificate: string },
  SsoProviderResource
>("identity.createSamlProvider");
/** Changes the fields given (a certificate, when given, replaces the current one); 400 naming a refused field. */
export const updateSamlProvider = action<
  { organizationId: string; samlProviderId: string; label?: string; entityID?: string; ssoURL?: string; certificate?: string; defaultRole?: RoleOrGuest },
  SsoProviderResource
>("identity.updateSamlProvider");
export const deleteSamlProvider = action<{ organizationId: string; samlProviderId: string }, null>("identity.deleteSamlProvider");

// Notifications (issue 39): stored per user by identity, which also mails them (mailer.ts) unless the user
// turned notification emails off. Other services send them with `notify` after checking that each recipient
// may see what the notification is about; the app lists them and marks them read as the signed-in user.
// `watch`: something happened on a change request the user watches (its `activity` tells what); each user gets
// one notification per event, the direct kind (mention, reply, review request, merge) before `watch`.
export const NOTIFICATION_KINDS = ["mention", "reply", "review-request", "merge", "watch"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** What a `watch` notification is about. */
export const WATCH_ACTIVITIES = ["comment", "reply", "review-request", "merge"] as const;
export type WatchActivity = (typeof WATCH_ACTIVITIES)[number];
/** The most notifications one `notify` call stores. */
export const MAX_NOTIFY_BATCH = 100;

/** One notification to store (and mail) for `userId`. */
export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  /** Who did it (never notified of their own doing: `notify` drops those). */
  actorId: string;
  /** A short excerpt of what it is about (a comment's text, a change request's subject), at most 300 characters. */
  excerpt: string;
  /** Where it is about, for the notification's text: the space's title, or the change request's subject. */
  where: string;
  /** The app's local path it links to ("/s/…"). */
  link: string;
  spaceId: string;
  changeRequestId?: string;
  commentId?: string;
  /** With kind `watch`: what happened on the watched change request. */
  activity?: WatchActivity;
}

/** Internal, no access check (the sender checked each recipient may see it): stores and mails. */
export const notify = action<{ notifications: NewNotification[] }, { stored: number }>("identity.notify");

/** A notification as the signed-in user reads it. */
export interface NotificationResource {
  object: "notification";
  id: string;
  kind: NotificationKind;
  /** With kind `watch`: what happened on the watched change request. */
  activity?: WatchActivity;
  actor: User | null;
  excerpt: string;
  where: string;
  link: string;
  createdAt: string;
  read: boolean;
}

/** The caller's notifications, newest first, and how many of them are unread. */
export const listNotifications = action<{ limit?: number }, { items: NotificationResource[]; unread: number }>("identity.listNotifications");
export const unreadNotifications = action<Record<string, never>, { unread: number }>("identity.unreadNotifications");
/** Marks one of the caller's notifications read (404 for any other), or all of them without `notificationId`. */
export const markNotificationsRead = action<{ notificationId?: string }, { marked: number }>("identity.markNotificationsRead");
export interface NotificationSettings {
  /** Whether notifications are also sent by email (default true). */
  email: boolean;
  /** Which kinds are emailed while `email` is on (each true by default). */
  emailKinds: Record<NotificationKind, boolean>;
}
export const getNotificationSettings = action<Record<string, never>, NotificationSettings>("identity.getNotificationSettings");
/** Sets the email switch, the kinds emailed, or both (a kind left out keeps its setting). */
export const setNotificationSettings = action<{ email?: boolean; emailKinds?: Partial<Record<NotificationKind, boolean>> }, NotificationSettings>(
  "identity.setNotificationSettings",
);
