// The git-sync service's internal actions other services call, and the answers they give.
import { action } from "./action";

/** One `.gitbook.yaml` redirect of a space, as its latest Git import resolved it. */
export interface GitRedirect {
  /** The key as written, without leading or trailing slashes: a path relative to the space's published root (`old/setup`). */
  source: string;
  /** The destination file as written in `.gitbook.yaml` (relative to the content root). */
  file: string;
  /** The page that file became in the space. */
  pageId: string;
}

/** A space's Git-imported redirects (only spaces with some are answered). */
export interface SpaceGitRedirects {
  spaceId: string;
  organizationId: string;
  /** When the redirects were last set (the latest import that read them). */
  updatedAt: string;
  redirects: GitRedirect[];
}

/**
 * The redirects of `.gitbook.yaml` each space's latest (non-standalone) Git import read, with each
 * destination file resolved to its page; redirects whose file is no page of the import are left out.
 */
export const spaceRedirects = action<{ spaceIds: string[] }, SpaceGitRedirects[]>("git-sync.spaceRedirects");
