// Sites: their structure (sections, section groups, site spaces), share links, adaptive content and published profile.
import * as events from "@docshelf/contracts/events";
import { broadcast, call, type PayloadOf } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as orgs from "@docshelf/contracts/orgs";
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { atLeast, hashToken, MembershipCache, type Caller } from "@docshelf/access";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, storeMixin } from "@docshelf/store";
import { adaptiveActions } from "./adaptive.actions";
import { customizationActions } from "./customization.actions";
import { redirectActions } from "./redirects.actions";
import { siteStructureActions } from "./site-structure.actions";
import { siteSearchActions } from "./site-search.actions";
import { publishingAuthActions } from "./publishing-auth.actions";
import { defaultCustomization, mergeCustomization } from "./customization";
import { groupActions } from "./groups.actions";
import { collections, type SiteSpaceDoc } from "./models";
import type { SpaceResource } from "./present";
import { sectionActions } from "./sections.actions";
import { PublishedContent } from "./serve/content";
import { serveActions } from "./serve/serve.actions";
import type { Methods, Vars } from "./service-types";
import { shareLinkActions } from "./share-links.actions";
import { siteActions } from "./sites.actions";
import { siteSpaceActions } from "./site-spaces.actions";
import { spaceUrlActions } from "./space-urls.actions";
import { nextPosition, slugify, uniquePath } from "./structure";

/** The sites' actions that write (by name): create, update, remove, delete, add, move, sort, put, publish... */
const SITE_WRITE = /^(create|update|remove|delete|add|move|sort|put|publish|unpublish|regenerate|bulkUpsert)/;

export function sitesSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "sites",
    mixins: [storeMixin(collections)],

    actions: {
      ...siteActions,
      ...sectionActions,
      ...groupActions,
      ...siteSpaceActions,
      ...shareLinkActions,
      ...adaptiveActions,
      ...customizationActions,
      ...publishingAuthActions,
      ...redirectActions,
      ...siteStructureActions,
      ...siteSearchActions,
      ...serveActions,
      ...spaceUrlActions,
    },

    hooks: {
      after: {
        // Every write through the API actions is announced, so that the gateways' edge caches of published
        // pages (services/gateway/src/edge-cache.ts) drop the site's answers on every gateway at once.
        async "*"(this: unknown, ctx: Context<{ organizationId?: unknown; siteId?: unknown }>, res: unknown) {
          const { organizationId, siteId } = ctx.params ?? {};
          const action = (ctx.action?.name ?? "").replace(/^sites[.]/, "");
          if (SITE_WRITE.test(action) && typeof organizationId === "string" && typeof siteId === "string") {
            await broadcast(ctx, events.sitesSiteChanged, { organizationId, siteId, action });
          }
          return res;
        },
      },
    },

    events: {
      "orgs.members.changed": {
        handler(ctx: Context<PayloadOf<typeof events.orgsMembersChanged>>) {
          this.memberships.dropOrganization(ctx.params.organizationId);
        },
      },
      // A deleted space stays linked (it can be restored) but is left out of answers; a purged one is unlinked.
      "content.space.purged": {
        async handler(ctx: Context<PayloadOf<typeof events.contentSpacePurged>>) {
          await this.unlinkSpace(ctx.params.spaceId, null);
        },
      },
      // A space moved to another organization leaves the sites of the one it left.
      "content.space.transferred": {
        async handler(ctx: Context<PayloadOf<typeof events.contentSpaceTransferred>>) {
          await this.unlinkSpace(ctx.params.spaceId, ctx.params.fromOrganizationId);
        },
      },
    },

    methods: {
      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      async siteAccess(organizationId: string, caller: Caller, write: boolean) {
        const membership = await this.memberships.get(organizationId, caller.id);
        if (!membership.member) throw new NotFoundError(`Organization ${organizationId} was not found.`);
        if (!atLeast(membership.role, "read")) throw new ForbiddenError("Guests of the organization cannot see its sites.");
        if (write && !atLeast(membership.role, "create")) throw new ForbiddenError("Changing and publishing sites takes the create role or better.");
        return membership.role;
      },

      async loadSite(organizationId: string, siteId: string) {
        const site = await this.sites.findOne({ id: siteId, organizationId });
        if (!site) throw new NotFoundError(`Site ${siteId} was not found.`);
        return site;
      },

      async shareKeyResolves(siteId: string, shareKey: string) {
        const link = await this.shareLinks.findOne({ keyHash: hashToken(shareKey) });
        return !!link && link.siteId === siteId && link.active;
      },

      async checkShareKey(site, shareKey) {
        if (shareKey === undefined) return;
        if (!(await this.shareKeyResolves(site.id, shareKey))) {
          throw new BadRequestError("Invalid parameters: 'shareKey' is not an active share link of this site.");
        }
      },

      async loadStructure(ctx, site) {
        const [sections, groups, siteSpaces] = await Promise.all([
          this.sections.find({ siteId: site.id }),
          this.groups.find({ siteId: site.id }),
          this.siteSpaces.find({ siteId: site.id }),
        ]);
        const spaces = new Map<string, SpaceResource>();
        await Promise.all(
          [...new Set(siteSpaces.map((s) => s.spaceId))].map(async (spaceId) => {
            try {
              spaces.set(spaceId, (await call(ctx, content.getSpace, { spaceId })) as SpaceResource);
            } catch (err) {
              // A space deleted since, or one the caller may not see, is left out of the answer.
              if ((err as { code?: number }).code !== 404 && (err as { code?: number }).code !== 403) throw err;
            }
          }),
        );
        return { site, sections, groups, siteSpaces, spaces };
      },

      async requireSpace(caller, organizationId, spaceId, field) {
        const access = await call(this.broker, content.spaceAccess, { spaceId, userId: caller.id });
        if (!access.exists || access.organizationId !== organizationId || access.role === null) {
          throw new BadRequestError(`Invalid parameters: '${field}': space ${spaceId} was not found in the organization.`);
        }
        return { title: access.title ?? "" };
      },

      async insertSiteSpace(site, spaceId, spaceTitle, sectionId) {
        for (let attempt = 0; attempt < 5; attempt++) {
          const siblings = await this.siteSpaces.find({ siteId: site.id, sectionId });
          const doc: SiteSpaceDoc = {
            id: newId(),
            siteId: site.id,
            spaceId,
            sectionId,
            path: uniquePath(slugify(spaceTitle || "space"), new Set(siblings.map((s) => s.path))),
            position: nextPosition(siblings),
            createdAt: new Date().toISOString(),
          };
          try {
            await this.siteSpaces.insert(doc);
          } catch (err) {
            // A concurrent insert took the path: pick again.
            if (err instanceof ConflictError) continue;
            throw err;
          }
          await this.sites.updateOne({ id: site.id }, { $inc: { siteSpaces: 1 } });
          return doc;
        }
        throw new ConflictError("The site changed concurrently; try again.");
      },

      async deleteSiteSpaces(siteId, filter) {
        const removed = await this.siteSpaces.deleteMany({ siteId, ...filter });
        if (removed) await this.sites.updateOne({ id: siteId }, { $inc: { siteSpaces: -removed } });
        return removed;
      },

      async unlinkSpace(spaceId, organizationId) {
        for (const siteSpace of await this.siteSpaces.find({ spaceId })) {
          if (organizationId !== null && !(await this.sites.findOne({ id: siteSpace.siteId, organizationId }))) continue;
          await this.deleteSiteSpaces(siteSpace.siteId, { id: siteSpace.id });
        }
      },

      async siteCustomization(site) {
        const stored = await this.customizations.findOne({ id: site.id });
        const base = defaultCustomization(site.title);
        return stored
          ? { customization: mergeCustomization(base, JSON.parse(stored.json) as Record<string, unknown>), updatedAt: stored.updatedAt }
          : { customization: base, updatedAt: undefined };
      },

      async deleteSiteTree(siteId) {
        await Promise.all([
          this.sections.deleteMany({ siteId }),
          this.groups.deleteMany({ siteId }),
          this.siteSpaces.deleteMany({ siteId }),
          this.shareLinks.deleteMany({ siteId }),
          this.siteKeys.deleteMany({ id: siteId }),
          this.adaptiveSchemas.deleteMany({ id: siteId }),
          this.customizations.deleteMany({ id: siteId }),
          this.redirects.deleteMany({ siteId }),
        ]);
      },
    },

    created() {
      this.publishedContent = new PublishedContent(this.broker);
      this.memberships = new MembershipCache((organizationId, userId) =>
        call(this.broker, orgs.memberRole, { organizationId, userId }),
      );
    },
  };
}

export default sitesSchema;
