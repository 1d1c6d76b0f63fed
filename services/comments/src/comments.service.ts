// Comments and replies on spaces (and, through the same actions, on change requests), with reactions and resolution.
import type * as events from "@docshelf/contracts/events";
import type { Context, ServiceSchema } from "moleculer";
import { atLeast, callerOf, type RoleOrGuest } from "@docshelf/access";
import { configFor } from "@docshelf/config";
import { ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, storeMixin, type Collection } from "@docshelf/store";
import type { BodyFormat } from "./body";
import { commenterActions } from "./commenters.actions";
import { commentActions } from "./comments.actions";
import { CountSync } from "@docshelf/count-sync";
import { call, type PayloadOf } from "@docshelf/contracts/action";
import * as changeRequests from "@docshelf/contracts/change-requests";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as keptAccess from "@docshelf/contracts/kept-access";
import * as orgs from "@docshelf/contracts/orgs";
import { mentionedUserIds, mentionsAsText } from "./mentions";
import { collections, type CommentDoc, type ReplyDoc, type Thread } from "./models";
import type { PagesMeta, PageSnapshot } from "./pages";
import { commentPermissions } from "./permissions";
import { presentComment, presentReply, userIdsOf, usersOf, type User } from "./present";
import { applyReactions } from "./reactions";
import { replyActions } from "./replies.actions";
import type { Ctx, Methods, Posted, ThreadAccess, Vars } from "./service-types";

const REACTION_ATTEMPTS = 5;
/** The most thread participants (the comment's author and earlier repliers) a reply notifies. */
const MAX_REPLY_NOTIFIED = 20;

function threadKey(thread: Thread): string {
  return JSON.stringify([thread.spaceId, thread.changeRequestId]);
}

/** Writes within this long of each other share one count sent (and one mark): a count is eventually right, this much later. */
const COUNT_DELAY_MS = 100;

export function commentsSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "comments",
    // keptAccessMixin: the events that drop the node's kept access answers (reads of a space's thread use them).
    mixins: [storeMixin(collections), keptAccess.keptAccessMixin()],

    actions: {
      ...commentActions,
      ...replyActions,
      ...commenterActions,
    },

    events: {
      // Users embedded in answers are read through contracts' usersById, kept for a few seconds: a change drops one at once.
      "identity.user.changed": {
        handler(ctx: Context<PayloadOf<typeof events.identityUserChanged>>) {
          identity.dropCachedUser(this.broker, ctx.params.id);
        },
      },
      // Deleted spaces hide their comments (content.spaceAccess says they do not exist) until restored;
      // purged ones take them along for good.
      "content.space.purged": {
        async handler(ctx: Context<PayloadOf<typeof events.contentSpacePurged>>) {
          await this.replies.deleteMany({ spaceId: ctx.params.spaceId });
          await this.commenters.deleteMany({ spaceId: ctx.params.spaceId });
          await this.comments.deleteMany({ spaceId: ctx.params.spaceId });
        },
      },
    },

    methods: {
      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      async openSpaceThread(ctx: Ctx<unknown>, spaceId: string, opts?: { kept?: boolean }): Promise<ThreadAccess> {
        const caller = callerOf(ctx);
        const space = opts?.kept ? await keptAccess.keptSpaceAccessOf(ctx, spaceId) : await call(ctx, content.spaceAccess, { spaceId, userId: caller.id });
        if (!space.exists || !space.role || !space.revision) throw new NotFoundError(`Space ${spaceId} was not found.`);
        const access: ThreadAccess = { thread: { spaceId, changeRequestId: null }, caller, role: space.role as RoleOrGuest, revision: space.revision };
        if (space.organizationId) access.organizationId = space.organizationId;
        return access;
      },

      async openChangeRequestThread(ctx: Ctx<unknown>, spaceId: string, changeRequestId: string): Promise<ThreadAccess> {
        const caller = callerOf(ctx);
        const cr = await call(ctx, changeRequests.access, {
          spaceId,
          changeRequestId,
          userId: caller.id,
        });
        if (!cr.exists || !cr.id || !cr.role || !cr.revision) throw new NotFoundError(`Change request ${changeRequestId} was not found.`);
        const access: ThreadAccess = { thread: { spaceId, changeRequestId: cr.id }, caller, role: cr.role as RoleOrGuest, revision: cr.revision };
        if (cr.number) access.changeRequestNumber = cr.number;
        return access;
      },

      requireCommenter(access: ThreadAccess, doing: string) {
        if (!atLeast(access.role, "comment")) throw new ForbiddenError(`${doing} takes the comment role or better on the space.`);
      },

      async loadComment(access: ThreadAccess, commentId: string) {
        const comment = await this.comments.findOne({ id: commentId, ...access.thread });
        if (!comment) throw new NotFoundError(`Comment ${commentId} was not found.`);
        return comment;
      },

      async loadReply(comment: CommentDoc, replyId: string) {
        const reply = await this.replies.findOne({ id: replyId, commentId: comment.id });
        if (!reply) throw new NotFoundError(`Reply ${replyId} was not found.`);
        return reply;
      },

      async presentComments(ctx: Ctx<unknown>, access: ThreadAccess, docs: CommentDoc[], format?: BodyFormat, users?: Promise<Record<string, User>>) {
        if (!docs.length) return [];
        const pageIds = [...new Set(docs.flatMap((d) => (d.target.page ? [d.target.page.id] : [])))];
        const [known, pages] = await Promise.all([
          users ?? usersOf(ctx, userIdsOf(docs)),
          pageIds.length
            ? call(ctx, content.pagesMeta, {
                spaceId: access.thread.spaceId,
                revisionId: access.revision,
                pageIds,
              })
            : Promise.resolve<PagesMeta>({ revision: null, pages: {} }),
        ]);
        const context = presentContext(this.publicUrl(), access, known, pages.pages, format);
        return docs.map((doc) => presentComment(doc, context));
      },

      async presentReplies(ctx: Ctx<unknown>, access: ThreadAccess, docs: ReplyDoc[], format?: BodyFormat) {
        if (!docs.length) return [];
        const users = await usersOf(ctx, userIdsOf(docs));
        const context = presentContext(this.publicUrl(), access, users, {}, format);
        return docs.map((doc) => presentReply(doc, context));
      },

      async changeReactions<T extends CommentDoc | ReplyDoc>(collection: Collection<T>, id: string, userId: string, added: string[], removed: string[]) {
        for (let attempt = 0; attempt < REACTION_ATTEMPTS; attempt++) {
          const doc = await collection.findOne({ id });
          if (!doc) throw new NotFoundError(`${id} was not found.`);
          const reactions = applyReactions(doc.reactions, userId, added, removed, new Date().toISOString());
          const updated = await collection.updateOne({ id, version: doc.version }, { $set: { reactions } as Partial<T>, $inc: { version: 1 } });
          if (updated) return updated;
        }
        throw new ConflictError("The reactions changed concurrently; try again.");
      },

      async recordCommenter(thread: Thread, userId: string, at: string) {
        // Most comments are by someone who commented on the thread before: one indexed read, rather than an
        // insert refused by the unique index (a refused insert builds an error and undoes its index entries).
        if (await this.commenters.findOne({ ...thread, userId })) return;
        try {
          await this.commenters.insert({ id: newId(), ...thread, userId, firstAt: at });
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
        }
      },

      async forgetSilent(thread: Thread, userIds: string[]) {
        for (const userId of new Set(userIds)) {
          const [comments, replies] = await Promise.all([
            this.comments.count({ ...thread, postedBy: userId }),
            this.replies.count({ ...thread, postedBy: userId }),
          ]);
          if (comments + replies === 0) await this.commenters.deleteOne({ ...thread, userId });
        }
      },

      async notifyPosted(ctx: Ctx<unknown>, access: ThreadAccess, posted: Posted, parent?: CommentDoc) {
        try {
          const mentioned = mentionedUserIds(posted.markdown).filter((id) => id !== posted.postedBy);
          // A change request's watchers (issue 39) hear of every comment and reply, once: a mention or reply notification
          // is enough. Read beside the reply's participants (a store read here, a call to change-requests there).
          const [participants, watching] = await Promise.all([
            parent ? this.participantsOf(parent) : [],
            access.thread.changeRequestId ? this.watchersOf(ctx, access.thread.spaceId, access.thread.changeRequestId) : [],
          ]);
          const replied = participants.filter((id) => id !== posted.postedBy && !mentioned.includes(id));
          const watchers = watching.filter((id) => id !== posted.postedBy && !mentioned.includes(id) && !replied.includes(id));
          if (!mentioned.length && !replied.length && !watchers.length) return;
          const readers = await this.readersAmong(ctx, access, [...mentioned, ...replied, ...watchers]);
          if (!readers.size) return;
          const { spaceId, changeRequestId } = access.thread;
          const title = [...readers.values()][0] || "a space";
          const number = access.changeRequestNumber;
          const where = changeRequestId ? `change request #${number ?? "?"} of ${title}` : posted.page ? `${posted.page.title} in ${title}` : title;
          const link = appLink(spaceId, changeRequestId ? number : undefined, posted.page?.path);
          const base = { actorId: posted.postedBy, excerpt: mentionsAsText(posted.markdown.slice(0, 2000)), where, link, spaceId, commentId: posted.commentId, ...(changeRequestId ? { changeRequestId } : {}) };
          const notifications: identity.NewNotification[] = [
            ...mentioned.filter((id) => readers.has(id)).map((userId) => ({ ...base, userId, kind: "mention" as const })),
            ...replied.filter((id) => readers.has(id)).map((userId) => ({ ...base, userId, kind: "reply" as const })),
            ...watchers.filter((id) => readers.has(id)).map((userId) => ({ ...base, userId, kind: "watch" as const, activity: parent ? ("reply" as const) : ("comment" as const) })),
          ];
          for (let i = 0; i < notifications.length; i += identity.MAX_NOTIFY_BATCH) {
            await call(ctx, identity.notify, { notifications: notifications.slice(i, i + identity.MAX_NOTIFY_BATCH) });
          }
        } catch (err) {
          this.logger.warn({ err: { message: (err as Error)?.message } }, "notifying of a comment failed; it was posted");
        }
      },

      async watchersOf(ctx: Ctx<unknown>, spaceId: string, changeRequestId: string) {
        // Without an answer, the mentions and replies are still notified.
        try {
          return (await call(ctx, changeRequests.watchers, { spaceId, changeRequestId })).userIds;
        } catch (err) {
          this.logger.warn({ err: { message: (err as Error)?.message }, changeRequestId }, "reading a change request's watchers failed; they are not notified of this post");
          return [];
        }
      },

      async participantsOf(parent: CommentDoc) {
        // The comment's author and its earliest repliers, at most MAX_REPLY_NOTIFIED people.
        const replies = await this.replies.find({ commentId: parent.id }, { sort: [["postedAt", 1]], limit: 200 });
        return [...new Set([parent.postedBy, ...replies.map((r) => r.postedBy)])].slice(0, MAX_REPLY_NOTIFIED);
      },

      async readersAmong(ctx: Ctx<unknown>, access: ThreadAccess, userIds: string[]) {
        const readers = new Map<string, string>();
        const organizationId = await this.organizationOf(ctx, access);
        // Members of the space's organization only: a public space is readable by anyone, who is not notified.
        const members = await call(ctx, orgs.membersOf, { organizationId, userIds: [...new Set(userIds)] });
        const answers = await Promise.all(
          Object.keys(members).map(async (userId) => [userId, await call(ctx, content.spaceAccess, { spaceId: access.thread.spaceId, userId })] as const),
        );
        for (const [userId, space] of answers) {
          if (space.exists && space.organizationId === organizationId && atLeast(space.role, "read")) readers.set(userId, space.title ?? "");
        }
        return readers;
      },

      async organizationOf(ctx: Ctx<unknown>, access: ThreadAccess) {
        if (access.organizationId) return access.organizationId;
        const space = await call(ctx, content.spaceAccess, {
          spaceId: access.thread.spaceId,
          userId: access.caller.id,
        });
        if (!space.exists || !space.organizationId) throw new NotFoundError(`Space ${access.thread.spaceId} was not found.`);
        return space.organizationId;
      },

      countsChanged(thread: Thread) {
        return this.countSync.request(threadKey(thread));
      },

      countedWrite<T>(thread: Thread, write: () => Promise<T>) {
        return this.countSync.afterWrite(threadKey(thread), write);
      },

      async syncCounts(key: string) {
        const [spaceId, changeRequestId] = JSON.parse(key) as [string, string | null];
        const comments = await this.comments.count({ spaceId, changeRequestId, status: "open" });
        try {
          if (changeRequestId) {
            await call(this.broker, changeRequests.setComments, { spaceId, changeRequestId, comments });
          } else {
            await call(this.broker, content.setCounts, { spaceId, comments });
          }
        } catch (err) {
          // The space or change request is gone (deleted since): its count has nowhere to go, and its marks may go.
          if ((err as { code?: unknown })?.code !== 404) throw err;
        }
      },
    },

    async started() {
      // After the store mixin's started: the marks live in the service's store (packages/count-sync).
      this.countSync = new CountSync(
        (key) => this.syncCounts(key),
        (key, err) => this.logger.warn({ err, thread: key }, "sending a comment count failed; it is sent again with the next change and at the next start"),
        { marks: this.countMarks, inOrder: this.store.writesInOrder, newId, delayMs: COUNT_DELAY_MS },
      );
      // Counts a previous process left unsent (killed after a comment was acknowledged, before its count went out).
      if ((await this.countMarks.find({}, { limit: 1 })).length) {
        void this.broker
          .waitForServices(["content", "change-requests"])
          .then(() => this.countSync.resume())
          .then((sent) => this.logger.info(`sent the comment counts of ${sent} threads left unsent by the last run`))
          .catch((err: unknown) => this.logger.warn({ err }, "sending the comment counts left unsent failed; the next start tries again"));
      }
    },
  };
}


/** Where the app shows a thread's comments: a change request's page, a space page's, or the space. */
export function appLink(spaceId: string, changeRequestNumber: number | undefined, pagePath: string | undefined): string {
  const space = `/s/${encodeURIComponent(spaceId)}`;
  if (changeRequestNumber) return `${space}/~/changes/${changeRequestNumber}#comments`;
  if (pagePath) return `${space}/${pagePath.split("/").map(encodeURIComponent).join("/")}#comments`;
  return space;
}

function presentContext(publicUrl: string, access: ThreadAccess, users: Record<string, User>, pages: Record<string, PageSnapshot>, format: BodyFormat | undefined) {
  return { publicUrl, format, users, pages, permissions: (postedBy: string) => commentPermissions(access.role, access.caller.id, postedBy) };
}

export default commentsSchema;
