// Kinds of comment thread: a space's own comments, and a change request's.
import { idRule } from "@docshelf/validation";
import type { Thread } from "./models";
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
  /**
   * How a read (a list, a single comment) opens it, when that differs: a space's thread through the node's
   * kept access answers (contracts' kept-access, dropped by events), so the read makes no call to content.
   */
  openToRead?(service: CommentsService, ctx: Ctx<ThreadParams>): Promise<ThreadAccess>;
  /**
   * The thread the parameters name, when that is known before opening it (a space's own thread), so that
   * reads of it can run beside the access check; their results are used only once the check has passed.
   */
  known?(params: ThreadParams): Thread;
}

export const spaceThreads: ThreadKind = {
  params: { spaceId: idRule },
  open: (service, ctx) => service.openSpaceThread(ctx, ctx.params.spaceId),
  openToRead: (service, ctx) => service.openSpaceThread(ctx, ctx.params.spaceId, { kept: true }),
  known: (params) => ({ spaceId: params.spaceId, changeRequestId: null }),
};

export const changeRequestThreads: ThreadKind = {
  params: { spaceId: idRule, changeRequestId: idRule },
  open: (service, ctx) => service.openChangeRequestThread(ctx, ctx.params.spaceId, ctx.params.changeRequestId ?? ""),
};

/** How a read opens the thread `kind` names (see ThreadKind.openToRead). */
export function openToRead(kind: ThreadKind, service: CommentsService, ctx: Ctx<ThreadParams>): Promise<ThreadAccess> {
  return kind.openToRead ? kind.openToRead(service, ctx) : kind.open(service, ctx);
}

/**
 * Both results once both settled; when the check failed, its error (and never the other one's), so that
 * work begun beside an access check answers nothing, not even its own failure, to a caller the check refuses.
 */
export async function afterCheck<A, T>(check: Promise<A>, work: Promise<T>): Promise<[A, T]> {
  const [checked, done] = await Promise.allSettled([check, work]);
  if (checked.status === "rejected") throw checked.reason;
  if (done.status === "rejected") throw done.reason;
  return [checked.value, done.value];
}
