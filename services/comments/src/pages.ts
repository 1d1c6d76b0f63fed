// Page targets: the page's metadata as the content service gives it, and whether a comment on it is outdated.

/** What `content.pagesMeta` gives for one page. */
export interface PageSnapshot {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  path: string;
  createdAt: string;
  updatedAt: string;
}

/** What `content.pagesMeta` answers. */
export interface PagesMeta {
  revision: string | null;
  pages: Record<string, PageSnapshot>;
}

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
