// GitBook's Git Sync layout, both ways: repository files <-> a page tree with markdown and assets.
// README.md is the first page, SUMMARY.md the tree, `.gitbook.yaml` may move both, assets live in
// `.gitbook/assets/`, front matter carries description, icon, hidden and cover.
import type { CoverRef, GitBlob, GitTreePage as TreePage } from "@docshelf/contracts/content";
import { splitFrontMatter } from "@docshelf/document";
import { slugify as slugifyTitle } from "@docshelf/slugs";
import { posix } from "node:path";
import { Document, isMap, isScalar, parseDocument, stringify as stringifyYaml, YAMLMap } from "yaml";
import { linksToTree } from "./file-refs";
import { parseSummary, type SummaryItem } from "./summary";
import { cleanDirectory, joinRepoPath, unsafePathReason } from "./paths";
import { readIncludes, readVariablesFile, ReusableError, variablesOf, VARS_FILE, type TreeReusableContent } from "./reusable";

/** A page as content's git actions take and give it. */
export type { CoverRef, GitBlob, TreePage };

export interface TreeFile {
  id: string;
  name: string;
  contentType: string;
  /** Base64 bytes (a snapshot's; empty when left out). */
  data: string;
  /** Import: the bytes themselves (sent in the binary part of the import stream). */
  bytes?: Buffer;
  /** SHA-256 of the bytes, as content keeps them (snapshot). */
  sha256?: string;
  git?: GitBlob;
}

export interface SourceFile {
  oid: string;
  data: Buffer;
}

/** One `.gitbook.yaml` redirect: the old path (as written) and the file it points to. */
export interface Redirect {
  source: string;
  destination: string;
}

export interface GitbookConfig {
  /** Content root inside the project directory ("" for the project directory itself). */
  root: string;
  readme: string;
  summary: string;
  /** In the file's order (a map would put integer-like sources such as `2019` first). */
  redirects: Redirect[];
}

export class LayoutError extends Error {}

export const ASSETS_DIR = ".gitbook/assets";
/** The longest file name content takes (its insert_file rule). */
const MAX_FILE_NAME = 255;
/**
 * The leading `# heading` that gives a page its title: the very rule by which content drops it from the
 * body (content's revisions/markdown.ts) and an export keeps or rewrites it (sync-state.ts composePage).
 * Not markdown-it's headings on purpose: a setext heading or `# A *b*` read from tokens would give a
 * title content does not strip (or strips differently), and the export would no longer give back the
 * file's bytes.
 */
export const LEADING_HEADING = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/;

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", svg: "image/svg+xml", webp: "image/webp",
  ico: "image/x-icon", pdf: "application/pdf", json: "application/json", txt: "text/plain", csv: "text/csv",
  yaml: "application/yaml", yml: "application/yaml", zip: "application/zip", mp4: "video/mp4", webm: "video/webm", mp3: "audio/mpeg",
};

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[posix.extname(name).slice(1).toLowerCase()] ?? "application/octet-stream";
}

/** A path segment from a title, by the shared rule (@docshelf/slugs), as content cuts them. */
export function slugify(title: string): string {
  return slugifyTitle(title, 100, "page");
}

/** `.gitbook.yaml` (absent: the defaults). A root that leaves the tree is refused. */
export function readGitbookConfig(text: string | undefined): GitbookConfig {
  const config: GitbookConfig = { root: "", readme: "README.md", summary: "SUMMARY.md", redirects: [] };
  if (text === undefined) return config;
  // Parsed as a document so that redirects keep the file's order; a repeated key is the last one, as in GitBook's reader.
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length) throw new LayoutError(`.gitbook.yaml is not valid YAML: ${doc.errors[0].message.split("\n")[0]}`);
  const parsed: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!parsed || typeof parsed !== "object") return config;
  const raw = parsed as { root?: unknown; structure?: { readme?: unknown; summary?: unknown } };
  if (typeof raw.root === "string") {
    const root = cleanDirectory(raw.root);
    if (root === null) throw new LayoutError(`.gitbook.yaml's root "${raw.root}" leaves the repository.`);
    config.root = root;
  }
  for (const key of ["readme", "summary"] as const) {
    const value = raw.structure?.[key];
    if (typeof value === "string" && value.trim()) {
      // Relative to the content root; it may leave the root (`readme: ../README.md` beside `root: ./docs/`)
      // but never the repository.
      const path = joinRepoPath(value.trim().replace(/^\/+/, ""));
      const inRepo = joinRepoPath(config.root, path);
      if (path === "" || inRepo === "" || unsafePathReason(inRepo)) throw new LayoutError(`.gitbook.yaml's structure.${key} "${value}" is not a path inside the repository.`);
      config[key] = path;
    }
  }
  const redirects = isMap(doc.contents) ? doc.contents.get("redirects") : undefined;
  if (isMap(redirects)) {
    const at = new Map<string, number>();
    for (const pair of redirects.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      const value = isScalar(pair.value) ? pair.value.value : undefined;
      if ((typeof key !== "string" && typeof key !== "number") || typeof value !== "string") continue;
      // A number-like source (`2019`, `1.10`) as written, not as the number it parses to.
      const source = typeof key === "string" ? key : ((pair.key as { source?: string }).source ?? String(key));
      const seen = at.get(source);
      if (seen !== undefined) config.redirects[seen] = { source, destination: value };
      else {
        at.set(source, config.redirects.length);
        config.redirects.push({ source, destination: value });
      }
    }
  }
  return config;
}

/** A YAML map of redirects in their order. */
function redirectsNode(doc: Document, redirects: Redirect[]): YAMLMap {
  const map = new YAMLMap();
  for (const { source, destination } of redirects) map.items.push(doc.createPair(source, destination));
  return map;
}

export function writeGitbookConfig(config: GitbookConfig): string {
  const doc = new Document({ root: config.root ? `./${config.root}/` : "./", structure: { readme: config.readme, summary: config.summary } });
  if (config.redirects.length) doc.set("redirects", redirectsNode(doc, config.redirects));
  return doc.toString({ lineWidth: 0 });
}

/**
 * An existing `.gitbook.yaml` with the space's redirects that it lacks (by source) added at the end of its
 * `redirects`; null when it has them all. Redirects the file has are never changed or removed (the space
 * cannot edit them; the file's owner may have), and everything else, comments included, stays as written.
 */
export function addRedirects(text: string, current: GitbookConfig, redirects: Redirect[]): string | null {
  const have = new Set(current.redirects.map((r) => r.source));
  const missing = redirects.filter((r) => !have.has(r.source));
  if (!missing.length) return null;
  const doc = parseDocument(text, { uniqueKeys: false });
  if (!isMap(doc.contents)) return null;
  const existing = doc.contents.get("redirects");
  if (isMap(existing)) for (const { source, destination } of missing) (existing as YAMLMap).items.push(doc.createPair(source, destination));
  else doc.set("redirects", redirectsNode(doc, missing));
  return doc.toString({ lineWidth: 0 });
}

/** Redirects as stored on a link: the ordered list, or (links written before it) the map of old. */
export function storedRedirects(link: { redirectList?: Redirect[]; redirects?: Record<string, string> }): Redirect[] {
  if (Array.isArray(link.redirectList)) return link.redirectList;
  if (link.redirects && typeof link.redirects === "object") return Object.entries(link.redirects).map(([source, destination]) => ({ source, destination }));
  return [];
}

interface PageFile {
  title?: string;
  description?: string;
  icon?: string;
  hidden?: boolean;
  cover?: string;
  coverY?: number;
  /** Front matter `vars`: the page's variables. */
  variables?: Record<string, string>;
  /** The markdown after the front matter (content drops a leading `# heading` itself). */
  body: string;
}

/** Front matter (@docshelf/document's splitFrontMatter, as an export reads it back) and body of a page file. */
export function readPageFile(text: string): PageFile {
  const { data: d, body } = splitFrontMatter(text);
  const page: PageFile = { body };
  if (d) {
    if (typeof d.title === "string" && d.title.trim()) page.title = d.title.trim();
    if (typeof d.description === "string" && d.description.trim()) page.description = d.description.trim();
    if (typeof d.icon === "string" && d.icon.trim()) page.icon = d.icon.trim();
    if (d.hidden === true) page.hidden = true;
    if (typeof d.cover === "string" && d.cover.trim()) page.cover = d.cover.trim();
    if (typeof d.coverY === "number") page.coverY = d.coverY;
    if (d.vars !== undefined && d.vars !== null) {
      const variables = variablesOf(d.vars, "The front matter's vars");
      if (Object.keys(variables).length) page.variables = variables;
    }
  }
  if (!page.title) {
    const heading = LEADING_HEADING.exec(page.body);
    if (heading) page.title = heading[1].trim();
  }
  return page;
}

/** The text of a page file: front matter (only when there is something to say), `# title`, body. */
export function writePageFile(page: TreePage, coverPath: string | undefined): string {
  const fm: Record<string, unknown> = {};
  if (page.description) fm.description = page.description;
  if (page.icon) fm.icon = page.icon;
  if (page.hidden) fm.hidden = true;
  if (page.variables && Object.keys(page.variables).length) fm.vars = { ...page.variables };
  if (coverPath) {
    fm.cover = coverPath;
    fm.coverY = page.cover?.yPos ?? 0;
  }
  const head = Object.keys(fm).length ? `---\n${stringifyYaml(fm)}---\n\n` : "";
  return `${head}# ${page.title.replace(/\r?\n/g, " ")}\n\n${page.markdown}`;
}

// ---------------------------------------------------------------- import

export interface ReadOptions {
  /** Directory of the project inside the repository ("" for the root), for `git.path`. */
  projectDir: string;
  newFileId: () => string;
  /** `repoTreeURL`: relative links to repository files that are not pages or assets point there (file-refs.ts). */
  treeURL?: string;
}

export interface ReadResult {
  pages: TreePage[];
  files: TreeFile[];
  config: GitbookConfig;
  /** Whether the content root has a SUMMARY.md (else the tree came from folders, or the root is empty). */
  hasSummary: boolean;
  /** `.gitbook/includes/*.md` of the content root. */
  reusableContents: TreeReusableContent[];
  /** `.gitbook/vars.yaml` of the content root. */
  variables: Record<string, string>;
}

/** The page tree and assets of a repository, given its files relative to the project directory. */
export function readLayout(files: Map<string, SourceFile>, options: ReadOptions): ReadResult {
  const configFile = files.get(".gitbook.yaml");
  const config = readGitbookConfig(configFile?.data.toString("utf8"));
  const root = config.root;
  const inRoot = new Map<string, SourceFile>();
  for (const [path, file] of files) {
    if (root === "") inRoot.set(path, file);
    else if (path.startsWith(`${root}/`)) inRoot.set(path.slice(root.length + 1), file);
  }
  const repoPath = (rel: string) => joinRepoPath(options.projectDir, root, rel);

  // Assets first: covers point at them.
  const treeFiles: TreeFile[] = [];
  const fileIdByPath = new Map<string, string>();
  const names = new Set<string>();
  for (const [rel, file] of [...inRoot].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!rel.startsWith(`${ASSETS_DIR}/`)) continue;
    let name = posix.basename(rel);
    // Content's rule for a file name; said here with the file's path, before the space is touched.
    if (name.length > MAX_FILE_NAME) throw new LayoutError(`The asset "${repoPath(rel)}" has a name of ${name.length} characters; a space's file name takes at most ${MAX_FILE_NAME} characters. Rename it in the repository and import again.`);
    const ext = posix.extname(name);
    for (let n = 2; names.has(name); n++) name = `${posix.basename(rel, ext)}-${n}${ext}`;
    names.add(name);
    const id = options.newFileId();
    fileIdByPath.set(rel, id);
    treeFiles.push({ id, name, contentType: contentTypeOf(name), data: "", bytes: file.data, git: { oid: file.oid, path: repoPath(rel) } });
  }

  const coverOf = (pageRel: string, page: PageFile): TreePage["cover"] | undefined => {
    if (!page.cover) return undefined;
    if (/^https?:\/\//i.test(page.cover)) return { ref: { kind: "url", url: page.cover }, yPos: page.coverY ?? 0 };
    const candidates = [joinRepoPath(posix.dirname(pageRel), page.cover), joinRepoPath(page.cover.replace(/^\/+/, ""))];
    const id = candidates.map((c) => fileIdByPath.get(c)).find(Boolean);
    return id ? { ref: { kind: "file", file: id }, yPos: page.coverY ?? 0 } : undefined;
  };

  const used = new Set<string>();
  const pageFrom = (rel: string | undefined, title: string | undefined, slug: string): TreePage => {
    const file = rel ? inRoot.get(rel) : undefined;
    if (!rel || !file) return { title: title || "Untitled", slug, markdown: "", pages: [] };
    used.add(rel);
    let parsed: PageFile;
    try {
      parsed = readPageFile(file.data.toString("utf8"));
    } catch (err) {
      if (err instanceof ReusableError) throw new LayoutError(`${repoPath(rel)}: ${err.message}`);
      throw err;
    }
    const markdown = options.treeURL ? linksToTree(parsed.body, repoPath(rel), options.treeURL) : parsed.body;
    const page: TreePage = { title: (title || parsed.title || posix.basename(rel, ".md")).slice(0, 256), slug, markdown, git: { oid: file.oid, path: repoPath(rel) }, pages: [] };
    if (parsed.description) page.description = parsed.description.slice(0, 1000);
    if (parsed.icon) page.icon = parsed.icon.slice(0, 50);
    if (parsed.hidden) page.hidden = true;
    if (parsed.variables) page.variables = parsed.variables;
    const cover = coverOf(rel, parsed);
    if (cover) page.cover = cover;
    return page;
  };

  // A structure path may leave the content root (`../README.md`): read it from the project's files then.
  const summary = inRoot.get(config.summary) ?? (config.summary.startsWith("../") ? files.get(joinRepoPath(root, config.summary)) : undefined);
  let pages: TreePage[];
  if (summary) {
    const summaryDir = posix.dirname(config.summary) === "." ? "" : posix.dirname(config.summary);
    const resolveHref = (href: string): string | undefined => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
      let path = joinRepoPath(summaryDir, href.replace(/^\/+/, ""));
      // A summary beside the content root links into it through the root's name.
      if (path.startsWith("../") && root) {
        const inRepo = joinRepoPath(root, path);
        path = inRepo.startsWith(`${root}/`) ? inRepo.slice(root.length + 1) : path;
      }
      return unsafePathReason(path) ? undefined : path;
    };
    const convert = (items: SummaryItem[], isTop: boolean): TreePage[] =>
      items.map((item, index) => {
        const rel = item.href ? resolveHref(item.href) : undefined;
        let slug: string;
        if (item.group) {
          const firstChild = item.children.find((c) => c.href)?.href;
          const dir = firstChild ? posix.dirname(joinRepoPath(firstChild)) : ".";
          slug = dir !== "." && !dir.includes("/") ? slugify(dir) : slugify(item.title);
        } else if (rel && (rel === config.readme || (isTop && index === 0 && posix.basename(rel).toLowerCase() === "readme.md" && !rel.includes("/")))) {
          slug = slugify(item.title);
        } else if (rel && posix.basename(rel).toLowerCase() === "readme.md") {
          slug = slugify(posix.basename(posix.dirname(rel)));
        } else if (rel) {
          slug = slugify(posix.basename(rel, posix.extname(rel)));
        } else slug = slugify(item.title);
        const page = pageFrom(rel, item.title, slug);
        if (item.group) {
          page.group = true;
          page.type = "group";
        }
        // An external link, or a link to no file (a folder, a missing file): kept as written, never given a file.
        else if (item.target && (!rel || !inRoot.has(rel))) page.href = item.target;
        else if (item.target) page.target = item.target;
        page.pages = convert(item.children, false);
        return page;
      });
    pages = convert(parseSummary(summary.data.toString("utf8")), true);
  } else {
    pages = fromFolders(inRoot, config, pageFrom);
  }
  let reusableContents: TreeReusableContent[];
  let variables: Record<string, string> = {};
  try {
    reusableContents = readIncludes(inRoot, repoPath);
    const vars = inRoot.get(VARS_FILE);
    if (vars) variables = readVariablesFile(vars.data.toString("utf8"), repoPath(VARS_FILE));
  } catch (err) {
    if (err instanceof ReusableError) throw new LayoutError(err.message);
    throw err;
  }
  return { pages, files: treeFiles, config, hasSummary: !!summary, reusableContents, variables };
}

/** Without SUMMARY.md: README.md first, then every markdown file and folder, by name. */
function fromFolders(
  files: Map<string, SourceFile>,
  config: GitbookConfig,
  pageFrom: (rel: string | undefined, title: string | undefined, slug: string) => TreePage,
): TreePage[] {
  const markdown = [...files.keys()].filter((p) => /\.md$/i.test(p) && !p.startsWith(".gitbook/") && p !== config.summary);
  const level = (dir: string): TreePage[] => {
    const prefix = dir ? `${dir}/` : "";
    const here = markdown.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"));
    const subdirs = [...new Set(markdown.filter((p) => p.startsWith(prefix) && p.slice(prefix.length).includes("/")).map((p) => p.slice(prefix.length).split("/")[0]))];
    const entries: Array<{ name: string; make: () => TreePage }> = [];
    for (const rel of here) {
      if (posix.basename(rel).toLowerCase() === "readme.md") continue;
      entries.push({ name: posix.basename(rel, posix.extname(rel)), make: () => pageFrom(rel, undefined, slugify(posix.basename(rel, posix.extname(rel)))) });
    }
    for (const sub of subdirs) {
      const path = `${prefix}${sub}`;
      entries.push({
        name: sub,
        make: () => {
          const readme = markdown.find((p) => p.toLowerCase() === `${path}/readme.md`.toLowerCase());
          const page = pageFrom(readme, readme ? undefined : sub, slugify(sub));
          page.pages = level(path);
          return page;
        },
      });
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    return entries.map((e) => e.make());
  };
  const pages = level("");
  const readme = markdown.find((p) => p === config.readme) ?? markdown.find((p) => p.toLowerCase() === "readme.md");
  if (readme) {
    const first = pageFrom(readme, undefined, "");
    first.slug = slugify(first.title);
    pages.unshift(first);
  }
  return pages;
}

// Export: see sync-state.ts (planExport), which writes only what changed.

/** Pages in a tree. */
export function countPages(pages: TreePage[]): number {
  return pages.reduce((n, p) => n + 1 + countPages(p.pages), 0);
}

/** A `.gitbook.yaml` redirect resolved to the page its file became (what sites serves). */
export interface ResolvedRedirect {
  /** The key without leading or trailing slashes (`old/setup`). */
  source: string;
  /** The destination as written (a file relative to the content root). */
  file: string;
  pageId: string;
}

/**
 * The redirects whose destination file is a page of the sync (`pages`: page id → repository path),
 * in the file's order. A destination is relative to the content root (`contentDir`, a repository
 * path); a folder (`guide`, `guide/`) means its README.md, a path without extension its `.md` file.
 * Keys that are empty once trimmed of slashes, and destinations that are no page, are left out.
 */
export function resolveRedirects(redirects: Redirect[], contentDir: string, pages: Record<string, { path?: string }>): ResolvedRedirect[] {
  const byPath = new Map<string, string>();
  for (const [id, page] of Object.entries(pages)) if (page.path && !byPath.has(page.path)) byPath.set(page.path, id);
  const out: ResolvedRedirect[] = [];
  for (const { source: key, destination: file } of redirects) {
    const source = key.trim().replace(/^\/+|\/+$/g, "");
    const target = file.trim().split(/[?#]/, 1)[0];
    if (!source || !target || target.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const path = joinRepoPath(contentDir, target);
    if (path.startsWith("../") || path === "..") continue;
    const candidates = [path, joinRepoPath(path, "README.md"), /\.md$/i.test(path) ? "" : `${path}.md`].filter(Boolean);
    const pageId = candidates.map((p) => byPath.get(p)).find((id): id is string => !!id);
    if (pageId) out.push({ source, file, pageId });
  }
  return out;
}
