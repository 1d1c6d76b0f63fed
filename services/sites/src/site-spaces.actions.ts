// Site space actions: list (with the `default` filter), add, change, delete and the deprecated move.
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { SiteDoc, SiteSpaceDoc } from "./models";
import { applyMove, moveParams, moveTargetOf, type MoveParams } from "./move";
import { StructurePresenter, siteLocation } from "./present";
import { conditionRule, nullable, opt, pathRule, shareKeyRule, siteRef, type SiteRef } from "./params";
import { announceUrlChange } from "./space-urls.actions";
import type { Ctx, SitesActions, SitesService } from "./service-types";
import { byPosition, defaultOf } from "./structure";

type SiteSpaceRef = SiteRef & { siteSpaceId: string };
const siteSpaceRef = { ...siteRef, siteSpaceId: idRule };

async function loadSiteSpace(service: SitesService, site: SiteDoc, siteSpaceId: string): Promise<SiteSpaceDoc> {
  const siteSpace = await service.siteSpaces.findOne({ id: siteSpaceId, siteId: site.id });
  if (!siteSpace) throw new NotFoundError(`Site space ${siteSpaceId} was not found.`);
  return siteSpace;
}

async function presentSiteSpaceOf(service: SitesService, ctx: Ctx<unknown>, site: SiteDoc, siteSpaceId: string) {
  const structure = await service.loadStructure(ctx, site);
  const doc = structure.siteSpaces.find((s) => s.id === siteSpaceId);
  const resource = doc && new StructurePresenter(structure, service.publicUrl(), undefined).siteSpace(doc);
  if (!resource) throw new NotFoundError(`Site space ${siteSpaceId} was not found.`);
  return resource;
}

export const siteSpaceActions: SitesActions = {
  listSiteSpaces: {
    params: { ...siteRef, shareKey: shareKeyRule, ...listParams, default: { type: "boolean", optional: true, convert: true } },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { shareKey?: string; page?: string; limit?: number; default?: boolean }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      await this.checkShareKey(site, ctx.params.shareKey);
      const structure = await this.loadStructure(ctx, site);
      const presenter = new StructurePresenter(structure, this.publicUrl(), ctx.params.shareKey);
      const filter: Filter = { siteId: site.id };
      if (ctx.params.default !== undefined) {
        // The site's default site space (its default section's default); each site space's `default` is within its section.
        const siteDefault = presenter.siteDefaultSiteSpace();
        const defaults = siteDefault ? [siteDefault.id] : [];
        filter.id = ctx.params.default ? op.in(defaults) : op.nin(defaults);
      }
      return listPage(this.siteSpaces, filter, { page: ctx.params.page, limit: ctx.params.limit, sort: [["position", 1]] }, (docs) =>
        docs.flatMap((doc) => presenter.siteSpace(doc) ?? []),
      );
    },
  },

  addSiteSpace: {
    params: { ...siteRef, spaceId: idRule, sectionId: { ...idRule, ...opt } },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { spaceId: string; sectionId?: string }>) {
      const caller = callerOf(ctx);
      await this.siteAccess(ctx.params.organizationId, caller, true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      let sectionId: string;
      if (ctx.params.sectionId !== undefined) {
        const section = await this.sections.findOne({ id: ctx.params.sectionId, siteId: site.id });
        if (!section) throw new BadRequestError(`Invalid parameters: 'sectionId': section ${ctx.params.sectionId} is not in the site.`);
        sectionId = section.id;
      } else {
        sectionId = defaultOf(byPosition(await this.sections.find({ siteId: site.id })), site.defaultSectionId)?.id ?? "";
      }
      const space = await this.requireSpace(caller, site.organizationId, ctx.params.spaceId, "spaceId");
      const siteSpace = await this.insertSiteSpace(site, ctx.params.spaceId, space.title, sectionId);
      ctx.meta.$statusCode = 201;
      ctx.meta.$location = `${siteLocation(this.publicUrl(), site)}/site-spaces/${siteSpace.id}`;
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSiteSpaceOf(this, ctx, site, siteSpace.id);
    },
  },

  updateSiteSpace: {
    params: { ...siteSpaceRef, path: { ...pathRule, ...opt }, condition: { ...conditionRule, ...nullable }, spaceId: { ...idRule, ...opt } },
    async handler(this: SitesService, ctx: Ctx<SiteSpaceRef & { path?: string; condition?: string | null; spaceId?: string }>) {
      const p = ctx.params;
      const caller = callerOf(ctx);
      await this.siteAccess(p.organizationId, caller, true);
      const site = await this.loadSite(p.organizationId, p.siteId);
      const siteSpace = await loadSiteSpace(this, site, p.siteSpaceId);
      const set: Partial<SiteSpaceDoc> = {};
      const unset: string[] = [];
      if (p.path !== undefined) set.path = p.path;
      if (p.condition === null) unset.push("condition");
      else if (p.condition !== undefined) set.condition = p.condition;
      if (p.spaceId !== undefined) {
        await this.requireSpace(caller, site.organizationId, p.spaceId, "spaceId");
        set.spaceId = p.spaceId;
      }
      try {
        await this.siteSpaces.updateOne({ id: siteSpace.id }, { $set: set, $unset: unset });
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(`Another site space of the section already has the path "${p.path}".`);
        throw err;
      }
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSiteSpaceOf(this, ctx, site, siteSpace.id);
    },
  },

  removeSiteSpace: {
    params: siteSpaceRef,
    async handler(this: SitesService, ctx: Ctx<SiteSpaceRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.sites.findOne({ id: ctx.params.siteId, organizationId: ctx.params.organizationId });
      if (site) await this.deleteSiteSpaces(site.id, { id: ctx.params.siteSpaceId });
      ctx.meta.$statusCode = 204;
      await announceUrlChange(ctx, ctx.params.siteId);
      return null;
    },
  },

  moveSiteSpace: {
    params: { ...siteSpaceRef, position: moveParams(["site-space"], "siteSpace") },
    async handler(this: SitesService, ctx: Ctx<SiteSpaceRef & MoveParams>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const siteSpace = await loadSiteSpace(this, site, ctx.params.siteSpaceId);
      const target = moveTargetOf(ctx.params.position, "siteSpace");
      const siblings = await this.siteSpaces.find({ siteId: site.id, sectionId: siteSpace.sectionId });
      await applyMove(siblings, siteSpace.id, target, (id, position) => this.siteSpaces.updateOne({ id }, { $set: { position } }));
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSiteSpaceOf(this, ctx, site, siteSpace.id);
    },
  },
};
