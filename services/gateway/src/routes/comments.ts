// Routes served by the comments service: comments, replies and commenters of a space and of a change request.
const space = "/spaces/:spaceId/comments";
const changeRequest = "/spaces/:spaceId/change-requests/:changeRequestId/comments";

/** The same ten routes under a thread's path, to actions named with the thread kind's suffix. */
function threadRoutes(base: string, suffix: string): Record<string, string> {
  return {
    [`GET ${base}`]: `comments.list${suffix}`,
    [`POST ${base}`]: `comments.post${suffix}`,
    [`GET ${base}/:commentId`]: `comments.get${suffix}`,
    [`PUT ${base}/:commentId`]: `comments.update${suffix}`,
    [`DELETE ${base}/:commentId`]: `comments.remove${suffix}`,
    [`GET ${base}/:commentId/replies`]: `comments.listReplies${suffix}`,
    [`POST ${base}/:commentId/replies`]: `comments.postReply${suffix}`,
    [`GET ${base}/:commentId/replies/:commentReplyId`]: `comments.getReply${suffix}`,
    [`PUT ${base}/:commentId/replies/:commentReplyId`]: `comments.updateReply${suffix}`,
    [`DELETE ${base}/:commentId/replies/:commentReplyId`]: `comments.removeReply${suffix}`,
  };
}

export const commentsRoutes: Record<string, string> = {
  ...threadRoutes(space, ""),
  ...threadRoutes(changeRequest, "InChangeRequest"),
  "GET /spaces/:spaceId/commenters": "comments.listCommenters",
  "GET /spaces/:spaceId/change-requests/:changeRequestId/commenters": "comments.listCommentersInChangeRequest",
};
