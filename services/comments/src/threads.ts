// Kinds of comment thread: a space's own comments, and a change request's.
import { idRule } from "@docshelf/validation";
import type { CommentsService, Ctx, ThreadAccess } from "./service-types";

export interface ThreadParams {
  spaceId: string;
  changeRequestId?: string;
}

/**
 * How an action group finds its thread: the path parameters that name it and how to open it for the
 * caller. Comment and reply actions are written once against this.
 */
export interface ThreadKind {
  params: Record<string, unknown>;
  open(service: CommentsService, ctx: Ctx<ThreadParams>): Promise<ThreadAccess>;
}

export const spaceThreads: ThreadKind = {
  params: { spaceId: idRule },
  open: (service, ctx) => service.openSpaceThread(ctx, ctx.params.spaceId),
};

export const changeRequestThreads: ThreadKind = {
  params: { spaceId: idRule, changeRequestId: idRule },
  open: (service, ctx) => service.openChangeRequestThread(ctx, ctx.params.spaceId, ctx.params.changeRequestId ?? ""),
};
