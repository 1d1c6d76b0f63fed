// The key that signs a visitor-auth site's visitor tokens, for the people who run the site's sign-in
// (GitBook's getSitePublishingAuthById): without it no visitor token could ever be made.
import { callerOf } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { siteRef, type SiteRef } from "./rules";
import type { Ctx, SitesActions, SitesService } from "./service-types";

export interface PublishingAuthResource {
  object: "publishing-auth";
  backend: "custom";
  privateKey: string;
}

export const publishingAuthActions: SitesActions = {
  getPublishingAuth: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>): Promise<PublishingAuthResource> {
      // A secret: only those who may change the site (create or admin) read it.
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const keys = await this.siteKeys.findOne({ id: site.id });
      if (!keys) throw new NotFoundError(`Site ${site.id} has no visitor signing key.`);
      ctx.meta.$responseHeaders = { "Cache-Control": "no-store" };
      return { object: "publishing-auth", backend: "custom", privateKey: keys.visitorSigningKey };
    },
  },
};
