// Page targets: the page's metadata as the content service gives it, and whether a comment on it is outdated.

import type { PageMeta as PageSnapshot, PagesMeta } from "@docshelf/contracts/content";

/** What `content.pagesMeta` gives for one page, and what it answers. */
export type { PageSnapshot, PagesMeta };

export interface PageTarget extends PageSnapshot {
  outdated: boolean;
}

/**
 * The page a comment targets as it is now: its current metadata, outdated once the page changed
 * after the comment was posted; a page gone from the content keeps its snapshot and is outdated.
 */
export function pageTarget(snapshot: PageSnapshot, current: PageSnapshot | undefined): PageTarget {
  if (!current) return { ...snapshot, outdated: true };
  return { ...current, outdated: current.updatedAt !== snapshot.updatedAt };
}
