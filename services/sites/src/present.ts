// The API shapes of sites, sections, section groups, site spaces and share links.
import type { GroupDoc, SectionDoc, ShareLinkDoc, SiteDoc, SiteSpaceDoc } from "./models";
import { byPosition, defaultOf, instanceSiteUrl, PublishedUrls, siteBaseUrl } from "./structure";

/** A space as the content service presents it (`content.getSpace`); only what this service reads is typed. */
export interface SpaceResource {
  object: "space";
  id: string;
  title: string;
  [field: string]: unknown;
}

export interface SiteResource {
  object: "site";
  id: string;
  type: SiteDoc["type"];
  title: string;
  hostname?: string;
  basename?: string;
  proxy?: { origin: string; target: string };
  visibility: SiteDoc["visibility"];
  published: boolean;
  siteSpaces: number;
  createdAt: string;
  adaptiveContent: { enabled: boolean };
  ads: { status: "pending"; submittable: boolean };
  agentsContext: SiteDoc["agentsContext"];
  features: Array<{ id: string; plan: string; frozen: boolean }>;
  urls: { location: string; app: string; published?: string };
}

export interface SiteSpaceResource {
  object: "site-space";
  /** GitBook's draft structure items: this instance has none, so always false. */
  draft: false;
  id: string;
  path: string;
  section?: string;
  space: SpaceResource;
  title: string;
  default: boolean;
  condition?: string;
  hasAdvancedCustomizationFeature: boolean;
  urls: { published?: string };
}

export interface SectionResource {
  object: "site-section";
  draft: false;
  id: string;
  title: string;
  description?: string;
  default: boolean;
  path: string;
  condition?: string;
  sectionGroup?: string;
  siteSpaces: SiteSpaceResource[];
  urls: { published?: string };
  icon?: string;
}

export interface GroupResource {
  object: "site-section-group";
  draft: false;
  id: string;
  title: string;
  icon?: string;
  sections: SectionResource[];
  children: SectionResource[];
}

export interface ShareLinkResource {
  object: "share-link";
  id: string;
  createdAt: string;
  name: string;
  active: boolean;
  urls: { published?: string };
}

export function siteLocation(publicUrl: string, site: SiteDoc): string {
  return `${publicUrl}/v1/orgs/${site.organizationId}/sites/${site.id}`;
}

export function presentSite(site: SiteDoc, publicUrl: string): SiteResource {
  const resource: SiteResource = {
    object: "site",
    id: site.id,
    type: site.type,
    title: site.title,
    visibility: site.visibility,
    published: site.published,
    siteSpaces: Math.max(0, site.siteSpaces),
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    ads: { status: "pending", submittable: false },
    agentsContext: site.agentsContext,
    features: [],
    urls: { location: siteLocation(publicUrl, site), app: `${publicUrl}/o/${site.organizationId}/sites/${site.id}` },
  };
  if (site.hostname) resource.hostname = site.hostname;
  if (site.basename) resource.basename = site.basename;
  if (site.proxyOrigin) resource.proxy = { origin: site.proxyOrigin, target: instanceSiteUrl(site, publicUrl) };
  const published = new PublishedUrls(site, publicUrl, undefined).forSite();
  if (published) resource.urls.published = published;
  return resource;
}

export function presentShareLink(link: ShareLinkDoc, site: SiteDoc, publicUrl: string, key?: string): ShareLinkResource {
  const resource: ShareLinkResource = { object: "share-link", id: link.id, createdAt: link.createdAt, name: link.name, active: link.active, urls: {} };
  // The key is stored only as a hash, so the URL that carries it exists only in the answer that creates it.
  if (key) resource.urls.published = `${siteBaseUrl(site, publicUrl)}?share=${encodeURIComponent(key)}`;
  return resource;
}

/** A whole site's structure loaded at once, with the spaces of its site spaces: what every structural answer is made from. */
export interface SiteStructure {
  site: SiteDoc;
  sections: SectionDoc[];
  groups: GroupDoc[];
  siteSpaces: SiteSpaceDoc[];
  spaces: Map<string, SpaceResource>;
}

/** Presents nodes of one site's structure: defaults, order and URLs computed from the whole. */
export class StructurePresenter {
  private readonly urls: PublishedUrls;
  readonly sections: SectionDoc[];
  readonly groups: GroupDoc[];
  readonly defaultSection: SectionDoc | undefined;

  constructor(
    private readonly structure: SiteStructure,
    publicUrl: string,
    shareKey: string | undefined,
  ) {
    this.urls = new PublishedUrls(structure.site, publicUrl, shareKey);
    this.sections = byPosition(structure.sections);
    this.groups = byPosition(structure.groups);
    this.defaultSection = defaultOf(this.sections, structure.site.defaultSectionId);
  }

  /** Site spaces of a section ("" for the root), in order. */
  siteSpacesIn(sectionId: string): SiteSpaceDoc[] {
    return byPosition(this.structure.siteSpaces.filter((s) => s.sectionId === sectionId));
  }

  isDefaultSiteSpace(siteSpace: SiteSpaceDoc): boolean {
    const section = this.structure.sections.find((s) => s.id === siteSpace.sectionId);
    const chosen = section ? section.defaultSiteSpaceId : this.structure.site.defaultSiteSpaceId;
    return defaultOf(this.siteSpacesIn(siteSpace.sectionId), chosen)?.id === siteSpace.id;
  }

  /** The site's own default site space: the default of the default section, or of the root. */
  siteDefaultSiteSpace(): SiteSpaceDoc | undefined {
    const sectionId = this.defaultSection?.id ?? "";
    const chosen = this.defaultSection ? this.defaultSection.defaultSiteSpaceId : this.structure.site.defaultSiteSpaceId;
    return defaultOf(this.siteSpacesIn(sectionId), chosen);
  }

  /** The published URL of a site space (undefined while the site is not published, or without its share key). */
  publishedUrlOf(siteSpace: SiteSpaceDoc): string | undefined {
    const section = this.structure.sections.find((s) => s.id === siteSpace.sectionId);
    return this.urls.siteSpace(siteSpace, this.isDefaultSiteSpace(siteSpace), section && { doc: section, isDefault: section.id === this.defaultSection?.id });
  }

  /** The site space, or undefined when its space is no longer there to present. */
  siteSpace(siteSpace: SiteSpaceDoc): SiteSpaceResource | undefined {
    const space = this.structure.spaces.get(siteSpace.spaceId);
    if (!space) return undefined;
    const isDefault = this.isDefaultSiteSpace(siteSpace);
    const section = this.structure.sections.find((s) => s.id === siteSpace.sectionId);
    const resource: SiteSpaceResource = {
      object: "site-space",
      draft: false,
      id: siteSpace.id,
      path: siteSpace.path,
      space,
      title: space.title || "Untitled",
      default: isDefault,
      hasAdvancedCustomizationFeature: false,
      urls: {},
    };
    if (section) resource.section = section.id;
    if (siteSpace.condition !== undefined) resource.condition = siteSpace.condition;
    const published = this.publishedUrlOf(siteSpace);
    if (published) resource.urls.published = published;
    return resource;
  }

  section(section: SectionDoc): SectionResource {
    const isDefault = section.id === this.defaultSection?.id;
    const resource: SectionResource = {
      object: "site-section",
      draft: false,
      id: section.id,
      title: section.title,
      default: isDefault,
      path: section.path,
      siteSpaces: this.siteSpacesIn(section.id).flatMap((s) => this.siteSpace(s) ?? []),
      urls: {},
    };
    if (section.description !== undefined) resource.description = section.description;
    if (section.condition !== undefined) resource.condition = section.condition;
    if (section.groupId) resource.sectionGroup = section.groupId;
    if (section.icon !== undefined) resource.icon = section.icon;
    const published = this.urls.section(section, isDefault);
    if (published) resource.urls.published = published;
    return resource;
  }

  group(group: GroupDoc): GroupResource {
    const sections = this.sections.filter((s) => s.groupId === group.id).map((s) => this.section(s));
    const resource: GroupResource = { object: "site-section-group", draft: false, id: group.id, title: group.title, sections, children: sections };
    if (group.icon !== undefined) resource.icon = group.icon;
    return resource;
  }

  /** The top level in order: sections outside groups and groups, each group where its position puts it. */
  topLevel(): Array<SectionResource | GroupResource> {
    const nodes: Array<{ position: number; id: string; present: () => SectionResource | GroupResource }> = [
      ...this.sections.filter((s) => !s.groupId).map((s) => ({ position: s.position, id: s.id, present: () => this.section(s) })),
      ...this.groups.map((g) => ({ position: g.position, id: g.id, present: () => this.group(g) })),
    ];
    return byPosition(nodes).map((node) => node.present());
  }
}
