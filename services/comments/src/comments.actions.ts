// Comment actions (list, post, get, update, delete), written once for both kinds of thread and named in full below.
import { callerOf } from "@docshelf/access";
import { ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { bodyRule, type BodyFormat } from "./body";
import type { CommentDoc, Thread } from "./models";
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import { commentPermissions } from "./permissions";
import { authorList, emojiList, formatRule, listFilterParams, reactionsRule } from "./params";
import type { CommentsActions, CommentsService, Ctx } from "./service-types";
import { afterCheck, changeRequestThreads, openToRead, spaceThreads, type ThreadKind, type ThreadParams } from "./threads";
import { userIdsOf, usersOf } from "./present";

interface ListQuery extends ThreadParams {
  page?: string;
  limit?: number;
  order?: "asc" | "desc";
  status?: "all" | "open" | "resolved";
  targetPage?: string;
  authors?: string | string[];
  format?: BodyFormat;
}
interface PostBody extends ThreadParams {
  node?: string;
  page?: string;
  body: { markdown: string };
}
interface CommentRef extends ThreadParams {
  commentId: string;
  format?: BodyFormat;
}
interface UpdateBody extends CommentRef {
  body?: { markdown: string };
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

function commentActionsIn(kind: ThreadKind): Record<"list"|"post"|"get"|"update"|"remove", CommentsActions[string]> {
  const ref = { ...kind.params, commentId: idRule };
  return {
    list: {
      params: { ...kind.params, ...listParams, ...listFilterParams },
      async handler(this: CommentsService, ctx: Ctx<ListQuery>) {
        const { status, targetPage, order, format } = ctx.params;
        const authors = authorList(ctx.params.authors);
        const sort: Array<[string, 1 | -1]> = [["postedAt", order === "asc" ? 1 : -1]];
        const list = (thread: Thread) => {
          const filter: Filter = { spaceId: thread.spaceId, changeRequestId: thread.changeRequestId };
          if (status && status !== "all") filter.status = status;
          if (targetPage) filter["target.page.id"] = targetPage;
          if (authors) filter.postedBy = op.in(authors);
          return listPage(this.comments, filter, { page: ctx.params.page, limit: ctx.params.limit, sort }, (docs) => docs);
        };
        const known = kind.known?.(ctx.params);
        if (!known) {
          const access = await openToRead(kind, this, ctx);
          const page = await list(access.thread);
          return { ...page, items: await this.presentComments(ctx, access, page.items, format) };
        }
        // A space's thread is known from the path: its page and its authors are read while access is
        // checked (one call to content), and presented only once the check has passed.
        const listed = list(known);
        const users = listed.then((page) => (page.items.length ? usersOf(ctx, userIdsOf(page.items)) : {}));
        const [access, [page]] = await afterCheck(openToRead(kind, this, ctx), Promise.all([listed, users]));
        return { ...page, items: await this.presentComments(ctx, access, page.items, format, users) };
      },
    },

    post: {
      params: { ...kind.params, node: { ...idRule, optional: true }, page: { ...idRule, optional: true }, body: bodyRule },
      async handler(this: CommentsService, ctx: Ctx<PostBody>) {
        // The author, for the answer, is asked for while access is checked.
        const author = usersOf(ctx, [callerOf(ctx).id]);
        const [access] = await afterCheck(kind.open(this, ctx), author);
        this.requireCommenter(access, "Posting comments");
        const comment: CommentDoc = {
          id: newId(),
          ...access.thread,
          postedBy: access.caller.id,
          postedAt: new Date().toISOString(),
          markdown: ctx.params.body.markdown,
          target: { revision: access.revision },
          status: "open",
          reactions: [],
          replies: 0,
          version: 0,
        };
        if (ctx.params.node) comment.target.node = { id: ctx.params.node };
        if (ctx.params.page) {
          const meta = await call(ctx, content.pagesMeta, {
            spaceId: access.thread.spaceId,
            revisionId: access.revision,
            pageIds: [ctx.params.page],
          });
          const page = meta.pages[ctx.params.page];
          if (!page) throw new NotFoundError(`Page ${ctx.params.page} was not found in the space.`);
          comment.target.page = page;
        }
        // The thread's count follows in the background, durably (a mark kept with the comment until it was sent).
        await this.countedWrite(access.thread, () => this.comments.insert(comment));
        // The answer is presented while the commenter is recorded; it answers after both.
        const [[resource]] = await Promise.all([
          this.presentComments(ctx, access, [comment], undefined, author),
          this.recordCommenter(access.thread, comment.postedBy, comment.postedAt),
          this.notifyPosted(ctx, access, { commentId: comment.id, postedBy: comment.postedBy, markdown: comment.markdown, page: comment.target.page }),
        ]);
        return resource;
      },
    },

    get: {
      params: { ...ref, format: formatRule },
      async handler(this: CommentsService, ctx: Ctx<CommentRef>) {
        const access = await openToRead(kind, this, ctx);
        const comment = await this.loadComment(access, ctx.params.commentId);
        const [resource] = await this.presentComments(ctx, access, [comment], ctx.params.format);
        return resource;
      },
    },

    update: {
      params: {
        ...ref,
        body: { ...bodyRule, optional: true },
        resolved: { type: "boolean", optional: true },
        addedReactions: reactionsRule,
        removedReactions: reactionsRule,
      },
      async handler(this: CommentsService, ctx: Ctx<UpdateBody>) {
        const added = emojiList("addedReactions", ctx.params.addedReactions);
        const removed = emojiList("removedReactions", ctx.params.removedReactions);
        const access = await kind.open(this, ctx);
        let comment = await this.loadComment(access, ctx.params.commentId);
        const { body, resolved } = ctx.params;
        const permissions = commentPermissions(access.role, access.caller.id, comment.postedBy);
        if (body && !permissions.edit) throw new ForbiddenError("Only the author of a comment can change its body.");
        if (resolved !== undefined || added.length || removed.length) this.requireCommenter(access, "Resolving and reacting to comments");
        const now = new Date().toISOString();
        if (body) comment = (await this.comments.updateOne({ id: comment.id }, { $set: { markdown: body.markdown, editedAt: now } })) ?? comment;
        if (resolved === true && comment.status === "open") {
          comment =
            (await this.comments.updateOne({ id: comment.id, status: "open" }, { $set: { status: "resolved", resolvedAt: now, resolvedBy: access.caller.id } })) ?? comment;
        } else if (resolved === false && comment.status === "resolved") {
          comment = (await this.comments.updateOne({ id: comment.id }, { $set: { status: "open" }, $unset: ["resolvedAt", "resolvedBy"] })) ?? comment;
        }
        if (added.length || removed.length) comment = await this.changeReactions(this.comments, comment.id, access.caller.id, added, removed);
        if (resolved !== undefined) await this.countsChanged(access.thread);
        const [resource] = await this.presentComments(ctx, access, [comment]);
        return resource;
      },
    },

    remove: {
      params: ref,
      async handler(this: CommentsService, ctx: Ctx<CommentRef>) {
        const access = await kind.open(this, ctx);
        const comment = await this.comments.findOne({ id: ctx.params.commentId, ...access.thread });
        if (comment && !commentPermissions(access.role, access.caller.id, comment.postedBy).delete) {
          throw new ForbiddenError("Only the author of a comment or an admin of the space can delete it.");
        }
        if (comment && (await this.comments.deleteOne({ id: comment.id }))) {
          const replies = await this.replies.find({ commentId: comment.id });
          await this.replies.deleteMany({ commentId: comment.id });
          await Promise.all([this.countsChanged(access.thread), this.forgetSilent(access.thread, [comment.postedBy, ...replies.map((r) => r.postedBy)])]);
        }
        ctx.meta.$statusCode = 204;
        return null;
      },
    },
  };
}

const inSpace = commentActionsIn(spaceThreads);
const inChangeRequest = commentActionsIn(changeRequestThreads);

/** Each action by its full name: on a space's own thread, and on a change request's (…InChangeRequest). */
export const commentActions: CommentsActions = {
  list: inSpace.list,
  post: inSpace.post,
  get: inSpace.get,
  update: inSpace.update,
  remove: inSpace.remove,
  listInChangeRequest: inChangeRequest.list,
  postInChangeRequest: inChangeRequest.post,
  getInChangeRequest: inChangeRequest.get,
  updateInChangeRequest: inChangeRequest.update,
  removeInChangeRequest: inChangeRequest.remove,
};
