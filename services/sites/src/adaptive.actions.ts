// Adaptive content (the visitor schema and its template conditions) and the published site profile.
import { callerOf } from "@docshelf/access";
import { defaultCustomization, type Customization } from "./customization";
import { DEFAULT_SCHEMA, parseAdaptiveSchema, templateConditions, type AdaptiveJsonSchema } from "./adaptive-schema";
import type { SiteDoc } from "./models";
import { presentSite, StructurePresenter, type GroupResource, type SectionResource, type SiteResource, type SiteSpaceResource } from "./present";
import { shareKeyRule, siteRef, type SiteRef } from "./params";
import type { Ctx, SitesActions, SitesService } from "./service-types";

interface AdaptiveSchemaResource {
  object: "site-adaptive-schema";
  jsonSchema: AdaptiveJsonSchema;
  updatedAt: string;
}

export interface PublishedSiteResource {
  object: "published-content-site";
  site: SiteResource;
  structure: { type: "sections"; structure: Array<SectionResource | GroupResource> } | { type: "siteSpaces"; structure: SiteSpaceResource[] };
  customizations: { site: Customization; siteSpaces: Record<string, Customization> };
  scripts: Array<{ script: string; contentSecurityPolicy?: string; cookies: boolean }>;
}

async function readSchema(service: SitesService, site: SiteDoc): Promise<AdaptiveSchemaResource> {
  const stored = await service.adaptiveSchemas.findOne({ id: site.id });
  return stored
    ? { object: "site-adaptive-schema", jsonSchema: JSON.parse(stored.json) as AdaptiveJsonSchema, updatedAt: stored.updatedAt }
    : { object: "site-adaptive-schema", jsonSchema: DEFAULT_SCHEMA, updatedAt: site.createdAt };
}

export const adaptiveActions: SitesActions = {
  getAdaptiveSchema: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      return readSchema(this, await this.loadSite(ctx.params.organizationId, ctx.params.siteId));
    },
  },

  putAdaptiveSchema: {
    params: { ...siteRef, jsonSchema: { type: "object" } },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { jsonSchema: unknown }>) {
      const jsonSchema = parseAdaptiveSchema(ctx.params.jsonSchema);
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), true);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      const updatedAt = new Date().toISOString();
      const json = JSON.stringify(jsonSchema);
      if (!(await this.adaptiveSchemas.updateOne({ id: site.id }, { $set: { json, updatedAt } }))) {
        await this.adaptiveSchemas.insert({ id: site.id, json, updatedAt }).catch(async () => {
          // A concurrent first PUT inserted it: this one wins by updating.
          await this.adaptiveSchemas.updateOne({ id: site.id }, { $set: { json, updatedAt } });
        });
      }
      return { object: "site-adaptive-schema", jsonSchema, updatedAt } satisfies AdaptiveSchemaResource;
    },
  },

  listTemplateConditions: {
    params: siteRef,
    async handler(this: SitesService, ctx: Ctx<SiteRef>) {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const schema = await readSchema(this, await this.loadSite(ctx.params.organizationId, ctx.params.siteId));
      return { items: templateConditions(schema.jsonSchema) };
    },
  },

  getPublished: {
    params: { ...siteRef, shareKey: shareKeyRule },
    async handler(this: SitesService, ctx: Ctx<SiteRef & { shareKey?: string }>): Promise<PublishedSiteResource> {
      await this.siteAccess(ctx.params.organizationId, callerOf(ctx), false);
      const site = await this.loadSite(ctx.params.organizationId, ctx.params.siteId);
      await this.checkShareKey(site, ctx.params.shareKey);
      const structure = await this.loadStructure(ctx, site);
      const presenter = new StructurePresenter(structure, this.publicUrl(), ctx.params.shareKey);
      const siteSpaces: Record<string, Customization> = {};
      for (const siteSpace of structure.siteSpaces) siteSpaces[siteSpace.id] = defaultCustomization(structure.spaces.get(siteSpace.spaceId)?.title);
      return {
        object: "published-content-site",
        site: presentSite(site, this.publicUrl()),
        structure:
          presenter.sections.length > 0
            ? { type: "sections", structure: presenter.topLevel() }
            : { type: "siteSpaces", structure: presenter.siteSpacesIn("").flatMap((s) => presenter.siteSpace(s) ?? []) },
        customizations: { site: (await this.siteCustomization(site)).customization, siteSpaces },
        scripts: [],
      };
    },
  },
};
