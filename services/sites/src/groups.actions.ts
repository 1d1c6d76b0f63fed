// Section group actions: list, add, change, delete, add and remove sections, and the deprecated move.
import { callerOf } from "@docshelf/access";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId, op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { GroupDoc, SiteDoc } from "./models";
import { applyMove, moveParams, moveTargetOf, type MoveParams } from "./move";
import { StructurePresenter, siteLocation } from "./present";
import { groupTitleRule, iconRule, nullable, opt, siteRef, type SiteRef } from "./params";
import { announceUrlChange } from "./space-urls.actions";
import type { Ctx, SitesActions, SitesService } from "./service-types";
import { nextPosition } from "./structure";

type GroupRef = SiteRef & { siteSectionGroupId: string };
const groupRef = { ...siteRef, siteSectionGroupId: idRule };

/** Sections a group may be created with in one request. */
export const MAX_SECTIONS_ON_CREATE = 100;

async function loadGroup(service: SitesService, site: SiteDoc, groupId: string): Promise<GroupDoc> {
  const group = await service.groups.findOne({ id: groupId, siteId: site.id });
  if (!group) throw new NotFoundError(`Site section group ${groupId} was not found.`);
  return group;
}

async function presentGroupOf(service: SitesService, ctx: Ctx<unknown>, site: SiteDoc, groupId: string) {
  const presenter = new StructurePresenter(await service.loadStructure(ctx, site), service.publicUrl(), undefined);
  const group = presenter.groups.find((g) => g.id === groupId);
  if (!group) throw new NotFoundError(`Site section group ${groupId} was not found.`);
  return presenter.group(group);
}

/** The position after everything at the site's top level (sections outside groups, and groups). */
async function topLevelEnd(service: SitesService, siteId: string): Promise<number> {
  const [sections, groups] = await Promise.all([service.sections.find({ siteId, groupId: op.exists(false) }), service.groups.find({ siteId })]);
  return nextPosition([...sections, ...groups]);
}

export const groupActions: SitesActions = {
  listGroups: {
    params: { ...siteRef, ...listParams },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { page?: string; limit?: number }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const presenter = new StructurePresenter(await this.loadStructure(ctx, site), this.publicUrl(), undefined);
      return listPage(this.groups, { siteId: site.id }, { page: ctx.params.page, limit: ctx.params.limit, sort: [["position", 1]] }, (docs) =>
        docs.map((doc) => presenter.group(doc)),
      );
    },
  },

  addGroup: {
    params: {
      ...siteRef,
      title: groupTitleRule,
      icon: { ...iconRule, ...nullable },
      sections: { type: "array", items: idRule, max: MAX_SECTIONS_ON_CREATE, unique: true, optional: true },
    },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { title: string; icon?: string | null; sections?: string[] }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const sectionIds = ctx.params.sections ?? [];
      const existing = new Set((await this.sections.find({ siteId: site.id })).map((s) => s.id));
      sectionIds.forEach((id, i) => {
        if (!existing.has(id)) throw new BadRequestError(`Invalid parameters: 'sections[${i}]': section ${id} is not in the site.`);
      });
      const group: GroupDoc = {
        id: newId(),
        siteId: site.id,
        title: ctx.params.title,
        position: await topLevelEnd(this, site.id),
        createdAt: new Date().toISOString(),
      };
      if (ctx.params.icon) group.icon = ctx.params.icon;
      await this.groups.insert(group);
      for (const [i, sectionId] of sectionIds.entries()) {
        await this.sections.updateOne({ id: sectionId }, { $set: { groupId: group.id, position: i + 1 } });
      }
      ctx.meta.$statusCode = 201;
      ctx.meta.$location = `${siteLocation(this.publicUrl(), site)}/section-groups/${group.id}`;
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentGroupOf(this, ctx, site, group.id);
    },
  },

  updateGroup: {
    params: { ...groupRef, title: { ...groupTitleRule, ...opt }, icon: { ...iconRule, ...nullable } },
    async handler(this: SitesService, ctx: Ctx<GroupRef & { title?: string; icon?: string | null }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const group = await loadGroup(this, site, ctx.params.siteSectionGroupId);
      const set: Partial<GroupDoc> = {};
      if (ctx.params.title !== undefined) set.title = ctx.params.title;
      if (typeof ctx.params.icon === "string") set.icon = ctx.params.icon;
      await this.groups.updateOne({ id: group.id }, { $set: set, $unset: ctx.params.icon === null ? ["icon"] : [] });
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentGroupOf(this, ctx, site, group.id);
    },
  },

  removeGroup: {
    params: groupRef,
    async handler(this: SitesService, ctx: Ctx<GroupRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.sites.findOne({ id: ctx.params.siteId, organizationId: ctx.params.organizationId });
      if (site && (await this.groups.deleteOne({ id: ctx.params.siteSectionGroupId, siteId: site.id }))) {
        // Its sections stay in the site, at the end of the top level.
        let position = await topLevelEnd(this, site.id);
        for (const section of await this.sections.find({ siteId: site.id, groupId: ctx.params.siteSectionGroupId }, { sort: [["position", 1]] })) {
          await this.sections.updateOne({ id: section.id }, { $set: { position: position++ }, $unset: ["groupId"] });
        }
      }
      ctx.meta.$statusCode = 204;
      await announceUrlChange(ctx, ctx.params.siteId);
      return null;
    },
  },

  addSectionToGroup: {
    params: { ...groupRef, sectionId: idRule },
    async handler(this: SitesService, ctx: Ctx<GroupRef & { sectionId: string }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const group = await loadGroup(this, site, ctx.params.siteSectionGroupId);
      const section = await this.sections.findOne({ id: ctx.params.sectionId, siteId: site.id });
      if (!section) throw new BadRequestError(`Invalid parameters: 'sectionId': section ${ctx.params.sectionId} is not in the site.`);
      if (section.groupId !== group.id) {
        const members = await this.sections.find({ siteId: site.id, groupId: group.id });
        await this.sections.updateOne({ id: section.id }, { $set: { groupId: group.id, position: nextPosition(members) } });
      }
      ctx.meta.$statusCode = 201;
      // The answer is the group, now holding the section.
      ctx.meta.$location = `${siteLocation(this.publicUrl(), site)}/section-groups/${group.id}`;
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentGroupOf(this, ctx, site, group.id);
    },
  },

  removeSectionFromGroup: {
    params: { ...groupRef, siteSectionId: idRule },
    async handler(this: SitesService, ctx: Ctx<GroupRef & { siteSectionId: string }>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.sites.findOne({ id: ctx.params.siteId, organizationId: ctx.params.organizationId });
      if (site) {
        const section = await this.sections.findOne({ id: ctx.params.siteSectionId, siteId: site.id, groupId: ctx.params.siteSectionGroupId });
        if (section) {
          await this.sections.updateOne({ id: section.id }, { $set: { position: await topLevelEnd(this, site.id) }, $unset: ["groupId"] });
        }
      }
      ctx.meta.$statusCode = 204;
      await announceUrlChange(ctx, ctx.params.siteId);
      return null;
    },
  },

  moveGroup: {
    params: { ...groupRef, position: moveParams(["site-section", "site-section-group"], "id") },
    async handler(this: SitesService, ctx: Ctx<GroupRef & MoveParams>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const group = await loadGroup(this, site, ctx.params.siteSectionGroupId);
      const target = moveTargetOf(ctx.params.position, "id");
      const [sections, groups] = await Promise.all([
        this.sections.find({ siteId: site.id, groupId: op.exists(false) }),
        this.groups.find({ siteId: site.id }),
      ]);
      const sectionIds = new Set(sections.map((s) => s.id));
      await applyMove([...sections, ...groups], group.id, target, (id, position) =>
        sectionIds.has(id) ? this.sections.updateOne({ id }, { $set: { position } }) : this.groups.updateOne({ id }, { $set: { position } }),
      );
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentGroupOf(this, ctx, site, group.id);
    },
  },
};
