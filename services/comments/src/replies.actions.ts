// Reply actions (list, post, get, update, delete), written once for every kind of thread.
import { ForbiddenError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { bodyRule, type BodyFormat } from "./body";
import type { ReplyDoc } from "./models";
import { commentPermissions } from "./permissions";
import { emojiList, formatRule, reactionsRule } from "./rules";
import type { CommentsActions, CommentsService, Ctx } from "./service-types";
import type { ThreadKind, ThreadParams } from "./threads";

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

export function replyActions(kind: ThreadKind): CommentsActions {
  const commentRef = { ...kind.params, commentId: idRule };
  const ref = { ...commentRef, commentReplyId: idRule };
  return {
    [`listReplies${kind.suffix}`]: {
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

    [`postReply${kind.suffix}`]: {
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
        await this.recordCommenter(access.thread, reply.postedBy, reply.postedAt);
        const [resource] = await this.presentReplies(ctx, access, [reply], ctx.params.format);
        return resource;
      },
    },

    [`getReply${kind.suffix}`]: {
      params: { ...ref, format: formatRule },
      async handler(this: CommentsService, ctx: Ctx<ReplyRef>) {
        const access = await kind.open(this, ctx);
        const reply = await this.loadReply(await this.loadComment(access, ctx.params.commentId), ctx.params.commentReplyId);
        const [resource] = await this.presentReplies(ctx, access, [reply], ctx.params.format);
        return resource;
      },
    },

    [`updateReply${kind.suffix}`]: {
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

    [`removeReply${kind.suffix}`]: {
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
