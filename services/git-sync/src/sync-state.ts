// Faithful exports: which repository file each page and file of the space maps to, and what an
// export has to write or delete so that only what changed in the space changes in the repository.
// An unchanged page keeps its blob (not a byte differs), a changed one keeps its front matter and
// heading as written when their values did not change, and nothing the space did not import or
// write is ever deleted.
import { splitFrontMatter } from "@docshelf/document";
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { Document, isMap, parseDocument } from "yaml";
import { linksFromTree } from "./file-refs";
import { ASSETS_DIR, LEADING_HEADING, readPageFile, slugify, writePageFile, type GitbookConfig, type TreeFile, type TreePage } from "./layout";
import type { PageSync, SyncState } from "./models";
import { joinRepoPath, unsafePathReason } from "./paths";
import { samePageVariables } from "./reusable";
import { buildSummary, type SummaryItem } from "./summary";

/**
 * Content's view of a page body an import sent: content drops a front matter block and the leading
 * `# heading` (the title) itself, then one blank line (services/content revisions/markdown.ts
 * parseMarkdown), and keeps no body made of blanks.
 */
export function contentBody(markdown: string): string {
  let rest = markdown;
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(rest);
  if (fm) rest = rest.slice(fm[0].length);
  const heading = LEADING_HEADING.exec(rest);
  if (heading) rest = rest.slice(heading[0].length).replace(/^\s*\n/, "");
  return rest.trim() ? rest : "";
}

/** What the import knew about a page beyond what content keeps (parallel to the imported tree). */
export interface ImportedPage {
  group?: boolean;
  href?: string;
  target?: string;
  pages: ImportedPage[];
}

function hash(value: unknown): string {
  return createHash("sha1").update(JSON.stringify(value)).digest("hex");
}

function metaOf(page: TreePage): unknown {
  const meta: unknown[] = [page.description ?? "", page.icon ?? "", page.hidden ? 1 : 0, page.cover ?? null];
  // Only when there are some, so that states recorded before page variables keep their fingerprints.
  if (page.variables && Object.keys(page.variables).length) meta.push(page.variables);
  return meta;
}

/** Fingerprint of what an export writes for a page. */
export function pageFingerprint(page: TreePage): string {
  return hash([page.title, page.emoji ?? "", page.markdown, metaOf(page)]);
}

/** Git's blob id of some bytes. */
export function gitBlobOid(data: Buffer): string {
  return createHash("sha1").update(`blob ${data.length}\0`).update(data).digest("hex");
}

interface Placed {
  page: TreePage;
  id: string;
  parent: string | null;
}

/** Pages in tree order with their parent; a page without an id (a tree not from content) gets a local one. */
function walk(pages: TreePage[], parent: string | null, out: Placed[] = []): Placed[] {
  for (const page of pages) {
    const id = page.id ?? `#${out.length}`;
    out.push({ page, id, parent });
    walk(page.pages, id, out);
  }
  return out;
}

/** The SUMMARY.md text of a tree whose pages are placed (paths relative to the repository). */
function summaryText(pages: TreePage[], placed: Map<string, PageSync>, config: GitbookConfig, contentDir: string, idOf: (page: TreePage) => string = (p) => p.id ?? ""): string {
  const summaryDir = posix.dirname(joinRepoPath(contentDir, config.summary));
  const item = (page: TreePage): SummaryItem => {
    const sync = placed.get(idOf(page));
    const entry: SummaryItem = { title: page.title, children: page.pages.map(item) };
    if (sync?.group) entry.group = true;
    else if (sync?.href) entry.target = sync.href;
    else if (sync?.path && sync.link) entry.target = sync.link;
    else if (sync?.path) entry.href = posix.relative(summaryDir === "." ? "" : summaryDir, sync.path);
    return entry;
  };
  return buildSummary(pages.map(item));
}

/** Where a sync state's files come from: the repository, branch, commit and directories. */
export interface StateSource {
  contentDir: string;
  url: string;
  ref: string;
  projectDir: string;
  commit: string;
}

/** The sync state right after an import: content's view of each page (snapshot) beside what the import read. */
export function stateAfterImport(input: {
  snapshot: { pages: TreePage[]; files: TreeFile[]; reusableContents?: Array<{ id?: string; git?: { path: string } }> };
  imported: ImportedPage[];
  config: GitbookConfig;
  /** Whether the repository had a SUMMARY.md (ReadResult.hasSummary); absent counts as yes. */
  hasSummary?: boolean;
} & StateSource): SyncState {
  const pages: Record<string, PageSync> = {};
  const visit = (snap: TreePage[], imp: ImportedPage[], parent: string | null) => {
    snap.forEach((page, i) => {
      const info = imp[i];
      const sync: PageSync = { parent, slug: page.slug, title: page.title, fp: pageFingerprint(page), meta: hash(metaOf(page)) };
      if (page.git?.path) sync.path = page.git.path;
      if (info?.group || page.type === "group") {
        sync.group = true;
        const child = page.pages.find((c) => c.git?.path)?.git?.path;
        sync.dir = child ? posix.dirname(child) : joinRepoPath(input.contentDir, slugify(page.slug || page.title));
        if (sync.dir === ".") sync.dir = "";
      }
      if (info?.href) sync.href = info.href;
      else if (info?.target && sync.path) sync.link = info.target;
      else if (!sync.path && !sync.group) sync.plain = true;
      if (page.id) pages[page.id] = sync;
      visit(page.pages, info?.pages ?? [], page.id ?? null);
    });
  };
  visit(input.snapshot.pages, input.imported, null);
  const files: SyncState["files"] = {};
  for (const file of input.snapshot.files) if (file.git?.path) files[file.id] = { path: file.git.path, name: file.name, ...(file.sha256 ? { sha256: file.sha256 } : {}) };
  const placed = new Map(Object.entries(pages));
  const reusable: NonNullable<SyncState["reusable"]> = {};
  for (const r of input.snapshot.reusableContents ?? []) if (r.id && r.git?.path) reusable[r.id] = { path: r.git.path };
  return {
    url: input.url,
    ref: input.ref,
    projectDir: input.projectDir,
    commit: input.commit,
    pages,
    files,
    summary: hash(summaryText(input.snapshot.pages, placed, input.config, input.contentDir)),
    ...(input.hasSummary === false ? { noSummary: true } : {}),
    ...(Object.keys(reusable).length ? { reusable } : {}),
  };
}

/**
 * A sync state rebuilt from a commit when the space has none for the repository (a space whose import
 * failed half way, a lost state, a space first exported to a repository it was imported from under
 * another link): the repository's layout read as an import would (`layout`), matched to the space's pages
 * by the file each page says it came from (`page.git.path`), and to groups and link-only entries by
 * title under the same parent. A page that matches and did not change gives back its file byte for
 * byte; `derived` makes the export delete nothing.
 */
export function deriveState(input: {
  snapshot: { pages: TreePage[]; files: TreeFile[] };
  layout: { pages: TreePage[]; files: TreeFile[]; config: GitbookConfig; hasSummary?: boolean };
} & StateSource): SyncState {
  // Every page of the space by the file it came from, in tree order (SUMMARY.md may link one file twice).
  const byPath = new Map<string, TreePage[]>();
  const visitSnap = (pages: TreePage[]) => {
    for (const page of pages) {
      if (page.id && page.git?.path) byPath.set(page.git.path, [...(byPath.get(page.git.path) ?? []), page]);
      visitSnap(page.pages);
    }
  };
  visitSnap(input.snapshot.pages);
  // The layout's files by path, to give covers the space's file ids.
  const fileIdByPath = new Map(input.snapshot.files.filter((f) => f.git?.path).map((f) => [f.git!.path, f.id]));
  const layoutFilePath = new Map(input.layout.files.map((f) => [f.id, f.git?.path ?? ""]));
  const used = new Set<string>();
  let unmatched = 0;
  const convert = (pages: TreePage[], snapSiblings: TreePage[]): TreePage[] =>
    pages.map((page) => {
      let match = page.git?.path ? byPath.get(page.git.path)?.find((s) => !used.has(s.id!)) : undefined;
      if (!match && !page.git?.path) match = snapSiblings.find((s) => s.id && !used.has(s.id) && !s.git?.path && s.title === page.title);
      if (match?.id && used.has(match.id)) match = undefined;
      if (match?.id) used.add(match.id);
      const view: TreePage = { id: match?.id ?? `#derived-${unmatched++}`, title: page.title, slug: match?.slug ?? page.slug, markdown: contentBody(page.markdown), pages: [] };
      if (page.type === "group") view.type = "group";
      if (page.description) view.description = page.description;
      if (page.icon) view.icon = page.icon;
      if (page.hidden) view.hidden = true;
      if (match?.emoji) view.emoji = match.emoji;
      if (page.cover) {
        const ref = page.cover.ref;
        if (ref?.kind === "file") {
          const id = fileIdByPath.get(layoutFilePath.get(ref.file) ?? "");
          if (id) view.cover = { ref: { kind: "file", file: id }, yPos: page.cover.yPos };
        } else view.cover = page.cover;
      }
      if (page.git) view.git = page.git;
      view.pages = convert(page.pages, match?.pages ?? []);
      return view;
    });
  const pages = convert(input.layout.pages, input.snapshot.pages);
  const inBase = new Set(input.layout.files.map((f) => f.git?.path).filter(Boolean));
  const state = stateAfterImport({
    snapshot: { pages, files: input.snapshot.files.filter((f) => f.git?.path && inBase.has(f.git.path)) },
    imported: input.layout.pages,
    config: input.layout.config,
    ...(input.layout.hasSummary === false ? { hasSummary: false } : {}),
    contentDir: input.contentDir,
    url: input.url,
    ref: input.ref,
    projectDir: input.projectDir,
    commit: input.commit,
  });
  // Entries of the repository that are no page of the space counted for SUMMARY.md's hash only.
  for (const id of Object.keys(state.pages)) if (id.startsWith("#")) delete state.pages[id];
  state.derived = true;
  return state;
}

export interface HeadEntry {
  oid: string;
  mode: string;
  type: "blob" | "commit";
}

export interface PlanInput {
  pages: TreePage[];
  files: TreeFile[];
  /** Files known unchanged since the last sync (same SHA-256, name and path): their bytes are not needed. */
  unchangedFiles?: Set<string>;
  config: GitbookConfig;
  /** Repository path of the content root. */
  contentDir: string;
  /** The state of the last sync with this repository, if any. */
  state?: SyncState;
  /** The base commit's files by repository path. */
  head: Map<string, HeadEntry>;
  /** A text file of the base commit. */
  readText(path: string): Promise<string | undefined>;
  treeURL?: string;
}

export interface Plan {
  /** Files to write, by repository path. */
  writes: Map<string, Buffer>;
  /** Repository paths to remove (only files the space imported or wrote). */
  deletes: Set<string>;
  /** The state after this export (commit filled in by the caller). */
  pages: Record<string, PageSync>;
  files: SyncState["files"];
  summary: string;
  /** No SUMMARY.md was written and the repository has none. */
  noSummary?: boolean;
}

/**
 * A changed page's new text, written over its previous file: front matter kept as written when its
 * values did not change (else only the changed keys are set), the heading kept unless the title
 * changed, the body replaced.
 */
export function composePage(original: string, page: TreePage, previous: PageSync | undefined, coverPath: string | undefined, markdown: string): string {
  const bom = original.startsWith("\uFEFF") ? "\uFEFF" : "";
  const source = original.slice(bom.length);
  // Front matter as the import reads it (readPageFile), kept byte for byte when its values did not change.
  const split = splitFrontMatter(source);
  const fm = split.block !== null && source.startsWith(split.block) ? { block: split.block, raw: split.raw ?? "" } : null;
  let head = fm ? fm.block : "";
  const sameMeta = previous && previous.meta === hash(metaOf(page));
  if (!sameMeta) {
    const parsed = fm ? parseDocument(fm.raw) : null;
    const doc: Document = parsed && isMap(parsed.contents) ? parsed : new Document({});
    const set = (key: string, value: unknown) => {
      if (value === undefined) doc.delete(key);
      else doc.set(key, value);
    };
    const before = readPageFile(original);
    if ((before.description ?? "") !== (page.description ?? "")) set("description", page.description || undefined);
    if ((before.icon ?? "") !== (page.icon ?? "")) set("icon", page.icon || undefined);
    if (!!before.hidden !== !!page.hidden) set("hidden", page.hidden ? true : undefined);
    if (!samePageVariables(before.variables, page.variables)) set("vars", page.variables && Object.keys(page.variables).length ? { ...page.variables } : undefined);
    set("cover", coverPath);
    set("coverY", coverPath ? (page.cover?.yPos ?? 0) : undefined);
    const text = doc.contents && (doc.contents as { items?: unknown[] }).items?.length ? doc.toString({ lineWidth: 0 }) : "";
    const eol = fm && /\r\n/.test(fm.block) ? "\r\n" : "\n";
    head = text ? `---${eol}${text.replace(/\n$/, "").replace(/\r?\n/g, eol)}${eol}---${eol}` : "";
    if (head && !fm) head += eol;
  }
  const rest = fm ? source.slice(fm.block.length) : source;
  // Mirrors the import: leading blank lines, then content takes a leading `# heading` as the title.
  const lead = /^(\r?\n)*/.exec(rest)![0];
  const afterLead = rest.slice(lead.length);
  const heading = LEADING_HEADING.exec(afterLead);
  let prefix = lead;
  if (heading) {
    const after = afterLead.slice(heading[0].length);
    const gap = /^\s*\n/.exec(after)?.[0] ?? "";
    // The file's heading and the page's title are independent: a retitled page rewrites the heading only
    // when the heading said the old title; a heading of its own (a singular `# Guide` under a plural
    // SUMMARY.md entry) stays as written.
    const keepHeading = !!previous && (previous.title === page.title || heading[1].trim() !== previous.title);
    const eol = /\r\n$/.test(heading[0]) ? "\r\n" : heading[0].endsWith("\n") ? "\n" : "\n";
    prefix += keepHeading ? heading[0] + gap : `# ${page.title.replace(/\r?\n/g, " ")}${eol}${gap || "\n"}`;
  } else if (previous && previous.title !== page.title && !fm) {
    prefix += `# ${page.title.replace(/\r?\n/g, " ")}\n\n`;
  }
  return `${bom}${head}${prefix}${markdown}`;
}

/** What an export writes and deletes, and the state it leaves. */
export async function planExport(input: PlanInput): Promise<Plan> {
  const { state, head, contentDir, config } = input;
  const writes = new Map<string, Buffer>();
  const deletes = new Set<string>();
  const taken = new Set<string>([...head.keys()].map((p) => p.toLowerCase()));
  const claimed = new Set<string>();
  const claim = (path: string): string => {
    let candidate = path;
    const ext = posix.extname(path);
    for (let n = 2; claimed.has(candidate.toLowerCase()) || (taken.has(candidate.toLowerCase()) && !ownedBefore.has(candidate)); n++) {
      candidate = `${path.slice(0, path.length - ext.length)}-${n}${ext}`;
    }
    claimed.add(candidate.toLowerCase());
    return candidate;
  };
  // Paths the space owned at its last sync: the only ones it may overwrite or delete.
  const ownedBefore = new Set<string>();
  if (state) {
    for (const p of Object.values(state.pages)) if (p.path) ownedBefore.add(p.path);
    for (const f of Object.values(state.files)) ownedBefore.add(f.path);
  } else {
    // No record of this repository: only the files the space's pages and files say they came from may be
    // written over (never deleted); every other file of the branch is left alone.
    const visit = (pages: TreePage[]) => {
      for (const page of pages) {
        if (page.git?.path && head.has(page.git.path)) ownedBefore.add(page.git.path);
        visit(page.pages);
      }
    };
    visit(input.pages);
    for (const file of input.files) if (file.git?.path && head.has(file.git.path)) ownedBefore.add(file.git.path);
  }
  // A state rebuilt from the branch (deriveState) is no record of what the space wrote: nothing is deleted.
  const mayDelete = !!state && !state.derived;
  const summaryPath = joinRepoPath(contentDir, config.summary);
  claimed.add(summaryPath.toLowerCase());
  claimed.add(joinRepoPath(contentDir, ".gitbook.yaml").toLowerCase());

  // Files first: pages' covers point at them.
  const files: SyncState["files"] = {};
  const fileNames = new Set<string>();
  const assetPath = new Map<string, string>();
  const keptFiles: TreeFile[] = [];
  const newFiles: TreeFile[] = [];
  for (const file of input.files) {
    const before = state?.files[file.id];
    const path = before && before.name === file.name ? before.path : !state && file.git?.path && posix.basename(file.git.path) === file.name ? file.git.path : undefined;
    if (path) {
      keptFiles.push(file);
      assetPath.set(file.id, path);
      claimed.add(path.toLowerCase());
    } else newFiles.push(file);
  }
  for (const file of newFiles) {
    let name = file.name.replace(/[/\\\0]/g, "_") || "file";
    if (unsafePathReason(name)) name = `_${name}`;
    const path = claim(joinRepoPath(contentDir, ASSETS_DIR, name));
    assetPath.set(file.id, path);
  }
  for (const file of input.files) {
    const path = assetPath.get(file.id)!;
    files[file.id] = { path, name: file.name, ...(file.sha256 ? { sha256: file.sha256 } : {}) };
    fileNames.add(path);
    if (input.unchangedFiles?.has(file.id) && head.has(path)) continue;
    const data = Buffer.from(file.data, "base64");
    if (head.get(path)?.oid !== gitBlobOid(data)) writes.set(path, data);
  }
  if (state && mayDelete) {
    for (const [id, before] of Object.entries(state.files)) {
      if (!files[id] && !fileNames.has(before.path) && head.has(before.path)) deletes.add(before.path);
      if (files[id] && files[id].path !== before.path && head.has(before.path) && !fileNames.has(before.path)) deletes.add(before.path);
    }
  }

  // Pages: keep the path of an unmoved page, place new or moved ones by the layout's rules.
  const placed = walk(input.pages, null);
  const syncs = new Map<string, PageSync>();
  const isFirst = (p: Placed) => p.parent === null && input.pages[0] === p.page;
  // Reserve the paths pages keep, so new pages never take them.
  for (const p of placed) {
    const before = state?.pages[p.id];
    if (before?.path && before.parent === p.parent && before.slug === p.page.slug) claimed.add(before.path.toLowerCase());
    else if (!state && p.page.git?.path) claimed.add(p.page.git.path.toLowerCase());
  }
  const dirOf = (parentId: string | null): string => {
    if (parentId === null) return contentDir;
    const parent = syncs.get(parentId)!;
    if (parent.group) return parent.dir ?? contentDir;
    if (!parent.path) return joinRepoPath(contentDir, parent.slug);
    if (posix.basename(parent.path).toLowerCase() === "readme.md") return posix.dirname(parent.path) === "." ? "" : posix.dirname(parent.path);
    return parent.path.replace(/\.md$/i, "");
  };
  for (const p of placed) {
    const { page } = p;
    const before = state?.pages[p.id];
    const sync: PageSync = { parent: p.parent, slug: page.slug, title: page.title, fp: pageFingerprint(page), meta: hash(metaOf(page)) };
    syncs.set(p.id, sync);
    if (before?.group || (page.type === "group" && p.parent === null) || (!before && p.parent === null && !isFirst(p) && isGroup(page))) {
      sync.group = true;
      sync.dir = before?.dir ?? joinRepoPath(contentDir, slugify(page.slug || page.title));
      continue;
    }
    // A link to no file (external, or a missing file) stays the link, with or without children, until the page gets a body.
    if (before?.href && !page.markdown.trim() && before.meta === sync.meta) {
      sync.href = before.href;
      continue;
    }
    // A SUMMARY.md item without a link stays one until it gets a body or metadata of its own.
    if (before?.plain && !page.markdown.trim() && before.meta === sync.meta) {
      sync.plain = true;
      continue;
    }
    let path: string;
    if (before?.path && before.parent === p.parent && before.slug === page.slug) {
      path = before.path;
      if (before.link) sync.link = before.link;
    }
    else if (!state && page.git?.path) path = page.git.path;
    else if (isFirst(p)) path = claim(joinRepoPath(contentDir, config.readme));
    else {
      const slug = slugify(page.slug || page.title);
      const dir = dirOf(p.parent);
      path = claim(joinRepoPath(dir, page.pages.length ? `${slug}/README.md` : `${slug}.md`));
    }
    sync.path = path;
    const unchanged = before && before.path === path && before.fp === sync.fp && head.has(path);
    if (unchanged) continue;
    let coverPath: string | undefined;
    const ref = page.cover?.ref;
    if (ref?.kind === "url") coverPath = ref.url;
    else if (ref?.kind === "file" && assetPath.has(ref.file)) coverPath = posix.relative(posix.dirname(path), assetPath.get(ref.file)!);
    const markdown = input.treeURL ? linksFromTree(page.markdown, path, input.treeURL) : page.markdown;
    const originalPath = before?.path ?? (!state ? page.git?.path : undefined);
    const original = originalPath && head.has(originalPath) ? await input.readText(originalPath) : undefined;
    const text = original !== undefined ? composePage(original, page, before, coverPath, markdown) : writePageFile({ ...page, markdown }, coverPath);
    writes.set(path, Buffer.from(text, "utf8"));
  }
  const written = new Set([...syncs.values()].flatMap((s) => (s.path ? [s.path] : [])));
  if (state && mayDelete) {
    for (const [id, before] of Object.entries(state.pages)) {
      if (!before.path || written.has(before.path) || !head.has(before.path)) continue;
      const now = syncs.get(id);
      if (!now || now.path !== before.path) deletes.add(before.path);
    }
  }

  const ids = new Map(placed.map((p) => [p.page, p.id]));
  const text = summaryText(input.pages, syncs, config, contentDir, (page) => ids.get(page) ?? "");
  const summary = hash(text);
  // A repository without SUMMARY.md (the tree from its folders) gets one only when the tree changes.
  const keepNoSummary = !!state?.noSummary && state.summary === summary && !head.has(summaryPath);
  if (!keepNoSummary && (!state || state.summary !== summary || !head.has(summaryPath))) {
    // SUMMARY.md's own `#` title line is kept as written (GitBook ignores it; the export does not recase it).
    const original = head.has(summaryPath) ? await input.readText(summaryPath) : undefined;
    writes.set(summaryPath, Buffer.from(original === undefined ? text : withSummaryTitle(text, original), "utf8"));
  }
  const pages: Record<string, PageSync> = {};
  for (const [id, sync] of syncs) if (!id.startsWith("#")) pages[id] = sync;
  return { writes, deletes, pages, files, summary, ...(keepNoSummary ? { noSummary: true } : {}) };
}

/** A generated SUMMARY.md with the title line of the file it replaces (its first `# …` line before any entry), if it has one. */
export function withSummaryTitle(generated: string, original: string): string {
  const lines = original.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const line of lines) {
    if (/^#\s/.test(line)) return generated.replace(/^# [^\n]*/, line.trimEnd());
    if (/^\s*([*+-]\s|#{2,6}\s)/.test(line)) break;
  }
  return generated;
}

/** A new top-level page with children and nothing of its own is written as a `##` group. */
function isGroup(page: TreePage): boolean {
  return page.pages.length > 0 && !page.markdown.trim() && !page.description && !page.icon && !page.hidden && !page.cover;
}
