// GitBook's updateChangeRequestContent changes, checked and turned into the content service's changes.
import { posix } from "node:path";
import { Validators } from "moleculer";
import { checkDocument, documentToMarkdown, DocumentError, type ContentRef, type JSONDocument } from "@docshelf/document";
import { BadRequestError, describeValidation } from "@docshelf/errors";
import type { TreeContent, TreePage } from "./merge";

export const MAX_CHANGES = 50;
/** GitBook's limit for one inline file. */
export const MAX_INLINE_FILE_BYTES = 1024 * 1024;

/** The content service's change shapes this module produces (see content's change-rules.ts). */
export type ContentChange =
  | ({ type: "insert_page"; id?: string; parent?: string | null; position?: number; pageType?: "group" } & PageFields)
  | ({ type: "update_page"; page: string; parent?: string | null; position?: number } & PageFields)
  | { type: "delete_page"; page: string }
  | { type: "insert_file"; id?: string; name: string; contentType: string; data: string };

interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string | null;
  icon?: string | null;
  description?: string | null;
  markdown?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: unknown;
  cover?: unknown;
}

export interface RevertChange {
  operation: "revert_page";
  page: string;
  revision?: string;
  block?: string[];
}

/** What a change asked for, for the `compat=false` answer. */
export interface Touched {
  kind: "created_page" | "updated_page" | "deleted_page";
  page?: string;
  ref?: string;
}

const meta = {
  title: { type: "string", min: 1, max: 256, optional: true },
  slug: { type: "string", max: 100, optional: true, pattern: /^([a-z0-9][a-z0-9-]*)?$/, messages: { stringPattern: "The '{field}' field may contain only lower-case letters, digits and hyphens." } },
  emoji: { type: "string", max: 50, optional: true },
  icon: { type: "string", max: 50, optional: true },
  description: { type: "string", max: 1000, optional: true },
  hidden: { type: "boolean", optional: true },
  noIndex: { type: "boolean", optional: true },
  noRobotsIndex: { type: "boolean", optional: true },
  condition: { type: "string", max: 1000, optional: true },
};
const document = {
  type: "object",
  props: { markdown: { type: "string", max: 1024 * 1024, optional: true }, document: { type: "object", optional: true } },
};
const pageId = { type: "string", min: 1, max: 64 };

const RULES: Record<string, Record<string, unknown>> = {
  // `type` is this API's own addition to GitBook's insert_page: "group" makes a page group (GitBook's RevisionPageGroup).
  insert_page: {
    ...meta,
    type: { type: "enum", values: ["document", "group"], optional: true },
    document,
    into: { ...pageId, optional: true },
    at: { type: "number", integer: true, min: 0, optional: true },
    ref: { type: "string", min: 1, max: 256, optional: true },
  },
  update_page: { ...meta, page: pageId, document: { ...document, optional: true }, into: { ...pageId, optional: true, nullable: true }, at: { type: "number", integer: true, min: 0, optional: true } },
  delete_page: { page: pageId },
  revert_page: { page: pageId, revision: { ...pageId, optional: true }, block: { type: "array", items: "string", optional: true, max: 0, messages: { arrayMax: "Reverting single blocks is not supported: omit 'block' to revert the whole page." } } },
  insert_files: {
    files: {
      type: "array",
      min: 1,
      max: 20,
      items: {
        type: "object",
        strict: true,
        props: {
          ref: { type: "string", min: 1, max: 256, optional: true },
          name: { type: "string", min: 1, max: 256, pattern: /^[^/\\\0]+$/ },
          contentType: { type: "string", min: 3, max: 255, pattern: /^[\w.+-]+\/[\w.+-]+$/, optional: true },
          url: { type: "string", max: 2048, optional: true },
          base64: { type: "string", pattern: /^[A-Za-z0-9+/]*={0,2}$/, max: Math.ceil((MAX_INLINE_FILE_BYTES * 4) / 3) + 4, optional: true },
        },
      },
    },
  },
};
export const OPERATIONS = Object.keys(RULES);

const v = new Validators.Fastest({ useNewCustomCheckerFunction: true });
type Check = (value: unknown) => true | Array<{ field?: string; message?: string }>;
const checks: Record<string, Check> = Object.fromEntries(
  Object.entries(RULES).map(([op, props]) => [op, v.compile({ $$strict: true, operation: { type: "equal", value: op }, ...props }) as unknown as Check]),
);

function bad(index: number, field: string, message: string): BadRequestError {
  return new BadRequestError(`Invalid parameters: 'changes[${index}].${field}': ${message}`);
}

/** Throws a 400 naming the field unless every change is one of GitBook's, well-formed and supported here. */
export function checkChanges(changes: unknown[]): void {
  changes.forEach((change, index) => {
    const op = (change as { operation?: unknown })?.operation;
    const check = typeof op === "string" ? checks[op] : undefined;
    if (!check) throw bad(index, "operation", `must be one of ${OPERATIONS.join(", ")}.`);
    const result = check(change);
    if (result !== true) {
      throw new BadRequestError(
        describeValidation(result.map((e) => ({ ...e, field: `changes[${index}].${e.field}`, message: e.message?.replace(`'${e.field}'`, `'changes[${index}].${e.field}'`) }))),
      );
    }
    const doc = (change as { document?: { document?: unknown; markdown?: unknown } }).document;
    if (op === "insert_page" && (change as { type?: unknown }).type === "group") {
      // A page group is a heading of the tree's top level: no parent, no content.
      if ((change as { into?: unknown }).into !== undefined) throw bad(index, "into", "a page group stays at the top level: leave 'into' out.");
      const nodes = (doc?.document as { nodes?: unknown } | undefined)?.nodes;
      if ((typeof doc?.markdown === "string" && doc.markdown.trim() !== "") || (Array.isArray(nodes) && nodes.length > 0)) throw bad(index, "document", "a page group has no content: send an empty document.");
    }
    if (doc?.document !== undefined) {
      if (doc.markdown !== undefined) throw bad(index, "document", "give either 'markdown' or 'document', not both.");
      let checked: JSONDocument;
      try {
        checked = checkDocument(doc.document, "document.document");
      } catch (err) {
        if (err instanceof DocumentError) throw bad(index, err.path, err.message.slice(err.path.length + 2));
        throw err;
      }
      // What the structural check lets through must still be writable (a block without its data, say).
      try {
        documentToMarkdown(checked);
      } catch (err) {
        throw bad(index, "document.document", `cannot be written as Markdown (${err instanceof Error ? err.message : String(err)}).`);
      }
    }
    if (op === "insert_files") {
      (change as { files: Array<{ url?: string; base64?: string; contentType?: string }> }).files.forEach((file, i) => {
        if (file.url !== undefined) throw bad(index, `files[${i}].url`, "fetching files by URL is not supported; send the bytes as base64.");
        if (file.base64 === undefined) throw bad(index, `files[${i}].base64`, "is required.");
        if (!file.contentType) throw bad(index, `files[${i}].contentType`, "is required with base64.");
        if (Buffer.from(file.base64, "base64").length > MAX_INLINE_FILE_BYTES) throw bad(index, `files[${i}].base64`, "is larger than 1 MB.");
      });
    }
  });
  const refs = new Set<string>();
  const pageRefs = new Set<string>();
  changes.forEach((change, index) => {
    const pageRef = (change as { operation: string; ref?: string }).operation === "insert_page" ? (change as { ref?: string }).ref : undefined;
    if (pageRef !== undefined) {
      if (pageRefs.has(pageRef)) throw bad(index, "ref", `'${pageRef}' is used twice in this batch.`);
      pageRefs.add(pageRef);
    }
    const files = (change as { operation: string; files?: Array<{ ref?: string }> }).files ?? [];
    files.forEach((file, i) => {
      if (file.ref === undefined) return;
      if (refs.has(file.ref)) throw bad(index, `files[${i}].ref`, `'${file.ref}' is used twice in this batch.`);
      refs.add(file.ref);
    });
  });
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** Which metadata the markdown itself sets: front matter `title`/`description`, or a leading `# heading`. */
export function metadataInMarkdown(markdown: string): { title: boolean; description: boolean } {
  const fm = FRONT_MATTER.exec(markdown);
  const keys = new Set((fm?.[1] ?? "").split(/\r?\n/).flatMap((line) => /^([A-Za-z][\w-]*)\s*:\s*\S/.exec(line)?.[1] ?? []));
  const rest = fm ? markdown.slice(fm[0].length) : markdown;
  return { title: keys.has("title") || /^\s*#[ \t]+\S/.test(rest), description: keys.has("description") };
}

interface GitBookPageChange {
  operation: "insert_page" | "update_page";
  type?: "document" | "group";
  page?: string;
  document?: { markdown?: string; document?: JSONDocument };
  into?: string | null;
  at?: number;
  ref?: string;
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
}

/** The page fields of an insert or update: the markdown's own title and description win over the fields (as Git Sync does). */
function pageFields(change: GitBookPageChange, refs: BatchRefs, dir: string | undefined): PageFields {
  const out: PageFields = {};
  const doc = change.document?.document;
  const given = doc ? documentToMarkdown(doc, documentHrefs(refs, dir)) : change.document?.markdown;
  const markdown = given === undefined ? undefined : resolveFileRefs(given, refs, dir);
  const fromMarkdown = markdown === undefined ? { title: false, description: false } : metadataInMarkdown(markdown);
  if (change.title !== undefined && !fromMarkdown.title) out.title = change.title;
  if (change.description !== undefined && !fromMarkdown.description) out.description = change.description === "" ? null : change.description;
  if (change.slug) out.slug = change.slug;
  if (change.emoji !== undefined) out.emoji = change.emoji === "" ? null : change.emoji;
  if (change.icon !== undefined) out.icon = change.icon === "" ? null : change.icon;
  for (const flag of ["hidden", "noIndex", "noRobotsIndex"] as const) if (change[flag] !== undefined) out[flag] = change[flag];
  if (markdown !== undefined) out.markdown = markdown;
  return out;
}

/** What the batch's page bodies may point at: files it inserts by `ref`, and the revision's pages and files. */
export interface BatchRefs {
  /** `ref` of an `insert_files` entry -> the name of the file it inserts. */
  files: Map<string, string>;
  /** Page id -> its path in the revision, for `page` references in documents. */
  pagePath(id: string): string | undefined;
  /** File id -> its name in the revision, for `file` references in documents. */
  fileName(id: string): string | undefined;
}

/**
 * The Markdown path to `target` (a page path plus ".md", or a file path) from a page whose links resolve
 * from `dir` (its parent's path, as content reads links); from the space's root when `dir` is unknown.
 */
function hrefFrom(dir: string | undefined, target: string): string {
  if (dir === undefined) return `/${encodeURI(target)}`;
  let rel = posix.relative(dir, target);
  if (rel === "") rel = posix.join("..", posix.basename(target));
  return encodeURI(rel);
}

/** Where a stored file is linked from Markdown: by name under `.gitbook/assets/`, as Git Sync writes it. */
function assetHref(name: string, dir: string | undefined): string {
  return hrefFrom(dir, `.gitbook/assets/${name}`);
}

/** The Markdown targets of a document's references, written in a page whose links resolve from `dir`. */
function documentHrefs(refs: BatchRefs, dir: string | undefined): { toHref(ref: ContentRef): string | undefined } {
  return {
    toHref(ref) {
      if ("space" in ref && ref.space !== undefined) return undefined;
      if (ref.kind === "file") {
        const name = refs.files.get(ref.file) ?? refs.fileName(ref.file);
        return name === undefined ? undefined : assetHref(name, dir);
      }
      if (ref.kind === "page" || (ref.kind === "anchor" && ref.page)) {
        const path = refs.pagePath(ref.kind === "page" ? ref.page : (ref.page as string));
        if (path === undefined) return undefined;
        const href = hrefFrom(dir, path === "" ? "README.md" : `${path}.md`);
        return ref.kind === "anchor" ? `${href}#${ref.anchor}` : href;
      }
      return undefined;
    },
  };
}

/** Links, images and file blocks written `./<ref>` of a file inserted in the same batch, pointed at that file. */
export function resolveFileRefs(markdown: string, refs: BatchRefs, dir?: string): string {
  if (refs.files.size === 0) return markdown;
  return markdown.replace(/(\]\(|src=")\.\/([^)"\s]+)(?=[)"\s])/g, (whole, lead: string, target: string) => {
    const name = refs.files.get(target);
    return name !== undefined ? `${lead}${assetHref(name, dir)}` : whole;
  });
}

/** Whether `markdown` links to any of `refs` as `./<ref>.md` (pages inserted in the same batch). */
export function linksToPageRefs(markdown: string, refs: ReadonlyMap<string, string>): boolean {
  for (const ref of refs.keys()) if (markdown.includes(`./${ref}.md`)) return true;
  return false;
}

/**
 * Links `./<ref>.md` (optionally `#anchor`) to pages the batch inserted with that ref, rewritten as the
 * path to that page from the page at `fromPath`, once the batch is applied and the paths are known.
 */
export function resolvePageRefs(markdown: string, fromPath: string, refs: ReadonlyMap<string, string>, pathOf: (id: string) => string | undefined): string {
  return markdown.replace(/(\]\(|url=")\.\/([^)"\s#]+)\.md(#[^)"\s]*)?(?=[)"\s])/g, (whole, lead: string, ref: string, anchor: string | undefined) => {
    const id = refs.get(ref);
    const path = id === undefined ? undefined : pathOf(id);
    return path === undefined ? whole : `${lead}${hrefFrom(linkDir(fromPath), `${path}.md`)}${anchor ?? ""}`;
  });
}

/** The directory a page's links resolve from (content's rule: its parent's path), if known. */
function linkDir(pagePath: string | undefined): string | undefined {
  if (pagePath === undefined) return undefined;
  const dir = posix.dirname(pagePath);
  return dir === "." ? "" : dir;
}

/** A page's state in `target` restored over `current`: the whole page (body and metadata), not its place. */
export function revertPage(pageId: string, current: TreeContent, target: TreeContent, bodies: Record<string, string>, index: number, restoring: ReadonlySet<string> = new Set()): ContentChange[] {
  const find = (pages: TreePage[], parent: string | null = null): { page: TreePage; parent: string | null; position: number } | undefined => {
    for (const [position, page] of pages.entries()) {
      if (page.id === pageId) return { page, parent, position };
      const inner = find(page.pages, page.id);
      if (inner) return inner;
    }
    return undefined;
  };
  const now = find(current.pages);
  const then = find(target.pages);
  if (!now && !then) throw bad(index, "page", `page ${pageId} is in neither the change request nor the revision to revert to.`);
  if (!then) return [{ type: "delete_page", page: pageId }];
  const p = then.page;
  const str = (key: string) => (typeof p[key] === "string" ? (p[key] as string) : undefined);
  const fields: PageFields = {
    title: p.title,
    slug: str("slug"),
    emoji: str("emoji") ?? null,
    icon: str("icon") ?? null,
    description: str("description") ?? null,
    hidden: p.hidden === true,
    noIndex: p.noIndex === true,
    noRobotsIndex: p.noRobotsIndex === true,
    // The stored body has no front matter or title heading left; the explicit title above wins anyway.
    markdown: bodies[str("documentId") ?? ""] ?? "",
  };
  if (p.layout) fields.layout = p.layout;
  if (p.cover) fields.cover = p.cover;
  if (now) return [{ type: "update_page", page: pageId, ...fields }];
  // A parent brought back by an earlier revert_page of the same batch (undoing a delete, parents first) counts as there.
  const parentStillThere = then.parent === null || containsPage(current.pages, then.parent) || restoring.has(then.parent);
  // A page group comes back a group (at the top level, where groups are).
  if (p.type === "group") return [{ type: "insert_page", id: pageId, pageType: "group", parent: null, position: then.position, ...fields }];
  return [{ type: "insert_page", id: pageId, parent: parentStillThere ? then.parent : null, position: then.position, ...fields }];
}

function containsPage(pages: TreePage[], id: string): boolean {
  return pages.some((p) => p.id === id || containsPage(p.pages, id));
}

/**
 * The content service's changes for GitBook's `changes` (already checked), in order. `revert` gives
 * the changes of a `revert_page`; `newFileId` names inserted files.
 */
export function toContentChanges(
  changes: Array<Record<string, unknown>>,
  revert: (change: RevertChange, index: number) => ContentChange[],
  newFileId: () => string,
  known: Pick<BatchRefs, "pagePath" | "fileName"> = { pagePath: () => undefined, fileName: () => undefined },
  newPageId: () => string = newFileId,
): { changes: ContentChange[]; touched: Touched[]; insertedFiles: string[]; pageRefs: Map<string, string> } {
  const out: ContentChange[] = [];
  const touched: Touched[] = [];
  const insertedFiles: string[] = [];
  // Files first, whatever their place in the batch, so that any page of it may link to them by ref.
  const refs: BatchRefs = { ...known, files: new Map() };
  const pageRefs = new Map<string, string>();
  for (const raw of changes) {
    if (raw.operation === "insert_page" && typeof raw.ref === "string" && !pageRefs.has(raw.ref)) pageRefs.set(raw.ref, newPageId());
    if (raw.operation !== "insert_files") continue;
    for (const file of raw.files as Array<{ ref?: string; name: string }>) if (file.ref !== undefined) refs.files.set(file.ref, file.name);
  }
  changes.forEach((raw, index) => {
    switch (raw.operation) {
      case "insert_page": {
        const change = raw as unknown as GitBookPageChange;
        const parentPath = change.into ? refs.pagePath(change.into) : "";
        const fields = pageFields(change, refs, parentPath);
        // A page with a ref, or linking to one, gets its id now: the links are resolved once the batch is applied.
        const id = (change.ref !== undefined ? pageRefs.get(change.ref) : undefined) ?? (fields.markdown !== undefined && linksToPageRefs(fields.markdown, pageRefs) ? newPageId() : undefined);
        out.push({
          type: "insert_page",
          ...(id ? { id } : {}),
          ...(change.type === "group" ? { pageType: "group" } : {}),
          ...(change.into ? { parent: change.into } : {}),
          ...(change.at !== undefined ? { position: change.at } : {}),
          ...fields,
          markdown: fields.markdown ?? "",
        });
        touched.push({ kind: "created_page", ref: change.ref });
        break;
      }
      case "update_page": {
        const change = raw as unknown as GitBookPageChange;
        const move: { parent?: string | null; position?: number } = {};
        if (change.into !== undefined) move.parent = change.into;
        if (change.at !== undefined) move.position = change.at;
        // Moving to another parent without `at` appends at the end (content's default).
        out.push({ type: "update_page", page: change.page!, ...move, ...pageFields(change, refs, linkDir(refs.pagePath(change.page!))) });
        touched.push({ kind: "updated_page", page: change.page });
        break;
      }
      case "delete_page":
        out.push({ type: "delete_page", page: raw.page as string });
        touched.push({ kind: "deleted_page", page: raw.page as string });
        break;
      case "revert_page": {
        const produced = revert(raw as unknown as RevertChange, index);
        out.push(...produced);
        touched.push({ kind: produced[0]?.type === "delete_page" ? "deleted_page" : "updated_page", page: raw.page as string });
        break;
      }
      case "insert_files":
        for (const file of raw.files as Array<{ name: string; contentType: string; base64: string }>) {
          const id = newFileId();
          insertedFiles.push(id);
          out.push({ type: "insert_file", id, name: file.name, contentType: file.contentType, data: file.base64 });
        }
        break;
    }
  });
  return { changes: out, touched, insertedFiles, pageRefs };
}
