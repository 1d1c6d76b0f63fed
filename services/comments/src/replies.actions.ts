// Reply actions (list, post, get, update, delete), written once for both kinds of thread and named in full below.
import { ForbiddenError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { bodyRule, type BodyFormat } from "./body";
import type { ReplyDoc } from "./models";
import { commentPermissions } from "./permissions";
import { emojiList, formatRule, reactionsRule } from "./params";
import type { CommentsActions, CommentsService, Ctx } from "./service-types";
import { changeRequestThreads, spaceThreads, type ThreadKind, type ThreadParams } from "./threads";

interface CommentRef extends ThreadParams {
  commentId: string;
  format?: BodyFormat;
}
interface ReplyRef extends CommentRef {
  commentReplyId: string;
}
interface UpdateBody extends ReplyRef {
  body?: { markdown: string };
  addedReactions?: string[];
  removedReactions?: string[];
}

function replyActionsIn(kind: ThreadKind): Record<"listReplies"|"postReply"|"getReply"|"updateReply"|"removeReply", CommentsActions[string]> {
  const commentRef = { ...kind.params, commentId: idRule };
  const ref = { ...commentRef, commentReplyId: idRule };
  return {
    listReplies: {
      params: { ...commentRef, ...listParams, format: formatRule },
      async handler(this: CommentsService, ctx: Ctx<CommentRef & { page?: string; limit?: number }>) {
        const access = await kind.open(this, ctx);
        const comment = await this.loadComment(access, ctx.params.commentId);
        // A conversation reads oldest first.
        return listPage(this.replies, { commentId: comment.id }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["postedAt", 1]] }, (docs) =>
          this.presentReplies(ctx, access, docs, ctx.params.format),
        );
      },
    },

    postReply: {
      params: { ...commentRef, body: bodyRule, format: formatRule },
      async handler(this: CommentsService, ctx: Ctx<CommentRef & { body: { markdown: string } }>) {
        const access = await kind.open(this, ctx);
        this.requireCommenter(access, "Replying to comments");
        const comment = await this.loadComment(access, ctx.params.commentId);
        const reply: ReplyDoc = {
          id: newId(),
          ...access.thread,
          commentId: comment.id,
          postedBy: access.caller.id,
          postedAt: new Date().toISOString(),
          markdown: ctx.params.body.markdown,
          reactions: [],
          version: 0,
        };
        await this.replies.insert(reply);
        await this.comments.updateOne({ id: comment.id }, { $inc: { replies: 1 } });
        await this.notifyPosted(ctx, access, { commentId: comment.id, postedBy: reply.postedBy, markdown: reply.markdown, page: comment.target.page }, comment);
        await this.recordCommenter(access.thread, reply.postedBy, reply.postedAt);
        const [resource] = await this.presentReplies(ctx, access, [reply], ctx.params.format);
        return resource;
      },
    },

    getReply: {
      params: { ...ref, format: formatRule },
      async handler(this: CommentsService, ctx: Ctx<ReplyRef>) {
        const access = await kind.open(this, ctx);
        const reply = await this.loadReply(await this.loadComment(access, ctx.params.commentId), ctx.params.commentReplyId);
        const [resource] = await this.presentReplies(ctx, access, [reply], ctx.params.format);
        return resource;
      },
    },

    updateReply: {
      params: { ...ref, body: { ...bodyRule, optional: true }, addedReactions: reactionsRule, removedReactions: reactionsRule },
      async handler(this: CommentsService, ctx: Ctx<UpdateBody>) {
        const added = emojiList("addedReactions", ctx.params.addedReactions);
        const removed = emojiList("removedReactions", ctx.params.removedReactions);
        const access = await kind.open(this, ctx);
        let reply = await this.loadReply(await this.loadComment(access, ctx.params.commentId), ctx.params.commentReplyId);
        if (ctx.params.body && !commentPermissions(access.role, access.caller.id, reply.postedBy).edit) {
          throw new ForbiddenError("Only the author of a reply can change its body.");
        }
        if (added.length || removed.length) this.requireCommenter(access, "Reacting to replies");
        if (ctx.params.body) {
          reply = (await this.replies.updateOne({ id: reply.id }, { $set: { markdown: ctx.params.body.markdown, editedAt: new Date().toISOString() } })) ?? reply;
        }
        if (added.length || removed.length) reply = await this.changeReactions(this.replies, reply.id, access.caller.id, added, removed);
        const [resource] = await this.presentReplies(ctx, access, [reply]);
        return resource;
      },
    },

    removeReply: {
      params: ref,
      async handler(this: CommentsService, ctx: Ctx<ReplyRef>) {
        const access = await kind.open(this, ctx);
        const comment = await this.comments.findOne({ id: ctx.params.commentId, ...access.thread });
        const reply = comment ? await this.replies.findOne({ id: ctx.params.commentReplyId, commentId: comment.id }) : null;
        if (reply && !commentPermissions(access.role, access.caller.id, reply.postedBy).delete) {
          throw new ForbiddenError("Only the author of a reply or an admin of the space can delete it.");
        }
        if (comment && reply && (await this.replies.deleteOne({ id: reply.id }))) {
          await this.comments.updateOne({ id: comment.id }, { $inc: { replies: -1 } });
          await this.forgetSilent(access.thread, [reply.postedBy]);
        }
        ctx.meta.$statusCode = 204;
        return null;
      },
    },
  };
}

const inSpace = replyActionsIn(spaceThreads);
const inChangeRequest = replyActionsIn(changeRequestThreads);

/** Each action by its full name: on a space's own thread, and on a change request's (…InChangeRequest). */
export const replyActions: CommentsActions = {
  listReplies: inSpace.listReplies,
  postReply: inSpace.postReply,
  getReply: inSpace.getReply,
  updateReply: inSpace.updateReply,
  removeReply: inSpace.removeReply,
  listRepliesInChangeRequest: inChangeRequest.listReplies,
  postReplyInChangeRequest: inChangeRequest.postReply,
  getReplyInChangeRequest: inChangeRequest.getReply,
  updateReplyInChangeRequest: inChangeRequest.updateReply,
  removeReplyInChangeRequest: inChangeRequest.removeReply,
};
