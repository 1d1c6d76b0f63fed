// The key that signs a visitor-auth site's visitor tokens, for the people who run the site's sign-in
// (GitBook's getSitePublishingAuthById): without it no visitor token could ever be made.
import { callerOf } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { newSecret } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { siteRef, type SiteRef } from "./params";
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

  /**
   * POST …/publishing/auth/regenerate — create or admin (GitBook's regenerateSitePublishingAuthById): a
   * new signing key at once. Serving reads the key from the store on every request, so tokens (and
   * visitor cookies) signed with the old key stop opening the site with the next request.
   */
  regeneratePublishingAuth: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>): Promise<PublishingAuthResource> {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const key = newSecret(32);
      const updated = await this.siteKeys.updateOne({ id: site.id }, { $set: { visitorSigningKey: key } });
      if (!updated) await this.siteKeys.insert({ id: site.id, visitorSigningKey: key });
      ctx.meta.$responseHeaders = { "Cache-Control": "no-store" };
      return { object: "publishing-auth", backend: "custom", privateKey: key };
    },
  },

  /** Internal: the key that signs a site's visitor-auth JWTs, for the serving layer; null when the site is gone. */
  visitorSigningKey: {
    visibility: "public",
    params: { siteId: idRule },
    async handler(ctx: Ctx<{ siteId: string }>): Promise<{ siteId: string; key: string } | null> {
      const keys = await this.siteKeys.findOne({ id: ctx.params.siteId });
      return keys ? { siteId: keys.id, key: keys.visitorSigningKey } : null;
    },
  },
};
