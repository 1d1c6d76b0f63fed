// The whole structure of a site in one answer (GitBook's getSiteStructure): its sections and section
// groups in order, or its site spaces when it has no sections; the same presentation as getPublished.
// And sortSiteStructure, the successor of the deprecated moves: one item among its siblings.
import { callerOf } from "@docshelf/access";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import { StructurePresenter, type GroupResource, type SectionResource, type SiteSpaceResource } from "./present";
import { shareKeyRule, siteRef, type SiteRef } from "./params";
import type { Ctx, SitesActions, SitesService } from "./service-types";

export type SiteStructureResource = { type: "sections"; structure: Array<SectionResource | GroupResource> } | { type: "siteSpaces"; structure: SiteSpaceResource[] };

const ITEM_TYPES = ["site-space", "site-section", "site-section-group", "site-external-link"] as const;
type ItemType = (typeof ITEM_TYPES)[number];
interface Pointer {
  type: ItemType;
  id: string;
}
const pointerRule = { type: "object", strict: true, props: { type: { type: "enum", values: [...ITEM_TYPES] }, id: idRule } } as const;

/** Which pointers can be siblings of an item of each type, and the deprecated move that sorts it. */
const SORTS: Record<Exclude<ItemType, "site-external-link">, { siblings: ItemType[]; action: string; idKey: string; pointer: (p: Pointer) => Record<string, string> }> = {
  "site-space": { siblings: ["site-space"], action: "sites.moveSiteSpace", idKey: "siteSpaceId", pointer: (p) => ({ type: "site-space", siteSpace: p.id }) },
  // The deprecated section move names every top-level sibling (section or group) as a site-section: only ids count.
  "site-section": { siblings: ["site-section", "site-section-group"], action: "sites.moveSection", idKey: "siteSectionId", pointer: (p) => ({ type: "site-section", siteSection: p.id }) },
  "site-section-group": { siblings: ["site-section", "site-section-group"], action: "sites.moveGroup", idKey: "siteSectionGroupId", pointer: (p) => ({ type: p.type, id: p.id }) },
};

export const siteStructureActions: SitesActions = {
  /**
   * PATCH …/structure/sort `{item, position: {before?|after?}}` — site write; moves a site space, section
   * or section group before or after a sibling of the same level (neither: to the end) and answers the
   * item moved. The site has no external links, so pointing at one is 404.
   */
  sortStructure: {
    params: { ...siteRef, item: pointerRule, position: { type: "object", strict: true, props: { before: { ...pointerRule, optional: true }, after: { ...pointerRule, optional: true } } } },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { item: Pointer; position: { before?: Pointer; after?: Pointer } }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const { item, position } = ctx.params;
      if (position.before && position.after) throw new BadRequestError("Invalid parameters: 'position' takes one of 'before' and 'after', not both.");
      if (item.type === "site-external-link") throw new NotFoundError(`Site external link ${item.id} was not found in the site.`);
      const sort = SORTS[item.type];
      const [side, ref] = position.before ? (["before", position.before] as const) : position.after ? (["after", position.after] as const) : [undefined, undefined];
      if (ref && !sort.siblings.includes(ref.type)) throw new BadRequestError(`Invalid parameters: 'position.${side}' must name a sibling of the ${item.type} moved (${sort.siblings.join(" or ")}).`);
      return ctx.call(sort.action, {
        organizationId: ctx.params.organizationId,
        siteId: site.id,
        [sort.idKey]: item.id,
        ...(side && ref ? { position: { [side]: sort.pointer(ref) } } : {}),
      });
    },
  },


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
