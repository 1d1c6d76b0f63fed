// Notifications of change requests (issue 39): a review request notifies the requested reviewer, a merge the
// change request's author; both also notify the change request's watchers (watch.actions.ts) as `watch`
// notifications. Best effort: a failure is logged and never fails the request or the merge.
import { atLeast } from "@docshelf/access";
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as orgs from "@docshelf/contracts/orgs";
import type { ChangeRequestDoc } from "./models";
import type { ChangeRequestsService, Ctx } from "./service-types";
import { watchersOf } from "./watch.actions";

/**
 * Notifies those of `userIds` (as `kind`) and of the change request's watchers (as `watch`, once each) who are
 * members of the space's organization and may read the space.
 */
export async function notifyOfChangeRequest(
  service: ChangeRequestsService,
  ctx: Ctx<unknown>,
  cr: ChangeRequestDoc,
  kind: "review-request" | "merge",
  actorId: string,
  userIds: string[],
): Promise<void> {
  try {
    const direct = [...new Set(userIds)].filter((id) => id !== actorId);
    const watching = (await watchersOf(service, cr)).filter((id) => id !== actorId && !direct.includes(id));
    const wanted = [...direct, ...watching];
    if (!wanted.length) return;
    const answers = await Promise.all(wanted.map(async (userId) => [userId, await call(ctx, content.spaceAccess, { spaceId: cr.spaceId, userId })] as const));
    const organizationId = answers.find(([, space]) => space.organizationId)?.[1].organizationId;
    if (!organizationId) return;
    const members = await call(ctx, orgs.membersOf, { organizationId, userIds: wanted });
    const readers = answers.filter(([userId, space]) => members[userId] && space.exists && space.organizationId === organizationId && atLeast(space.role, "read"));
    if (!readers.length) return;
    const title = readers[0][1].title || "a space";
    const base = {
      actorId,
      excerpt: cr.subject || `Change request #${cr.number}`,
      where: `change request #${cr.number} of ${title}`,
      link: `/s/${encodeURIComponent(cr.spaceId)}/~/changes/${cr.number}`,
      spaceId: cr.spaceId,
      changeRequestId: cr.id,
    };
    const notifications: identity.NewNotification[] = readers.map(([userId]) =>
      direct.includes(userId) ? { ...base, userId, kind } : { ...base, userId, kind: "watch", activity: kind },
    );
    for (let i = 0; i < notifications.length; i += identity.MAX_NOTIFY_BATCH) {
      await call(ctx, identity.notify, { notifications: notifications.slice(i, i + identity.MAX_NOTIFY_BATCH) });
    }
  } catch (err) {
    service.logger.warn({ err: { message: (err as Error)?.message }, changeRequestId: cr.id }, `notifying of a ${kind} failed`);
  }
}
