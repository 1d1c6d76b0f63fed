// Site section actions: list, add (with a first site space), change, delete and the deprecated move.
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { SectionDoc, SiteDoc } from "./models";
import { StructurePresenter, siteLocation } from "./present";
import { conditionRule, descriptionRule, iconRule, nullable, opt, pathRule, sectionTitleRule, shareKeyRule, siteRef, type SiteRef } from "./params";
import { announceUrlChange } from "./space-urls.actions";
import type { Ctx, SitesActions, SitesService } from "./service-types";
import { applyMove, moveParams, moveTargetOf, type MoveParams } from "./move";
import { nextPosition, slugify, uniquePath } from "./structure";

type SectionRef = SiteRef & { siteSectionId: string };
const sectionRef = { ...siteRef, siteSectionId: idRule };

interface UpdateParams extends SectionRef {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
}

async function loadSection(service: SitesService, site: SiteDoc, sectionId: string): Promise<SectionDoc> {
  const section = await service.sections.findOne({ id: sectionId, siteId: site.id });
  if (!section) throw new NotFoundError(`Site section ${sectionId} was not found.`);
  return section;
}

/** The section as the caller sees it, presented from the site's whole structure. */
export async function presentSectionOf(service: SitesService, ctx: Ctx<unknown>, site: SiteDoc, sectionId: string) {
  const presenter = new StructurePresenter(await service.loadStructure(ctx, site), service.publicUrl(), undefined);
  const section = presenter.sections.find((s) => s.id === sectionId);
  if (!section) throw new NotFoundError(`Site section ${sectionId} was not found.`);
  return presenter.section(section);
}

export const sectionActions: SitesActions = {
  listSections: {
    params: { ...siteRef, shareKey: shareKeyRule, ...listParams },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { shareKey?: string; page?: string; limit?: number }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      await this.checkShareKey(site, ctx.params.shareKey);
      const presenter = new StructurePresenter(await this.loadStructure(ctx, site), this.publicUrl(), ctx.params.shareKey);
      return listPage(this.sections, { siteId: site.id }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["position", 1]] }, (docs) =>
        docs.map((doc) => presenter.section(doc)),
      );
    },
  },

  addSection: {
    params: { ...siteRef, spaceId: idRule, title: { ...sectionTitleRule, ...nullable }, icon: { ...iconRule, ...nullable } },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { spaceId: string; title?: string | null; icon?: string | null }>) {
      const caller = callerOf(ctx);
      await this.siteAccess(ctx.params.organizationId, caller, true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const space = await this.requireSpace(caller, site.organizationId, ctx.params.spaceId, "spaceId");
      const title = ctx.params.title ?? (space.title.length >= 2 ? space.title : "Section");
      let section: SectionDoc | undefined;
      let wasFirst = false;
      for (let attempt = 0; attempt < 5 && !section; attempt++) {
        const [sections, groups] = await Promise.all([this.sections.find({ siteId: site.id }), this.groups.find({ siteId: site.id })]);
        const doc: SectionDoc = {
          id: newId(),
          siteId: site.id,
          title,
          path: uniquePath(slugify(title), new Set(sections.map((s) => s.path))),
          position: nextPosition([...sections, ...groups]),
          createdAt: new Date().toISOString(),
        };
        if (ctx.params.icon) doc.icon = ctx.params.icon;
        try {
          await this.sections.insert(doc);
          section = doc;
          wasFirst = sections.length === 0;
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
        }
      }
      if (!section) throw new ConflictError("The site changed concurrently; try again.");
      // A site's first section takes the site spaces that were at its root, so that every site space has a section.
      if (wasFirst) {
        for (const rootSpace of await this.siteSpaces.find({ siteId: site.id, sectionId: "" })) {
          await this.siteSpaces.updateOne({ id: rootSpace.id }, { $set: { sectionId: section.id } });
        }
      }
      await this.insertSiteSpace(site, ctx.params.spaceId, space.title, section.id);
      ctx.meta.$statusCode = 201;
      ctx.meta.$location = `${siteLocation(this.publicUrl(), site)}/sections/${section.id}`;
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSectionOf(this, ctx, site, section.id);
    },
  },

  updateSection: {
    params: {
      ...sectionRef,
      title: { ...sectionTitleRule, ...opt },
      path: { ...pathRule, ...opt },
      defaultSiteSpace: { ...idRule, ...opt },
      condition: { ...conditionRule, ...nullable },
      icon: { ...iconRule, ...nullable },
      description: { ...descriptionRule, ...nullable },
    },
    async handler(this: SitesService, ctx: Ctx<UpdateParams>) {
      const p = ctx.params;
      await this.siteAccess(p.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(p.organizationId, p.siteId);
      const section = await loadSection(this, site, p.siteSectionId);
      const set: Partial<SectionDoc> = {};
      const unset: string[] = [];
      if (p.title !== undefined) set.title = p.title;
      if (p.path !== undefined) set.path = p.path;
      for (const field of ["condition", "icon", "description"] as const) {
        const value = p[field];
        if (value === null) unset.push(field);
        else if (value !== undefined) set[field] = value;
      }
      if (p.defaultSiteSpace !== undefined) {
        const siteSpace = await this.siteSpaces.findOne({ id: p.defaultSiteSpace, siteId: site.id, sectionId: section.id });
        if (!siteSpace) throw new BadRequestError(`Invalid parameters: 'defaultSiteSpace': site space ${p.defaultSiteSpace} is not in the section.`);
        set.defaultSiteSpaceId = siteSpace.id;
      }
      try {
        await this.sections.updateOne({ id: section.id }, { $set: set, $unset: unset });
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(`Another section of the site already has the path "${p.path}".`);
        throw err;
      }
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSectionOf(this, ctx, site, section.id);
    },
  },

  removeSection: {
    params: sectionRef,
    async handler(this: SitesService, ctx: Ctx<SectionRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.sites.findOne({ id: ctx.params.siteId, organizationId: ctx.params.organizationId });
      if (site && (await this.sections.deleteOne({ id: ctx.params.siteSectionId, siteId: site.id }))) {
        await this.deleteSiteSpaces(site.id, { sectionId: ctx.params.siteSectionId });
      }
      ctx.meta.$statusCode = 204;
      await announceUrlChange(ctx, ctx.params.siteId);
      return null;
    },
  },

  moveSection: {
    params: { ...sectionRef, position: moveParams(["site-section"], "siteSection") },
    async handler(this: SitesService, ctx: Ctx<SectionRef & MoveParams>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const section = await loadSection(this, site, ctx.params.siteSectionId);
      const target = moveTargetOf(ctx.params.position, "siteSection");
      // Siblings: the sections of its group, or the site's top level (sections outside groups and the groups).
      const sections = await this.sections.find({ siteId: site.id });
      const siblings = section.groupId
        ? sections.filter((s) => s.groupId === section.groupId)
        : [...sections.filter((s) => !s.groupId), ...(await this.groups.find({ siteId: site.id }))];
      const sectionIds = new Set(sections.map((s) => s.id));
      await applyMove(siblings, section.id, target, (id, position) =>
        sectionIds.has(id) ? this.sections.updateOne({ id }, { $set: { position } }) : this.groups.updateOne({ id }, { $set: { position } }),
      );
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSectionOf(this, ctx, site, section.id);
    },
  },
};
