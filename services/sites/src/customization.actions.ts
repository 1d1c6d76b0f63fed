// A site's customization (GitBook's getSiteCustomizationById / updateSiteCustomizationById): read by
// members, replaced by create or admin; the published profile and the served pages use it.
import { callerOf } from "@docshelf/access";
import { BadRequestError } from "@docshelf/errors";
import { CustomizationError, defaultCustomization, mergeCustomization, parseCustomization, type Customization } from "./customization";
import { siteRef, type SiteRef } from "./params";
import type { Ctx, SitesActions, SitesService } from "./service-types";

export const customizationActions: SitesActions = {
  getCustomization: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>): Promise<Customization> {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      return (await this.siteCustomization(site)).customization;
    },
  },

  updateCustomization: {
    // The body is GitBook's SiteCustomizationSettings, merged by the gateway into the params beside the ids.
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef & Record<string, unknown>>): Promise<Customization> {
      const { organizationId, siteId, ...body } = ctx.params;
      let settings: Record<string, unknown>;
      try {
        settings = parseCustomization(body);
      } catch (err) {
        if (err instanceof CustomizationError) throw new BadRequestError(`Invalid parameters: ${err.message}.`);
        throw err;
      }
      await this.siteAccess(organizationId, callerOf(ctx), true);
      const site = await this.loadSite(organizationId, siteId);
      const json = JSON.stringify(settings);
      const updatedAt = new Date().toISOString();
      if (!(await this.customizations.updateOne({ id: site.id }, { $set: { json, updatedAt } }))) {
        await this.customizations.insert({ id: site.id, json, updatedAt }).catch(async () => {
          // A concurrent first PUT inserted it: this one wins by updating.
          await this.customizations.updateOne({ id: site.id }, { $set: { json, updatedAt } });
        });
      }
      return mergeCustomization(defaultCustomization(site.title), settings);
    },
  },
};
