// Notifications (issue 39): stored per user, the newest MAX_NOTIFICATIONS kept; mailed unless the user turned
// notification emails off. `notify` is internal: the sending service (comments, change requests) has checked
// that each recipient may see what it is about. The rest act as the signed-in user on their own notifications.
import { callerOf } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import {
  MAX_NOTIFY_BATCH,
  NOTIFICATION_KINDS,
  WATCH_ACTIVITIES,
  type NewNotification,
  type NotificationKind,
  type NotificationResource,
  type NotificationSettings,
  type WatchActivity,
} from "@docshelf/contracts/identity";
import { NotFoundError } from "@docshelf/errors";
import { newId, op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { hit, NOTIFICATION_MAILS, notificationMailKey } from "./attempts";
import type { NotificationDoc, UserDoc } from "./models";
import { presentUser } from "./present";
import type { Ctx, IdentityActions, IdentityService } from "./service-types";

/** The most notifications kept per user: older ones are deleted as new ones come. */
export const MAX_NOTIFICATIONS = 200;
export { MAX_NOTIFY_BATCH };
const MAX_EXCERPT = 300;

const VERBS: Record<Exclude<NotificationKind, "watch">, string> = {
  mention: "mentioned you in",
  reply: "replied in",
  "review-request": "asked you to review",
  merge: "merged",
};
/** What happened on a change request the user watches. */
const WATCH_VERBS: Record<WatchActivity, string> = {
  comment: "commented on",
  reply: "replied in",
  "review-request": "asked for a review of",
  merge: "merged",
};

/** The sentence a notification reads as: "Ada mentioned you in Handbook", "Ada commented on change request #3 of Handbook". */
export function headline(actorName: string, kind: NotificationKind, where: string, activity?: WatchActivity): string {
  return `${actorName} ${kind === "watch" ? WATCH_VERBS[activity ?? "comment"] : VERBS[kind]} ${where}`;
}

/** The user's notification settings: the email switch and the kinds emailed. */
function settingsOf(user: UserDoc): NotificationSettings {
  const quiet = user.quietKinds ?? [];
  return {
    email: user.notifyByEmail !== false,
    emailKinds: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, !quiet.includes(k)])) as Record<NotificationKind, boolean>,
  };
}

/** Whether a notification of `kind` is mailed to the user: emails on, and that kind not turned off. */
export function emailed(user: UserDoc, kind: NotificationKind): boolean {
  return user.notifyByEmail !== false && !(user.quietKinds ?? []).includes(kind);
}

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT - 1)}…` : flat;
}

/** Deletes the user's notifications beyond the newest MAX_NOTIFICATIONS. */
async function prune(service: IdentityService, userId: string): Promise<void> {
  const count = await service.notifications.count({ userId });
  if (count <= MAX_NOTIFICATIONS) return;
  const oldest = await service.notifications.find({ userId }, { sort: [["createdAt", 1], ["id", 1]], limit: count - MAX_NOTIFICATIONS });
  await service.notifications.deleteMany({ id: op.in(oldest.map((d) => d.id)) });
}

function mail(service: IdentityService, doc: NotificationDoc, to: UserDoc, actor: UserDoc | undefined): Promise<void> {
  const publicUrl = configFor(service.broker).publicUrl;
  const sentence = headline(actor?.displayName ?? "Someone", doc.kind, doc.where, doc.activity);
  return service.mailer.send({
    to: to.email,
    subject: sentence,
    lines: [
      `${sentence}:`,
      doc.excerpt,
      doc.kind === "watch"
        ? `You get this email because you watch this change request (stop watching it on its page) and emails of watched change requests are on for your account; turn them off at ${publicUrl}/app/account.`
        : `You get these emails because notification emails are on for your account; turn them off at ${publicUrl}/app/account.`,
    ],
    link: { url: `${publicUrl}${doc.link}`, label: "Open it in docshelf" },
  });
}

const notificationRule = {
  type: "object",
  strict: "remove",
  props: {
    userId: idRule,
    kind: { type: "enum", values: [...NOTIFICATION_KINDS] },
    actorId: idRule,
    excerpt: { type: "string", max: 100_000 },
    where: { type: "string", max: 1000 },
    link: { type: "string", min: 1, max: 2048, pattern: /^\/[^/\\]/ },
    spaceId: idRule,
    changeRequestId: { ...idRule, optional: true },
    commentId: { ...idRule, optional: true },
    activity: { type: "enum", values: [...WATCH_ACTIVITIES], optional: true },
  },
} as const;

export const notificationActions: IdentityActions = {
  notify: {
    visibility: "public",
    params: { notifications: { type: "array", max: MAX_NOTIFY_BATCH, items: notificationRule } },
    async handler(ctx: Ctx<{ notifications: NewNotification[] }>) {
      // Nobody is notified of what they did themselves.
      const wanted = ctx.params.notifications.filter((n) => n.userId !== n.actorId);
      if (!wanted.length) return { stored: 0 };
      const ids = [...new Set(wanted.flatMap((n) => [n.userId, n.actorId]))];
      const users = new Map((await this.users.find({ id: op.in(ids) })).map((u) => [u.id, u]));
      let stored = 0;
      const now = new Date().toISOString();
      for (const n of wanted) {
        const to = users.get(n.userId);
        if (!to) continue;
        const doc: NotificationDoc = { id: newId(), userId: n.userId, kind: n.kind, actorId: n.actorId, excerpt: excerptOf(n.excerpt), where: excerptOf(n.where), link: n.link, spaceId: n.spaceId, createdAt: now, read: false };
        if (n.changeRequestId) doc.changeRequestId = n.changeRequestId;
        if (n.commentId) doc.commentId = n.commentId;
        if (n.kind === "watch") doc.activity = n.activity ?? "comment";
        await this.notifications.insert(doc);
        stored++;
        await prune(this, n.userId);
        // Mailed after the answer (the mailer logs a failure and never throws), at most NOTIFICATION_MAILS a window.
        if (emailed(to, n.kind) && (await hit(this.attempts, notificationMailKey(to.id))) <= NOTIFICATION_MAILS) void mail(this, doc, to, users.get(n.actorId));
      }
      return { stored };
    },
  },

  listNotifications: {
    params: { limit: { type: "number", integer: true, min: 1, max: MAX_NOTIFICATIONS, optional: true, convert: true } },
    async handler(ctx: Ctx<{ limit?: number }>): Promise<{ items: NotificationResource[]; unread: number }> {
      const caller = callerOf(ctx);
      const [docs, unread] = await Promise.all([
        this.notifications.find({ userId: caller.id }, { sort: [["createdAt", -1], ["id", -1]], limit: ctx.params.limit ?? 50 }),
        this.notifications.count({ userId: caller.id, read: false }),
      ]);
      const actorIds = [...new Set(docs.map((d) => d.actorId))];
      const publicUrl = configFor(this.broker).publicUrl;
      const actors = new Map((actorIds.length ? await this.users.find({ id: op.in(actorIds) }) : []).map((u) => [u.id, presentUser(u, publicUrl, false)]));
      const items = docs.map((d): NotificationResource => ({
        object: "notification",
        id: d.id,
        kind: d.kind,
        ...(d.kind === "watch" ? { activity: d.activity ?? "comment" } : {}),
        actor: actors.get(d.actorId) ?? null,
        excerpt: d.excerpt,
        where: d.where,
        link: d.link,
        createdAt: d.createdAt,
        read: d.read,
      }));
      return { items, unread };
    },
  },

  unreadNotifications: {
    async handler(ctx: Ctx<Record<string, never>>) {
      return { unread: await this.notifications.count({ userId: callerOf(ctx).id, read: false }) };
    },
  },

  markNotificationsRead: {
    params: { notificationId: { ...idRule, optional: true } },
    async handler(ctx: Ctx<{ notificationId?: string }>) {
      const caller = callerOf(ctx);
      if (ctx.params.notificationId) {
        // Another user's notification is not found, as a missing one.
        const doc = await this.notifications.findOne({ id: ctx.params.notificationId, userId: caller.id });
        if (!doc) throw new NotFoundError(`Notification ${ctx.params.notificationId} was not found.`);
        if (!doc.read) await this.notifications.updateOne({ id: doc.id, userId: caller.id }, { $set: { read: true } });
        return { marked: doc.read ? 0 : 1 };
      }
      // At most MAX_NOTIFICATIONS are kept: one update each.
      const unread = await this.notifications.find({ userId: caller.id, read: false }, { limit: MAX_NOTIFICATIONS * 2 });
      for (const doc of unread) await this.notifications.updateOne({ id: doc.id, userId: caller.id }, { $set: { read: true } });
      return { marked: unread.length };
    },
  },

  getNotificationSettings: {
    async handler(ctx: Ctx<Record<string, never>>): Promise<NotificationSettings> {
      return settingsOf(await this.loadUser(callerOf(ctx).id));
    },
  },

  setNotificationSettings: {
    params: {
      email: { type: "boolean", optional: true },
      emailKinds: { type: "object", optional: true, strict: true, props: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, { type: "boolean", optional: true }])) },
    },
    async handler(ctx: Ctx<{ email?: boolean; emailKinds?: Partial<Record<NotificationKind, boolean>> }>): Promise<NotificationSettings> {
      const caller = callerOf(ctx);
      const set: Partial<UserDoc> = { updatedAt: new Date().toISOString() };
      if (ctx.params.email !== undefined) set.notifyByEmail = ctx.params.email;
      const kinds = ctx.params.emailKinds;
      if (kinds) {
        // A kind left out keeps its setting.
        const user = await this.loadUser(caller.id);
        const quiet = new Set(user.quietKinds ?? []);
        for (const kind of NOTIFICATION_KINDS) {
          if (kinds[kind] === true) quiet.delete(kind);
          else if (kinds[kind] === false) quiet.add(kind);
        }
        set.quietKinds = NOTIFICATION_KINDS.filter((k) => quiet.has(k));
      }
      const updated = await this.users.updateOne({ id: caller.id }, { $set: set });
      if (!updated) throw new NotFoundError(`User ${caller.id} was not found.`);
      return settingsOf(updated);
    },
  },
};
