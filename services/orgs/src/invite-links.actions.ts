// Reading an organization's invite links (GitBook's listOrganizationInviteLinks, getOrganizationInviteLink):
// a link whose id was lost can be found again, and revoked.
import { callerOf } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { idRule } from "@docshelf/validation";
import { presentLinkInvite } from "./present";
import type { Ctx, OrgsActions } from "./service-types";

export const inviteLinkActions: OrgsActions = {
  /** GET /orgs/:organizationId/link-invites — admins (the ids are capabilities); newest first. */
  listLinkInvites: {
    params: { organizationId: idRule, ...listParams },
    async handler(ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const { page, limit } = ctx.params;
      return listPage(this.linkInvites, { organizationId: org.id }, { page, limit, sort: [["createdAt", -1]] }, async (invites) => invites.map(presentLinkInvite));
    },
  },

  /** GET /orgs/:organizationId/link-invites/:inviteId — admins; 404 for a link of another organization. */
  getLinkInvite: {
    params: { organizationId: idRule, inviteId: idRule },
    async handler(ctx: Ctx<{ organizationId: string; inviteId: string }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const invite = await this.linkInvites.findOne({ id: ctx.params.inviteId, organizationId: org.id });
      if (!invite) throw new NotFoundError(`Invite link ${ctx.params.inviteId} was not found.`);
      return presentLinkInvite(invite);
    },
  },
};
