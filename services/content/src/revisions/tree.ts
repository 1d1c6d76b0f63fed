// The page tree of a revision: apply changes to a copy, keep slugs unique among siblings and paths unique in the revision.
import { slugify as slugifyTitle } from "@docshelf/slugs";
import { posix } from "node:path";
import { BadRequestError } from "@docshelf/errors";
import { newId } from "@docshelf/store";
import { documentIdOf } from "./documents";
import { parseMarkdown } from "./markdown";

export interface PageLayout {
  width: "default" | "wide";
  cover: boolean;
  coverSize: "hero" | "full";
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
}

export interface PageCover {
  ref?: { kind: "file"; file: string } | { kind: "url"; url: string };
  refDark?: { kind: "file"; file: string } | { kind: "url"; url: string };
  yPos: number;
}

export interface GitBlob {
  oid: string;
  path: string;
}

/** GitBook's computed page source; only `builtin:openapi` is evaluated (src/computed.ts). */
export interface PageComputed {
  type: "builtin:openapi";
  dependencies: { spec: { ref: { kind: "openapi"; spec: string } } };
  props: { models: boolean };
}

export interface PageNode {
  id: string;
  /** `group`: GitBook's RevisionPageGroup (a SUMMARY.md `##` heading of a Git-synced space), top level only, no body. */
  type: "document" | "group";
  title: string;
  emoji?: string;
  icon?: string;
  slug: string;
  /** Slugs from the root, joined by "/": unique within the revision. */
  path: string;
  description?: string;
  /** Id of the body in `documents`; absent for an empty page. */
  documentId?: string;
  layout?: PageLayout;
  cover?: PageCover;
  variables?: Record<string, string>;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  git?: GitBlob;
  /** Set on a computed page: its content is produced from this source when read (computed=true). */
  computed?: PageComputed;
  createdAt: string;
  updatedAt: string;
  pages: PageNode[];
}

export interface FileMeta {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes: their name in file storage. */
  sha256: string;
  dimensions?: { width: number; height: number };
  git?: GitBlob;
}

export interface ReusableContentMeta {
  id: string;
  title: string;
  documentId?: string;
  git?: GitBlob;
}

export interface PageFields {
  title?: string;
  emoji?: string | null;
  icon?: string | null;
  slug?: string;
  description?: string | null;
  markdown?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: Partial<PageLayout>;
  cover?: PageCover | null;
  variables?: Record<string, string>;
  computed?: (Omit<PageComputed, "props"> & { props?: { models?: boolean } }) | null;
}

export type Change =
  /** `pageType: "group"`: GitBook's page group (top level only, no content); a document page otherwise. */
  | ({ type: "insert_page"; id?: string; parent?: string | null; position?: number; pageType?: PageNode["type"] } & PageFields)
  | ({ type: "update_page"; page: string; parent?: string | null; position?: number } & PageFields)
  | { type: "delete_page"; page: string }
  | { type: "insert_file"; id?: string; name: string; contentType: string; size: number; sha256: string; dimensions?: { width: number; height: number } }
  | { type: "delete_file"; file: string }
  | { type: "set_variables"; variables: Record<string, string> }
  | { type: "upsert_reusable_content"; id?: string; title: string; markdown: string }
  | { type: "delete_reusable_content"; id: string };

export interface RevisionContent {
  pages: PageNode[];
  files: FileMeta[];
  reusableContents: ReusableContentMeta[];
  variables: Record<string, string>;
}

export interface AppliedChanges extends RevisionContent {
  /** New bodies by document id, to store before the revision is. */
  documents: Map<string, string>;
  /** Ids of inserted pages, in the order of the changes. */
  inserted: string[];
}

export const DEFAULT_LAYOUT: PageLayout = {
  width: "default",
  cover: true,
  coverSize: "hero",
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

/** A URL-safe slug of a title: lower-case words joined by "-". */
export function slugify(title: string): string {
  return slugifyTitle(title, 100, "page");
}

export function* walk(pages: PageNode[], parent: PageNode | null = null): Generator<{ page: PageNode; parent: PageNode | null }> {
  for (const page of pages) {
    yield { page, parent };
    yield* walk(page.pages, page);
  }
}

export function countPages(pages: PageNode[]): number {
  let n = 0;
  for (const _ of walk(pages)) n++;
  return n;
}

export function findPage(pages: PageNode[], id: string): PageNode | undefined {
  for (const { page } of walk(pages)) if (page.id === id) return page;
  return undefined;
}

export function findPageByPath(pages: PageNode[], path: string): PageNode | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, "");
  for (const { page } of walk(pages)) if (page.path === wanted) return page;
  return undefined;
}

/** Makes slugs unique among siblings (earlier pages keep theirs) and recomputes every path. */
export function normalizePaths(pages: PageNode[], prefix = ""): void {
  const taken = new Set<string>();
  for (const page of pages) {
    let slug = page.slug || slugify(page.title);
    for (let n = 2; taken.has(slug); n++) slug = `${page.slug || slugify(page.title)}-${n}`;
    taken.add(slug);
    page.slug = slug;
    page.path = prefix ? `${prefix}/${slug}` : slug;
    normalizePaths(page.pages, page.path);
  }
}

interface Located {
  page: PageNode;
  siblings: PageNode[];
}

function locate(pages: PageNode[], id: string): Located | undefined {
  for (const page of pages) {
    if (page.id === id) return { page, siblings: pages };
    const inner = locate(page.pages, id);
    if (inner) return inner;
  }
  return undefined;
}

function childrenOf(pages: PageNode[], parent: string | null | undefined): PageNode[] {
  if (!parent) return pages;
  const found = locate(pages, parent);
  if (!found) throw new BadRequestError(`Invalid parameters: 'parent': page ${parent} does not exist in the revision.`);
  return found.page.pages;
}

function insertAt(list: PageNode[], page: PageNode, position: number | undefined): void {
  const at = position === undefined ? list.length : Math.max(0, Math.min(position, list.length));
  list.splice(at, 0, page);
}

/** Applies `fields` to `page`; markdown sets the body and, unless given explicitly, title and description. */
function applyFields(page: PageNode, fields: PageFields, documents: Map<string, string>, now: string): void {
  if (fields.markdown !== undefined) {
    const parsed = parseMarkdown(fields.markdown);
    if (parsed.title && fields.title === undefined) page.title = parsed.title.slice(0, 256);
    if (parsed.description !== undefined && fields.description === undefined) page.description = parsed.description;
    if (parsed.body.trim()) {
      const id = documentIdOf(parsed.body);
      documents.set(id, parsed.body);
      page.documentId = id;
    } else delete page.documentId;
  }
  if (fields.title !== undefined) page.title = fields.title;
  for (const key of ["emoji", "icon", "description"] as const) {
    const value = fields[key];
    if (value === null) delete page[key];
    else if (value !== undefined) page[key] = value;
  }
  if (fields.slug !== undefined) page.slug = fields.slug;
  for (const flag of ["hidden", "noIndex", "noRobotsIndex"] as const) if (fields[flag] !== undefined) page[flag] = fields[flag];
  if (fields.layout !== undefined) page.layout = { ...DEFAULT_LAYOUT, ...page.layout, ...fields.layout };
  if (fields.cover === null) delete page.cover;
  else if (fields.cover !== undefined) page.cover = fields.cover;
  if (fields.variables !== undefined) page.variables = { ...fields.variables };
  if (fields.computed === null) delete page.computed;
  else if (fields.computed !== undefined) page.computed = { type: fields.computed.type, dependencies: structuredClone(fields.computed.dependencies), props: { models: fields.computed.props?.models === true } };
  page.updatedAt = now;
}

/** A batch being applied: the copy of the base it changes, and what it collected so far. */
interface Applying {
  content: RevisionContent;
  documents: Map<string, string>;
  inserted: string[];
  pageIds: Set<string>;
  now: string;
}

function startApplying(base: RevisionContent, now: string): Applying {
  const content: RevisionContent = structuredClone(base);
  const pageIds = new Set<string>();
  for (const { page } of walk(content.pages)) pageIds.add(page.id);
  return { content, documents: new Map(), inserted: [], pageIds, now };
}

function finishApplying({ content, documents, inserted }: Applying): AppliedChanges {
  normalizePaths(content.pages);
  return { ...content, documents, inserted };
}

/**
 * Applies `changes` in order to a copy of `base` (which is never modified). Any invalid change
 * throws BadRequestError before anything is stored, so a batch is all or nothing.
 */
export function applyChanges(base: RevisionContent, changes: Change[], now: string): AppliedChanges {
  const applying = startApplying(base, now);
  changes.forEach((change, index) => applyChange(applying, change, index));
  return finishApplying(applying);
}

/**
 * Work of one turn of the event loop while a batch is applied in turns: changes weigh their Markdown's
 * length (parsed and hashed) plus a fixed cost for the tree walk each does.
 */
export const APPLY_TURN_WEIGHT = 512 * 1024;
const CHANGE_WEIGHT = 2048;

/**
 * applyChanges, giving the event loop a turn (setImmediate) after each APPLY_TURN_WEIGHT of work, so a
 * large batch (an import's megabytes of Markdown, thousands of changes) never holds the process: other
 * requests are answered between its chunks. Nothing is stored and `base` is never modified, so the
 * batch stays all or nothing; the caller's compare-and-swap of the space's revision catches a writer
 * that moved the space meanwhile.
 */
export async function applyChangesInTurns(base: RevisionContent, changes: Change[], now: string, turnWeight = APPLY_TURN_WEIGHT): Promise<AppliedChanges> {
  const applying = startApplying(base, now);
  let weight = 0;
  for (const [index, change] of changes.entries()) {
    applyChange(applying, change, index);
    weight += CHANGE_WEIGHT + ("markdown" in change && typeof change.markdown === "string" ? change.markdown.length : 0);
    if (weight >= turnWeight) {
      weight = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return finishApplying(applying);
}

/** GitBook's page groups are top-level headings of the tree: no parent, no content (a title, an emoji or icon, the pages under them). */
function checkGroup(change: { parent?: string | null; markdown?: string }, where: string): void {
  if (change.parent) throw new BadRequestError(`Invalid parameters: '${where}.parent': a page group stays at the top level.`);
  if (change.markdown !== undefined && parseMarkdown(change.markdown).body.trim()) throw new BadRequestError(`Invalid parameters: '${where}.markdown': a page group has no content.`);
}

function applyChange(applying: Applying, change: Change, index: number): void {
  const { content, documents, inserted, pageIds, now } = applying;
  const where = `changes[${index}]`;
  switch (change.type) {
    case "insert_page": {
      const id = change.id ?? newId();
      if (pageIds.has(id)) throw new BadRequestError(`Invalid parameters: '${where}.id': page ${id} already exists.`);
      const type = change.pageType ?? "document";
      if (type === "group") checkGroup(change, where);
      const page: PageNode = { id, type, title: "Untitled", slug: "", path: "", createdAt: now, updatedAt: now, pages: [] };
      applyFields(page, change, documents, now);
      if (!change.slug) page.slug = slugify(page.title);
      insertAt(childrenOf(content.pages, change.parent), page, change.position);
      pageIds.add(id);
      inserted.push(id);
      break;
    }
    case "update_page": {
      const found = locate(content.pages, change.page);
      if (!found) throw new BadRequestError(`Invalid parameters: '${where}.page': page ${change.page} does not exist in the revision.`);
      if (found.page.type === "group") checkGroup(change, where);
      applyFields(found.page, change, documents, now);
      if (change.parent !== undefined || change.position !== undefined) {
        if (change.parent && (change.parent === found.page.id || locate(found.page.pages, change.parent))) {
          throw new BadRequestError(`Invalid parameters: '${where}.parent': a page cannot move inside itself.`);
        }
        found.siblings.splice(found.siblings.indexOf(found.page), 1);
        const target = change.parent === undefined ? found.siblings : childrenOf(content.pages, change.parent);
        insertAt(target, found.page, change.position);
      }
      break;
    }
    case "delete_page": {
      const found = locate(content.pages, change.page);
      if (!found) break; // deleting what is not there changes nothing
      found.siblings.splice(found.siblings.indexOf(found.page), 1);
      for (const { page } of walk([found.page])) pageIds.delete(page.id);
      break;
    }
    case "insert_file": {
      const id = change.id ?? newId();
      if (content.files.some((f) => f.id === id)) throw new BadRequestError(`Invalid parameters: '${where}.id': file ${id} already exists.`);
      const file: FileMeta = { id, name: change.name, contentType: change.contentType, size: change.size, sha256: change.sha256 };
      if (change.dimensions) file.dimensions = change.dimensions;
      content.files.push(file);
      break;
    }
    case "delete_file":
      content.files = content.files.filter((f) => f.id !== change.file);
      break;
    case "set_variables":
      content.variables = { ...content.variables, ...change.variables };
      break;
    case "upsert_reusable_content": {
      const id = change.id ?? newId();
      const documentId = documentIdOf(change.markdown);
      documents.set(documentId, change.markdown);
      const entry: ReusableContentMeta = { id, title: change.title, documentId };
      const at = content.reusableContents.findIndex((r) => r.id === id);
      // An edit keeps the file it was imported from (Git sync writes it back there).
      const git = at >= 0 ? content.reusableContents[at].git : undefined;
      if (git) entry.git = git;
      if (at >= 0) content.reusableContents[at] = entry;
      else content.reusableContents.push(entry);
      break;
    }
    case "delete_reusable_content":
      content.reusableContents = content.reusableContents.filter((r) => r.id !== change.id);
      break;
  }
}

/** Resolves a link written in the page at `fromPath` (relative, `./x.md`, `../y/README.md`, `/z`) to a page path. */
export function resolveLinkPath(fromPath: string, href: string): string {
  const clean = decodeURIComponent(href.split("#")[0].split("?")[0]);
  const dir = posix.dirname(fromPath === "" ? "x" : fromPath);
  const joined = clean.startsWith("/") ? posix.normalize(clean) : posix.join(dir === "." ? "" : dir, clean);
  return joined
    .replace(/^\/+|\/+$/g, "")
    .replace(/(^|\/)README\.md$/i, "")
    .replace(/\.md$/i, "");
}

/**
 * Changes that add pages given by path ("guides/install") under the tree's root, nesting each under
 * the page of its parent path: an existing page of the tree, one added by these changes, or an empty
 * page made for the missing level. For importers (website import, Git sync).
 */
export function changesForPaths(existing: PageNode[], pages: Array<{ title: string; path: string; markdown: string }>): Change[] {
  const byPath = new Map<string, string>();
  for (const { page } of walk(existing)) byPath.set(page.path, page.id);
  const changes: Change[] = [];
  const ensure = (path: string, title: string, markdown?: string): string => {
    const known = byPath.get(path);
    if (known) {
      if (markdown !== undefined) changes.push({ type: "update_page", page: known, title, markdown });
      return known;
    }
    const cut = path.lastIndexOf("/");
    const parent = cut > 0 ? ensure(path.slice(0, cut), path.slice(0, cut).split("/").pop() ?? "Untitled") : null;
    const id = newId();
    const slug = slugify(path.slice(cut + 1));
    changes.push({ type: "insert_page", id, parent, title, slug, ...(markdown !== undefined ? { markdown } : {}) });
    byPath.set(path, id);
    return id;
  };
  const sorted = [...pages].sort((a, b) => a.path.split("/").length - b.path.split("/").length);
  for (const page of sorted) {
    const path = page.path.replace(/^\/+|\/+$/g, "") || "index";
    ensure(path, page.title || "Untitled", page.markdown);
  }
  return changes;
}
