// The people who commented or replied in a thread, as organization members (GitBook's listCommentersInSpace).
import { call } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import * as orgs from "@docshelf/contracts/orgs";
import type { Member } from "@docshelf/contracts/orgs";
import { listPage, listParams } from "@docshelf/list";
import type { CommenterDoc } from "./models";
import type { User } from "./present";
import type { CommentsActions, CommentsService, Ctx } from "./service-types";
import { changeRequestThreads, spaceThreads, type ThreadKind, type ThreadParams } from "./threads";

/** GitBook's OrganizationMember. */
export type { Member } from "@docshelf/contracts/orgs";

/**
 * A commenter who is no longer (or never was, on a public space) a member of the organization:
 * no role, disabled, and "joined" when they first commented.
 */
export function formerMember(commenter: CommenterDoc, user: User): Member {
  return { object: "member", id: commenter.userId, role: null, user, disabled: true, joinedAt: commenter.firstAt, sso: false, spaces: 0, teams: 0 };
}

function commenterActionsIn(kind: ThreadKind): Record<"listCommenters", CommentsActions[string]> {
  return {
    listCommenters: {
      params: { ...kind.params, ...listParams },
      async handler(this: CommentsService, ctx: Ctx<ThreadParams & { page?: string; limit?: number }>) {
        const access = await kind.open(this, ctx);
        const organizationId = await this.organizationOf(ctx, access);
        const { page, limit } = ctx.params;
        return listPage(this.commenters, { ...access.thread }, { page, limit, sort: [["firstAt", 1]] }, async (docs) => {
          if (!docs.length) return [];
          const members = await call(ctx, orgs.membersOf, {
            organizationId,
            userIds: docs.map((d) => d.userId),
          });
          const others = docs.filter((d) => !members[d.userId]).map((d) => d.userId);
          const users = others.length ? await identity.usersById(ctx, others) : {};
          const publicUrl = this.publicUrl();
          return docs.map(
            (d) =>
              members[d.userId] ??
              formerMember(d, users[d.userId] ?? { object: "user", id: d.userId, displayName: "Deleted user", urls: { location: `${publicUrl}/v1/users/${d.userId}` } }),
          );
        });
      },
    },
  };
}

const inSpace = commenterActionsIn(spaceThreads);
const inChangeRequest = commenterActionsIn(changeRequestThreads);

/** Each action by its full name: on a space's own thread, and on a change request's (…InChangeRequest). */
export const commenterActions: CommentsActions = {
  listCommenters: inSpace.listCommenters,
  listCommentersInChangeRequest: inChangeRequest.listCommenters,
};
