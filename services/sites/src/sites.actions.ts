// Site actions: list, create, read, change, delete, publish and unpublish.
import * as events from "@docshelf/contracts/events";
import { broadcast, call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { configFor } from "@docshelf/config";
import { newId, newSecret, op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { AgentsContext, SiteDoc, SiteType, SiteVisibility } from "./models";
import { presentSite } from "./present";
import {
  agentsContextRule,
  basenameRule,
  hostnameRule,
  nullable,
  opt,
  proxyRule,
  siteRef,
  siteTitleRule,
  siteTypeRule,
  siteVisibilityRule,
  type SiteRef,
} from "./params";
import { announceUrlChange } from "./space-urls.actions";
import type { Ctx, SitesActions, SitesService } from "./service-types";
import { hostnameRefusal } from "./site-names";
import { byPosition, defaultOf } from "./structure";

/** Spaces a site may be created with: enough for any real site, small enough for one request. */
export const MAX_SPACES_ON_CREATE = 100;

interface CreateParams {
  organizationId: string;
  type?: SiteType;
  title?: string;
  visibility?: SiteVisibility;
  spaces?: string[];
  createSpace?: boolean;
}

interface UpdateParams extends SiteRef {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: AgentsContext;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
  hostname?: string | null;
}

interface ListParams {
  organizationId: string;
  page?: string;
  limit?: number;
  space?: string;
  title?: string;
  published?: boolean;
  type?: SiteType | SiteType[];
}

/** A unique index said no: name the field whose value another site already uses. */
async function uniqueConflict(service: SitesService, err: unknown, siteId: string, params: UpdateParams): Promise<never> {
  if (err instanceof ConflictError) {
    if (params.hostname && (await service.sites.findOne({ hostname: params.hostname, id: op.ne(siteId) }))) {
      throw new ConflictError(`Invalid parameters: 'hostname': ${params.hostname} is already used by another site.`);
    }
    if (params.basename && (await service.sites.findOne({ basename: params.basename, id: op.ne(siteId) }))) {
      throw new ConflictError(`Invalid parameters: 'basename': ${params.basename} is already used by another site.`);
    }
    if (params.proxy) throw new ConflictError(`Invalid parameters: 'proxy': ${params.proxy} is already used by another site.`);
  }
  throw err;
}

export const siteActions: SitesActions = {
  list: {
    params: {
      organizationId: idRule,
      ...listParams,
      space: { ...idRule, optional: true },
      title: { type: "string", max: 128, optional: true },
      published: { type: "boolean", optional: true, convert: true },
      type: [
        { ...siteTypeRule, optional: true },
        { type: "array", items: siteTypeRule, max: 10, optional: true },
      ],
    },
    async handler(this: SitesService, ctx: Ctx<ListParams>) {
      const { organizationId, space, title, published, type } = ctx.params;
      await this.siteAccess(organizationId, callerOf(ctx), false);
      const filter: Filter = { organizationId };
      if (space !== undefined) {
        const links = await this.siteSpaces.find({ spaceId: space });
        filter.id = op.in([...new Set(links.map((l) => l.siteId))]);
      }
      if (title) filter.title = op.contains(title);
      if (published !== undefined) filter.published = published;
      if (type !== undefined) filter.type = op.in(Array.isArray(type) ? type : [type]);
      const publicUrl = this.publicUrl();
      return listPage(this.sites, filter, { page: ctx.params.page, limit: ctx.params.limit, sort: [["createdAt", 1]] }, (sites) =>
        sites.map((site) => presentSite(site, publicUrl)),
      );
    },
  },

  create: {
    params: {
      organizationId: idRule,
      type: { ...siteTypeRule, ...opt },
      title: { ...siteTitleRule, ...opt },
      visibility: { ...siteVisibilityRule, ...opt },
      spaces: { type: "array", items: idRule, max: MAX_SPACES_ON_CREATE, unique: true, optional: true },
      createSpace: { type: "boolean", optional: true },
    },
    async handler(this: SitesService, ctx: Ctx<CreateParams>) {
      const caller = callerOf(ctx);
      const { organizationId } = ctx.params;
      await this.siteAccess(organizationId, caller, true);
      const spaces = ctx.params.spaces ?? [];
      const titles = await Promise.all(spaces.map((spaceId, i) => this.requireSpace(caller, organizationId, spaceId, `spaces[${i}]`)));
      const now = new Date().toISOString();
      const site: SiteDoc = {
        id: newId(),
        organizationId,
        type: ctx.params.type ?? "basic",
        title: ctx.params.title ?? "Untitled site",
        visibility: ctx.params.visibility ?? "public",
        published: false,
        siteSpaces: 0,
        adaptiveContent: false,
        agentsContext: "included",
        createdAt: now,
        updatedAt: now,
      };
      await this.sites.insert(site);
      await this.siteKeys.insert({ id: site.id, visitorSigningKey: newSecret(32) });
      for (const [i, spaceId] of spaces.entries()) await this.insertSiteSpace(site, spaceId, titles[i].title, "");
      if (ctx.params.createSpace) {
        const space = await call(ctx, content.createSpace, {
          organizationId,
          title: site.title.slice(0, 50),
        });
        await this.insertSiteSpace(site, space.id, space.title, "");
      }
      ctx.meta.$statusCode = 201;
      await announceUrlChange(ctx, site.id);
      return presentSite(await this.loadSite(organizationId, site.id), this.publicUrl());
    },
  },

  get: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      return presentSite(await this.loadSite(ctx.params.organizationId, ctx.params.siteId), this.publicUrl());
    },
  },

  update: {
    params: {
      ...siteRef,
      title: { ...siteTitleRule, ...opt },
      visibility: { ...siteVisibilityRule, ...opt },
      basename: { ...basenameRule, ...opt },
      adaptiveContent: { type: "object", strict: true, props: { enabled: { type: "boolean" } }, ...opt },
      agentsContext: { ...agentsContextRule, ...opt },
      defaultSiteSpace: { ...idRule, ...opt },
      defaultSiteSection: { ...idRule, ...opt },
      proxy: { ...proxyRule, ...nullable },
      hostname: { ...hostnameRule, ...nullable },
    },
    async handler(this: SitesService, ctx: Ctx<UpdateParams>) {
      const p = ctx.params;
      await this.siteAccess(p.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(p.organizationId, p.siteId);
      const set: Partial<SiteDoc> = { updatedAt: new Date().toISOString() };
      const unset: string[] = [];
      if (p.title !== undefined) set.title = p.title;
      if (p.visibility !== undefined) set.visibility = p.visibility;
      if (p.basename !== undefined) {
        // `/sites/{x}` resolves ids first; a basename equal to any site's id (one made before the pattern) is refused too.
        if (await this.sites.findOne({ id: p.basename })) throw new BadRequestError(`Invalid parameters: 'basename': ${p.basename} is a site's id.`);
        set.basename = p.basename;
      }
      if (p.adaptiveContent !== undefined) set.adaptiveContent = p.adaptiveContent.enabled;
      if (p.agentsContext !== undefined) set.agentsContext = p.agentsContext;
      if (p.proxy === null) unset.push("proxyOrigin");
      else if (p.proxy !== undefined) set.proxyOrigin = p.proxy;
      if (p.hostname === null) unset.push("hostname");
      else if (p.hostname !== undefined) {
        const { publicUrl, siteHostnameSuffixes } = configFor(this.broker);
        const refusal = hostnameRefusal(p.hostname, publicUrl, siteHostnameSuffixes);
        if (refusal) throw new BadRequestError(`Invalid parameters: 'hostname': ${refusal}`);
        set.hostname = p.hostname;
      }
      if (p.defaultSiteSection !== undefined) {
        const section = await this.sections.findOne({ id: p.defaultSiteSection, siteId: site.id });
        if (!section) throw new BadRequestError(`Invalid parameters: 'defaultSiteSection': section ${p.defaultSiteSection} is not in the site.`);
        set.defaultSectionId = section.id;
      }
      if (p.defaultSiteSpace !== undefined) {
        // At the root of a site without sections; else in the default section (the one this request sets, if any).
        const sections = byPosition(await this.sections.find({ siteId: site.id }));
        const section = defaultOf(sections, set.defaultSectionId ?? site.defaultSectionId);
        const siteSpace = await this.siteSpaces.findOne({ id: p.defaultSiteSpace, siteId: site.id, sectionId: section?.id ?? "" });
        if (!siteSpace) {
          throw new BadRequestError(`Invalid parameters: 'defaultSiteSpace': site space ${p.defaultSiteSpace} is not in the site's ${section ? "default section" : "root level"}.`);
        }
        if (section) await this.sections.updateOne({ id: section.id }, { $set: { defaultSiteSpaceId: siteSpace.id } });
        else set.defaultSiteSpaceId = siteSpace.id;
      }
      let updated: SiteDoc | null;
      try {
        updated = await this.sites.updateOne({ id: site.id }, { $set: set, $unset: unset });
      } catch (err) {
        return uniqueConflict(this, err, site.id, p);
      }
      await announceUrlChange(ctx, ctx.params.siteId);
      return presentSite(updated ?? (await this.loadSite(p.organizationId, p.siteId)), this.publicUrl());
    },
  },

  remove: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>) {
      const { organizationId, siteId } = ctx.params;
      await this.siteAccess(organizationId, callerOf(ctx), true);
      if (await this.sites.deleteOne({ id: siteId, organizationId })) {
        await this.deleteSiteTree(siteId);
        await broadcast(this.broker, events.sitesSiteDeleted, { organizationId, siteId });
      }
      ctx.meta.$statusCode = 204;
      await announceUrlChange(ctx, ctx.params.siteId);
      return null;
    },
  },

  publish: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>) {
      return setPublished(this, ctx, true);
    },
  },

  unpublish: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>) {
      return setPublished(this, ctx, false);
    },
  },
};

async function setPublished(service: SitesService, ctx: Ctx<SiteRef>, published: boolean) {
  const { organizationId, siteId } = ctx.params;
  await service.siteAccess(organizationId, callerOf(ctx), true);
  const updated = await service.sites.updateOne({ id: siteId, organizationId }, { $set: { published, updatedAt: new Date().toISOString() } });
  if (!updated) await service.loadSite(organizationId, siteId);
  await broadcast(service.broker, published ? events.sitesSitePublished : events.sitesSiteUnpublished, { organizationId, siteId });
  await announceUrlChange(ctx, siteId);
  return presentSite(updated!, service.publicUrl());
}
