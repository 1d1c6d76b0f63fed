// The whole structure of a site in one answer (GitBook's getSiteStructure): its sections and section
// groups in order, or its site spaces when it has no sections; the same presentation as getPublished.
import { callerOf } from "@docshelf/access";
import { StructurePresenter, type GroupResource, type SectionResource, type SiteSpaceResource } from "./present";
import { shareKeyRule, siteRef, type SiteRef } from "./params";
import type { Ctx, SitesActions, SitesService } from "./service-types";

export type SiteStructureResource = { type: "sections"; structure: Array<SectionResource | GroupResource> } | { type: "siteSpaces"; structure: SiteSpaceResource[] };

export const siteStructureActions: SitesActions = {
  /** GET …/structure `?shareKey` — read. */
  getStructure: {
    params: { ...siteRef, shareKey: shareKeyRule },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { shareKey?: string }>): Promise<SiteStructureResource> {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      await this.checkShareKey(site, ctx.params.shareKey);
      const structure = await this.loadStructure(ctx, site);
      const presenter = new StructurePresenter(structure, this.publicUrl(), ctx.params.shareKey);
      return presenter.sections.length > 0
        ? { type: "sections", structure: presenter.topLevel() }
        : { type: "siteSpaces", structure: presenter.siteSpacesIn("").flatMap((s) => presenter.siteSpace(s) ?? []) };
    },
  },
};
