// The API shapes of comments and replies: users embedded, reactions grouped, bodies in the asked format.
import type { BodyFormat, Body } from "./body";
import { presentBody } from "./body";
import type { CommentDoc, ReplyDoc, Thread } from "./models";
import type { PageSnapshot, PageTarget } from "./pages";
import { pageTarget } from "./pages";
import { groupReactions } from "./reactions";

import type { Context } from "moleculer";
import * as identity from "@docshelf/contracts/identity";
/** GitBook's embedded User, as `identity.getMany` gives it. */
import type { User } from "@docshelf/contracts/identity";
export type { User };

export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

export interface Reaction {
  emoji: string;
  count: number;
  users: Array<{ user: User; reactedAt: string }>;
}

interface Posted {
  id: string;
  postedBy: User;
  postedAt: string;
  editedAt?: string;
  reactions: Reaction[];
  body: Body;
  urls: { location: string };
  permissions: CommentPermissions;
}

export interface CommentTarget {
  space: string;
  revision: string;
  changeRequest?: string;
  node?: { id: string };
  page?: PageTarget;
}

export interface CommentResource extends Posted {
  object: "comment";
  replies: number;
  target: CommentTarget;
  status: "open" | "resolved";
  resolvedAt?: string;
  resolvedBy?: User;
}

export interface ReplyResource extends Posted {
  object: "comment-reply";
}

/** What presenting needs besides the documents: users by id, current pages by id, the caller's view. */
export interface PresentContext {
  publicUrl: string;
  format?: BodyFormat;
  users: Record<string, User>;
  pages: Record<string, PageSnapshot>;
  permissions: (postedBy: string) => CommentPermissions;
}

/** The users `ids` name, as GitBook embeds them. */
export function usersOf(ctx: Context, ids: string[]): Promise<Record<string, User>> {
  return identity.usersById(ctx, ids);
}

/** Ids of every user a comment or reply shows (author, resolver, reactors): one `identity.getMany` per page. */
export function userIdsOf(docs: Array<CommentDoc | ReplyDoc>): string[] {
  const ids = new Set<string>();
  for (const doc of docs) {
    ids.add(doc.postedBy);
    if ("resolvedBy" in doc && doc.resolvedBy) ids.add(doc.resolvedBy);
    for (const r of doc.reactions) ids.add(r.userId);
  }
  return [...ids];
}

export function threadLocation(publicUrl: string, thread: Thread): string {
  const base = `${publicUrl}/v1/spaces/${thread.spaceId}`;
  return thread.changeRequestId ? `${base}/change-requests/${thread.changeRequestId}/comments` : `${base}/comments`;
}

/** A user the identity service no longer knows (deleted): shown by id. */
function userOf(ctx: PresentContext, id: string): User {
  return ctx.users[id] ?? { object: "user", id, displayName: "Deleted user", urls: { location: `${ctx.publicUrl}/v1/users/${id}` } };
}

function posted(doc: CommentDoc | ReplyDoc, location: string, ctx: PresentContext): Posted {
  const out: Posted = {
    id: doc.id,
    postedBy: userOf(ctx, doc.postedBy),
    postedAt: doc.postedAt,
    reactions: groupReactions(doc.reactions).map((g) => ({
      emoji: g.emoji,
      count: g.count,
      users: g.users.map((u) => ({ user: userOf(ctx, u.userId), reactedAt: u.reactedAt })),
    })),
    body: presentBody(doc.markdown, ctx.format),
    urls: { location },
    permissions: ctx.permissions(doc.postedBy),
  };
  if (doc.editedAt) out.editedAt = doc.editedAt;
  return out;
}

export function presentComment(doc: CommentDoc, ctx: PresentContext): CommentResource {
  const target: CommentTarget = { space: doc.spaceId, revision: doc.target.revision };
  if (doc.changeRequestId) target.changeRequest = doc.changeRequestId;
  if (doc.target.node) target.node = doc.target.node;
  if (doc.target.page) target.page = pageTarget(doc.target.page, ctx.pages[doc.target.page.id]);
  const resource: CommentResource = {
    object: "comment",
    ...posted(doc, `${threadLocation(ctx.publicUrl, doc)}/${doc.id}`, ctx),
    replies: doc.replies,
    target,
    status: doc.status,
  };
  if (doc.status === "resolved" && doc.resolvedAt && doc.resolvedBy) {
    resource.resolvedAt = doc.resolvedAt;
    resource.resolvedBy = userOf(ctx, doc.resolvedBy);
  }
  return resource;
}

export function presentReply(doc: ReplyDoc, ctx: PresentContext): ReplyResource {
  return { object: "comment-reply", ...posted(doc, `${threadLocation(ctx.publicUrl, doc)}/${doc.commentId}/replies/${doc.id}`, ctx) };
}
