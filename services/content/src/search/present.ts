// GitBook's search result shapes (SearchPageResult, SearchSpaceResult) for search hits.
import type { SearchPageHit } from "./search-index";

export interface SearchSectionResult {
  id: string;
  title: string;
  path: string;
  body: string;
  urls: { app: string };
}

export interface SearchPageResult {
  id: string;
  title: string;
  path: string;
  sections: SearchSectionResult[];
  urls: { app: string };
}

export interface SearchSpaceResult {
  id: string;
  title: string;
  pages: SearchPageResult[];
}

/** The app URL of a page or section path in a space, as the space's own `urls.app` is formed. */
function appUrl(publicUrl: string, spaceId: string, path: string): string {
  return `${publicUrl}/s/${spaceId}/${path}`;
}

export function presentSearchPage(hit: SearchPageHit, publicUrl: string): SearchPageResult {
  return {
    id: hit.id,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((s) => ({ id: s.id, title: s.title, path: s.path, body: s.body, urls: { app: appUrl(publicUrl, hit.spaceId, s.path) } })),
    urls: { app: appUrl(publicUrl, hit.spaceId, hit.path) },
  };
}

export function presentSearchSpace(space: { id: string; title: string }, pages: readonly SearchPageHit[], publicUrl: string): SearchSpaceResult {
  return { id: space.id, title: space.title, pages: pages.map((p) => presentSearchPage(p, publicUrl)) };
}
