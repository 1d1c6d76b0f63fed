// A published site as one visitor sees it: the sections and site spaces whose conditions hold and whose
// spaces still exist, with their URLs, and the route from a request path to a site space and page path.
import type { GroupDoc, SectionDoc, SiteDoc, SiteSpaceDoc } from "../models";
import { byPosition, defaultOf } from "../structure";
import { conditionHolds, type Claims } from "./conditions";
import type { PublishedHead, TreeIndex, TreePage } from "./content";
import { pageUrl } from "./content";
import type { NavLink, NavNode } from "./layout";

export interface SiteSpaceView {
  doc: SiteSpaceDoc;
  spaceId: string;
  revisionId: string;
  title: string;
  /** URL path of its root: the site's base for the default site space of the default section. */
  base: string;
  /** The space's Git sync, when it has one (for "Edit on GitHub/GitLab"). */
  git?: { url: string; provider?: string };
}

export interface SectionView {
  doc: SectionDoc;
  title: string;
  base: string;
  siteSpaces: SiteSpaceView[];
  /** The site space its root shows: its default when visible, else its first visible one. */
  home: SiteSpaceView;
}

export interface SiteMap {
  /** Visible sections in the site's order (empty for a site without sections). */
  sections: SectionView[];
  /** The section the site's root shows. */
  homeSection?: SectionView;
  /** Site spaces at the root of a site without sections. */
  rootSiteSpaces: SiteSpaceView[];
  /** The root site space the site's root shows (sites without sections). */
  rootHome?: SiteSpaceView;
  /** The site's base URL path ("" on its own host). */
  base: string;
  /** Every visible site space, for search and the sitemap. */
  all: SiteSpaceView[];
}

export interface StructureDocs {
  site: SiteDoc;
  sections: SectionDoc[];
  groups: GroupDoc[];
  siteSpaces: SiteSpaceDoc[];
}

/** Sections in the order the site shows them: top-level sections and groups by position, a group's sections in its place. */
function sectionOrder(structure: StructureDocs): SectionDoc[] {
  const sections = byPosition(structure.sections);
  const top = byPosition([
    ...sections.filter((s) => !s.groupId).map((s) => ({ id: s.id, position: s.position, sections: [s] })),
    ...byPosition(structure.groups).map((g) => ({ id: g.id, position: g.position, sections: sections.filter((s) => s.groupId === g.id) })),
  ]);
  const ordered = top.flatMap((node) => node.sections);
  // A section whose group is gone still shows, at the end.
  for (const section of sections) if (!ordered.includes(section)) ordered.push(section);
  return ordered;
}

/** `ignoreConditions`: every site space and section with published content, whatever its condition (what the site's members manage). */
export function buildSiteMap(structure: StructureDocs, heads: Map<string, PublishedHead>, claims: Claims, siteBase: string, options: { ignoreConditions?: boolean } = {}): SiteMap {
  const holds = (condition: Parameters<typeof conditionHolds>[0]) => !!options.ignoreConditions || conditionHolds(condition, claims);
  const siteSpacesOf = (sectionId: string) => byPosition(structure.siteSpaces.filter((s) => s.sectionId === sectionId));
  const visibleSiteSpaces = (sectionId: string, chosenDefault: string | undefined, sectionBase: string): SiteSpaceView[] => {
    const ordered = siteSpacesOf(sectionId);
    const defaultId = defaultOf(ordered, chosenDefault)?.id;
    return ordered.flatMap((doc) => {
      const head = heads.get(doc.spaceId);
      if (!head?.revisionId || !holds(doc.condition)) return [];
      const view: SiteSpaceView = { doc, spaceId: doc.spaceId, revisionId: head.revisionId, title: head.title || "Untitled", base: doc.id === defaultId ? sectionBase : `${sectionBase}/${encodeURIComponent(doc.path)}` };
      if (head.git) view.git = head.git;
      return [view];
    });
  };
  const homeOf = (views: SiteSpaceView[], chosenDefault: string | undefined) => views.find((v) => v.doc.id === chosenDefault) ?? views[0];

  const ordered = sectionOrder(structure);
  if (!ordered.length) {
    const rootSiteSpaces = visibleSiteSpaces("", structure.site.defaultSiteSpaceId, siteBase);
    const rootHome = homeOf(rootSiteSpaces, defaultOf(siteSpacesOf(""), structure.site.defaultSiteSpaceId)?.id);
    return { sections: [], rootSiteSpaces, rootHome, all: rootSiteSpaces, base: siteBase };
  }
  const defaultSectionId = defaultOf(ordered, structure.site.defaultSectionId)?.id;
  const sections: SectionView[] = ordered.flatMap((doc) => {
    if (!holds(doc.condition)) return [];
    const base = doc.id === defaultSectionId ? siteBase : `${siteBase}/${encodeURIComponent(doc.path)}`;
    const siteSpaces = visibleSiteSpaces(doc.id, doc.defaultSiteSpaceId, base);
    const home = homeOf(siteSpaces, defaultOf(siteSpacesOf(doc.id), doc.defaultSiteSpaceId)?.id);
    return home ? [{ doc, title: doc.title, base, siteSpaces, home }] : [];
  });
  const homeSection = sections.find((s) => s.doc.id === defaultSectionId) ?? sections[0];
  return { sections, homeSection, rootSiteSpaces: [], all: sections.flatMap((s) => s.siteSpaces), base: siteBase };
}

export interface Route {
  section?: SectionView;
  siteSpace: SiteSpaceView;
  /** The page path inside the site space ("" for its first page). */
  pagePath: string;
}

/** Which site space and page a path (segments after the site's base) names; undefined when the site shows nothing. */
export function routeOf(map: SiteMap, segments: string[]): Route | undefined {
  let rest = segments;
  let section: SectionView | undefined;
  let candidates = map.rootSiteSpaces;
  let home = map.rootHome;
  let parentBase = map.base;
  if (map.sections.length) {
    // A section other than the site's default is named by its path; anything else is in the home section.
    const named = map.sections.find((s) => s.base !== map.base && rest[0] === s.doc.path);
    section = named ?? map.homeSection;
    if (named) rest = rest.slice(1);
    if (!section) return undefined;
    candidates = section.siteSpaces;
    home = section.home;
    parentBase = section.base;
  }
  const named = candidates.find((v) => v.base !== parentBase && rest[0] === v.doc.path);
  if (named) rest = rest.slice(1);
  const siteSpace = named ?? home;
  if (!siteSpace) return undefined;
  return { section, siteSpace, pagePath: rest.join("/") };
}

export function sectionLinks(map: SiteMap, current: SectionView | undefined): NavLink[] {
  return map.sections.map((s) => ({ title: s.title, href: s.base || "/", current: s === current }));
}

export function variantLinks(map: SiteMap, route: Route): NavLink[] {
  const siblings = route.section ? route.section.siteSpaces : map.rootSiteSpaces;
  return siblings.map((v) => ({ title: v.title, href: v.base || "/", current: v === route.siteSpace }));
}

/**
 * Entries of one level of the sidebar: past this, a window around the open page is shown with a link
 * on each side to the pages left out, so a page's HTML stays small whatever the space's shape.
 */
export const NAV_WINDOW = 200;

/** The page tree for the sidebar: top-level pages, opened along the current page's trail and at the page itself. */
export function navigationTree(tree: TreeIndex, base: string, current: TreePage | undefined): NavNode[] {
  const open = new Set(current ? tree.trail(current).map((p) => p.id) : []);
  const node = (page: TreePage): NavNode => {
    const expanded = open.has(page.id);
    const hasChildren = page.pages.some((c) => !c.hidden);
    return {
      title: page.title || "Untitled",
      href: pageUrl(base, tree, page),
      current: page.id === current?.id,
      children: expanded ? build(page.pages) : [],
      collapsed: !expanded && hasChildren,
    };
  };
  const more = (count: number, next: TreePage): NavNode => ({
    title: `… ${count} more ${count === 1 ? "page" : "pages"}`,
    href: pageUrl(base, tree, next),
    current: false,
    children: [],
    collapsed: false,
    more: true,
  });
  const build = (pages: TreePage[]): NavNode[] => {
    const visible = pages.filter((p) => !p.hidden);
    if (visible.length <= NAV_WINDOW) return visible.map(node);
    const at = Math.max(0, visible.findIndex((p) => open.has(p.id)));
    const start = Math.max(0, Math.min(at - NAV_WINDOW / 2, visible.length - NAV_WINDOW));
    const end = start + NAV_WINDOW;
    const nodes = visible.slice(start, end).map(node);
    if (start > 0) nodes.unshift(more(start, visible[start - 1]));
    if (end < visible.length) nodes.push(more(visible.length - end, visible[end]));
    return nodes;
  };
  return build(tree.pages);
}
