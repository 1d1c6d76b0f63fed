// Share link actions: list, create (the only answer that carries the key), change and delete.
import { callerOf, hashToken } from "@docshelf/access";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, newSecret } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { ShareLinkDoc } from "./models";
import { presentShareLink } from "./present";
import { opt, shareLinkNameRule, siteRef, type SiteRef } from "./params";
import type { Ctx, SitesActions, SitesService } from "./service-types";

type LinkRef = SiteRef & { shareLinkId: string };
const linkRef = { ...siteRef, shareLinkId: idRule };

/** Bytes of randomness in a share key: 256 bits, so one SHA-256 of it is a safe thing to store. */
export const SHARE_KEY_BYTES = 32;

export const shareLinkActions: SitesActions = {
  listShareLinks: {
    params: { ...siteRef, ...listParams },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { page?: string; limit?: number }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const publicUrl = this.publicUrl();
      return listPage(this.shareLinks, { siteId: site.id }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["createdAt", 1]] }, (docs) =>
        docs.map((doc) => presentShareLink(doc, site, publicUrl)),
      );
    },
  },

  createShareLink: {
    params: { ...siteRef, name: shareLinkNameRule },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { name: string }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const key = newSecret(SHARE_KEY_BYTES);
      const link: ShareLinkDoc = {
        id: newId(),
        siteId: site.id,
        name: ctx.params.name,
        active: true,
        keyHash: hashToken(key),
        keyPrefix: key.slice(0, 6),
        createdAt: new Date().toISOString(),
      };
      await this.shareLinks.insert(link);
      ctx.meta.$statusCode = 201;
      // The link's own address (where it is changed and removed): a 201 says where the new resource is.
      ctx.meta.$location = `${this.publicUrl()}/v1/orgs/${ctx.params.organizationId}/sites/${site.id}/share-links/${link.id}`;
      return presentShareLink(link, site, this.publicUrl(), key);
    },
  },

  updateShareLink: {
    params: { ...linkRef, active: { type: "boolean", ...opt }, name: { ...shareLinkNameRule, ...opt } },
    async handler(this: SitesService, ctx: Ctx<LinkRef & { active?: boolean; name?: string }>) {
      const { active, name } = ctx.params;
      if (active === undefined && name === undefined) throw new BadRequestError("Invalid parameters: give 'active' or 'name'.");
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const set: Partial<ShareLinkDoc> = {};
      if (active !== undefined) set.active = active;
      if (name !== undefined) set.name = name;
      const updated = await this.shareLinks.updateOne({ id: ctx.params.shareLinkId, siteId: site.id }, { $set: set });
      if (!updated) throw new NotFoundError(`Share link ${ctx.params.shareLinkId} was not found.`);
      return presentShareLink(updated, site, this.publicUrl());
    },
  },

  removeShareLink: {
    params: linkRef,
    async handler(this: SitesService, ctx: Ctx<LinkRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.sites.findOne({ id: ctx.params.siteId, organizationId: ctx.params.organizationId });
      if (site) await this.shareLinks.deleteOne({ id: ctx.params.shareLinkId, siteId: site.id });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },

  /** Internal: whether a share key opens a site (an active share link of it). */
  resolveShareKey: {
    visibility: "public",
    params: { siteId: idRule, shareKey: { type: "string", min: 1, max: 256 } },
    async handler(ctx: Ctx<{ siteId: string; shareKey: string }>): Promise<boolean> {
      return this.shareKeyResolves(ctx.params.siteId, ctx.params.shareKey);
    },
  },
};
