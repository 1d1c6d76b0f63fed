// The sites service's shape as its action modules see it: its collections and its shared methods.
import type { Context, Service } from "moleculer";
import type { Caller, MembershipCache, RoleOrGuest } from "@docshelf/access";
import type { Collection } from "@docshelf/store";
import type { AdaptiveSchemaDoc, CustomizationDoc, GroupDoc, RedirectDoc, SectionDoc, ShareLinkDoc, SiteDoc, SiteKeyDoc, SiteSpaceDoc } from "./models";
import type { SiteStructure } from "./present";
import type { Customization } from "./customization";
import type { PublishedContent } from "./serve/content";

export interface Vars {
  sites: Collection<SiteDoc>;
  sections: Collection<SectionDoc>;
  groups: Collection<GroupDoc>;
  siteSpaces: Collection<SiteSpaceDoc>;
  shareLinks: Collection<ShareLinkDoc>;
  siteKeys: Collection<SiteKeyDoc>;
  adaptiveSchemas: Collection<AdaptiveSchemaDoc>;
  customizations: Collection<CustomizationDoc>;
  redirects: Collection<RedirectDoc>;
  memberships: MembershipCache;
  /** What published sites read from the content service, with its caches (serve/content.ts). */
  publishedContent: PublishedContent;
}

export type Ctx<P> = Context<P, Record<string, unknown>>;

export interface Methods {
  publicUrl(): string;
  /** The caller's role in the organization: 404 for non-members, 403 for guests, and 403 below `create` when `write`. */
  siteAccess(organizationId: string, caller: Caller, write: boolean): Promise<RoleOrGuest>;
  /** The site of the organization, or 404. */
  loadSite(organizationId: string, siteId: string): Promise<SiteDoc>;
  /** Throws 400 naming `shareKey` unless it is absent or an active share link of the site. */
  checkShareKey(site: SiteDoc, shareKey: string | undefined): Promise<void>;
  /** Whether `shareKey` is an active share link of the site. */
  shareKeyResolves(siteId: string, shareKey: string): Promise<boolean>;
  /** The whole structure of a site and, as the caller sees them, the spaces it links. */
  loadStructure(ctx: Ctx<unknown>, site: SiteDoc): Promise<SiteStructure>;
  /** A live space of the organization the caller may see, by title; 400 naming `field` otherwise. */
  requireSpace(caller: Caller, organizationId: string, spaceId: string, field: string): Promise<{ title: string }>;
  /** Links a space into a site (in a section, or at the root when sectionId is ""), with a path unique there. */
  insertSiteSpace(site: SiteDoc, spaceId: string, spaceTitle: string, sectionId: string): Promise<SiteSpaceDoc>;
  /** Removes site spaces matching a filter of one site and keeps the site's count. */
  deleteSiteSpaces(siteId: string, filter: Partial<Pick<SiteSpaceDoc, "id" | "sectionId">>): Promise<number>;
  /** Unlinks a space from every site (of one organization, unless null), keeping the counts. */
  unlinkSpace(spaceId: string, organizationId: string | null): Promise<void>;
  /** The site's customization: the defaults with what `PUT …/customization` stored over them. */
  siteCustomization(site: SiteDoc): Promise<{ customization: Customization; updatedAt: string | undefined }>;
  /** Removes a site and everything in it. */
  deleteSiteTree(siteId: string): Promise<void>;
}

export type SitesService = Service<Record<string, unknown>> & Vars & Methods;
export type SitesActions = Service.ServiceActionsSchema<SitesService>;
