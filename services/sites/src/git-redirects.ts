// Redirects of a space's `.gitbook.yaml`, imported by Git sync, as site redirects of every site that
// publishes the space: asked of git-sync (`git-sync.spaceRedirects`) whenever they are needed, never
// copied, so a later import that drops one (or a removed link) shows at once. Read-only here.
import { createHash } from "node:crypto";
import { call, type ActionCaller } from "@docshelf/contracts/action";
import * as gitSync from "@docshelf/contracts/git-sync";
import type { RedirectDoc, SiteDoc } from "./models";
import { MAX_SOURCE, SOURCE_PATTERN } from "./redirects";

/** Ids of Git redirects: `git-<siteSpaceId>-<hash of the source>` (stored ids are base62, without `-`). */
export const GIT_REDIRECT_PREFIX = "git-";

export function isGitRedirectId(id: string): boolean {
  return id.startsWith(GIT_REDIRECT_PREFIX);
}

/** A site space as the redirects need it: its id, its space, the revision it shows and its root's URL path under the site's base. */
export interface GitRedirectView {
  doc: { id: string };
  spaceId: string;
  revisionId: string;
  base: string;
}

/** The ids of the pages of a space's revision (the published tree, cached by revision). */
export type PageIdsOf = (spaceId: string, revisionId: string) => Promise<Set<string>>;

/** A `.gitbook.yaml` key (`old/setup`) as a source path under the site space's path; null when it has no SiteRedirectSourcePath shape. */
export function gitSourcePath(siteSpacePath: string, key: string): string | null {
  const segments = key.split("/").filter(Boolean).map((segment) => {
    let plain = segment;
    try {
      plain = decodeURIComponent(segment);
    } catch {
      /* taken as written */
    }
    // `*` is literal in `.gitbook.yaml` (it has no wildcards): escaped so it never makes a prefix.
    return encodeURIComponent(plain).replace(/\*/g, "%2A").replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  });
  if (!segments.length) return null;
  const source = `${siteSpacePath.replace(/\/+$/, "")}/${segments.join("/")}`;
  return source.length <= MAX_SOURCE && SOURCE_PATTERN.test(source) ? source : null;
}

/**
 * The Git redirects of the site's site spaces (`views`, in the site's order, bases under `siteBase`),
 * as live, permanent `site-page` redirects to pages the revision each site space shows still has (so a
 * page deleted since the import takes its redirects with it). Only spaces of the site's own organization
 * count. When git-sync cannot answer, there are none (logged): the site's own redirects still work.
 */
export async function gitRedirectsOf(
  caller: ActionCaller,
  site: Pick<SiteDoc, "id" | "organizationId">,
  views: GitRedirectView[],
  siteBase: string,
  pageIdsOf: PageIdsOf,
  log: { warn(...args: unknown[]): void },
): Promise<RedirectDoc[]> {
  const spaceIds = [...new Set(views.map((v) => v.spaceId))];
  if (!spaceIds.length) return [];
  let answers: gitSync.SpaceGitRedirects[];
  try {
    answers = await call(caller, gitSync.spaceRedirects, { spaceIds });
  } catch (err) {
    log.warn({ siteId: site.id, error: String((err as Error)?.message) }, "the Git redirects of the site's spaces could not be read");
    return [];
  }
  const bySpace = new Map(answers.filter((a) => a.organizationId === site.organizationId).map((a) => [a.spaceId, a]));
  const out: RedirectDoc[] = [];
  const seen = new Set<string>();
  for (const view of views) {
    const answer = bySpace.get(view.spaceId);
    if (!answer) continue;
    const pageIds = await pageIdsOf(view.spaceId, view.revisionId);
    const siteSpacePath = view.base.slice(siteBase.length);
    for (const redirect of answer.redirects) {
      if (!pageIds.has(redirect.pageId)) continue;
      const source = gitSourcePath(siteSpacePath, redirect.source);
      // The first site space (in the site's order) to claim a source keeps it.
      if (!source || seen.has(source)) continue;
      seen.add(source);
      out.push({
        id: `${GIT_REDIRECT_PREFIX}${view.doc.id}-${createHash("sha256").update(source).digest("base64url").slice(0, 16)}`,
        siteId: site.id,
        source,
        draft: false,
        captureWildcard: false,
        permanent: true,
        destination: { kind: "site-page", siteSpaceId: view.doc.id, pageId: redirect.pageId },
        createdAt: answer.updatedAt,
        origin: { kind: "git-sync", spaceId: view.spaceId, file: redirect.file },
      });
    }
  }
  return out;
}
