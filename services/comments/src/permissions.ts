// Who may do what with a comment or reply, from the caller's effective role on the space.
import { atLeast, type RoleOrGuest } from "@docshelf/access";
import type { CommentPermissions } from "./present";

/** Authors edit and delete their own while they may comment; space admins delete any; `comment` or better replies, reacts and resolves. */
export function commentPermissions(role: RoleOrGuest, callerId: string, postedBy: string): CommentPermissions {
  const mayComment = atLeast(role, "comment");
  const own = callerId === postedBy;
  return {
    view: atLeast(role, "read"),
    edit: own && mayComment,
    reply: mayComment,
    delete: (own && mayComment) || atLeast(role, "admin"),
  };
}
