// The link report of a revision: every link in its pages, grouped by target and classified ok, broken or in-app.
import { posix } from "node:path";
import { extractLinks } from "./markdown";
import { resolveLinkPath, walk, type FileMeta, type PageNode } from "./tree";

export type LinkStatus = "ok" | "broken" | "in-app";
export type LinkTarget = { kind: "page"; page: string } | { kind: "file"; file: string } | { kind: "url"; url: string };

export interface LinkUsage {
  /** Stable key of the target, used for paging. */
  id: string;
  status: LinkStatus;
  target: LinkTarget;
  /** Ids of the pages that link to the target, in tree order, each once. */
  from: string[];
}

export interface LinkReport {
  items: LinkUsage[];
  stats: { total: number; broken: { total: number } };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Classifies one link written in the page at `fromPath`. Returns null for links that point nowhere to check (anchors, mailto). */
export function classifyLink(
  href: string,
  fromPath: string,
  index: { byPath: Map<string, PageNode>; filesByName: Map<string, FileMeta>; filesById: Map<string, FileMeta> },
  appUrl: string,
): { status: LinkStatus; target: LinkTarget } | null {
  if (href.startsWith("#")) return null;
  if (SCHEME.test(href)) {
    if (!/^https?:/i.test(href)) return null;
    const inApp = href === appUrl || href.startsWith(`${appUrl}/`);
    return { status: inApp ? "in-app" : "ok", target: { kind: "url", url: href } };
  }
  let path: string;
  try {
    path = resolveLinkPath(fromPath, href);
  } catch {
    return { status: "broken", target: { kind: "url", url: href } };
  }
  const page = index.byPath.get(path);
  if (page) return { status: "ok", target: { kind: "page", page: page.id } };
  const base = posix.basename(path);
  const file = index.filesById.get(base) ?? index.filesByName.get(base);
  if (file && (path.includes(".gitbook/assets/") || path.includes("files/") || path === base)) {
    return { status: "ok", target: { kind: "file", file: file.id } };
  }
  return { status: "broken", target: { kind: "url", url: href } };
}

/**
 * The link report of `pages` (or only of the page `onlyPage`). `markdownOf` gives each page's body.
 * A page without a body has no links.
 */
export function linkReport(
  pages: PageNode[],
  files: FileMeta[],
  markdownOf: (page: PageNode) => string | undefined,
  appUrl: string,
  onlyPage?: string,
): LinkReport {
  const byPath = new Map<string, PageNode>();
  for (const { page } of walk(pages)) byPath.set(page.path, page);
  const index = { byPath, filesByName: new Map(files.map((f) => [f.name, f])), filesById: new Map(files.map((f) => [f.id, f])) };
  const usages = new Map<string, LinkUsage>();
  let total = 0;
  let broken = 0;
  for (const { page } of walk(pages)) {
    if (onlyPage && page.id !== onlyPage) continue;
    const markdown = markdownOf(page);
    if (!markdown) continue;
    for (const link of extractLinks(markdown)) {
      const found = classifyLink(link.href, page.path, index, appUrl);
      if (!found) continue;
      total++;
      if (found.status === "broken") broken++;
      const t = found.target;
      const key = `${t.kind}:${t.kind === "page" ? t.page : t.kind === "file" ? t.file : t.url}`;
      const usage = usages.get(key) ?? { id: key, status: found.status, target: t, from: [] };
      // Pages are walked one at a time, so a repeat from the same page is always the last entry.
      if (usage.from[usage.from.length - 1] !== page.id) usage.from.push(page.id);
      usages.set(key, usage);
    }
  }
  return { items: [...usages.values()], stats: { total, broken: { total: broken } } };
}
