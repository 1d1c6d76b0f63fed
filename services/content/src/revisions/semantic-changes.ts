// What a revision changed from its first parent, as GitBook's RevisionSemanticChanges: pages created,
// deleted, edited (attributes before/after; `document` names the body's document id) and moved (parent
// before/after), files created/deleted/edited, variables and reusable contents.
import { walk, type FileMeta, type PageNode, type ReusableContentMeta } from "./tree";

export interface ChangedPage {
  id: string;
  type: "document" | "group";
  title: string;
  path: string;
}

export interface ChangedFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
}

type Attribute<T> = { before?: T; after?: T };

export type SemanticChange =
  | { type: "page_created" | "page_deleted"; page: ChangedPage }
  | { type: "page_edited"; page: ChangedPage; attributes: Record<string, Attribute<string>> }
  | { type: "page_moved"; page: ChangedPage; parent: Attribute<ChangedPage> }
  | { type: "file_created" | "file_deleted"; file: ChangedFile }
  | { type: "file_edited"; file: ChangedFile; attributes: Record<string, Attribute<string | number>> }
  | { type: "variables_edited"; variables: Record<string, Attribute<string>> }
  | { type: "reusable_content_created" | "reusable_content_deleted"; reusableContent: { id: string; title: string; document?: string } }
  | { type: "reusable_content_edited"; reusableContent: { id: string; title: string; document?: string }; attributes: Record<string, Attribute<string>> };

export interface RevisionContent {
  pages: PageNode[];
  files: FileMeta[];
  reusableContents: ReusableContentMeta[];
  variables: Record<string, string>;
}

function changedPage(page: PageNode): ChangedPage {
  return { id: page.id, type: page.type === "group" ? "group" : "document", title: page.title, path: page.path };
}

/** Attributes whose value differs; undefined values are left out of `before`/`after`. */
function diff<T extends string | number>(pairs: Array<[string, T | undefined, T | undefined]>): Record<string, Attribute<T>> {
  const out: Record<string, Attribute<T>> = {};
  for (const [name, before, after] of pairs) {
    if (before === after) continue;
    const attribute: Attribute<T> = {};
    if (before !== undefined) attribute.before = before;
    if (after !== undefined) attribute.after = after;
    out[name] = attribute;
  }
  return out;
}

/** The changes from `before` (none: an empty space) to `after`, in the order: pages, files, variables, reusable contents. */
export function semanticChanges(before: RevisionContent | null, after: RevisionContent, downloadURL: (file: FileMeta) => string): SemanticChange[] {
  const changes: SemanticChange[] = [];
  const old = new Map<string, { page: PageNode; parent: PageNode | null }>();
  for (const entry of walk(before?.pages ?? [])) old.set(entry.page.id, entry);
  const seen = new Set<string>();
  for (const { page, parent } of walk(after.pages)) {
    seen.add(page.id);
    const prior = old.get(page.id);
    if (!prior) {
      changes.push({ type: "page_created", page: changedPage(page) });
      continue;
    }
    const p = prior.page;
    const attributes = diff<string>([
      ["title", p.title, page.title],
      ["emoji", p.emoji, page.emoji],
      ["slug", p.slug, page.slug],
      ...(page.type === "group"
        ? []
        : ([
            ["description", p.description, page.description],
            ["document", p.documentId, page.documentId],
          ] as Array<[string, string | undefined, string | undefined]>)),
    ]);
    if (Object.keys(attributes).length) changes.push({ type: "page_edited", page: changedPage(page), attributes });
    if ((prior.parent?.id ?? null) !== (parent?.id ?? null)) {
      const moved: Attribute<ChangedPage> = {};
      if (prior.parent) moved.before = changedPage(prior.parent);
      if (parent) moved.after = changedPage(parent);
      changes.push({ type: "page_moved", page: changedPage(page), parent: moved });
    }
  }
  for (const [id, { page }] of old) if (!seen.has(id)) changes.push({ type: "page_deleted", page: changedPage(page) });

  const present = (file: FileMeta): ChangedFile => ({ id: file.id, name: file.name, contentType: file.contentType, downloadURL: downloadURL(file) });
  const oldFiles = new Map((before?.files ?? []).map((f) => [f.id, f]));
  const newFiles = new Set(after.files.map((f) => f.id));
  for (const file of after.files) {
    const prior = oldFiles.get(file.id);
    if (!prior) {
      changes.push({ type: "file_created", file: present(file) });
      continue;
    }
    // The download URL names the bytes, the name and the content type: it changes when they do.
    const same = prior.sha256 === file.sha256 && prior.name === file.name && prior.contentType === file.contentType;
    const attributes = diff<string | number>([
      ["name", prior.name, file.name],
      ["contentType", prior.contentType, file.contentType],
      ["size", prior.size, file.size],
      ["downloadURL", same ? undefined : downloadURL(prior), same ? undefined : downloadURL(file)],
    ]);
    if (Object.keys(attributes).length) changes.push({ type: "file_edited", file: present(file), attributes });
  }
  for (const file of before?.files ?? []) if (!newFiles.has(file.id)) changes.push({ type: "file_deleted", file: present(file) });

  const variables = diff<string>([...new Set([...Object.keys(before?.variables ?? {}), ...Object.keys(after.variables)])].map((name) => [name, before?.variables[name], after.variables[name]]));
  if (Object.keys(variables).length) changes.push({ type: "variables_edited", variables });

  const reusable = (r: ReusableContentMeta) => ({ id: r.id, title: r.title, ...(r.documentId ? { document: r.documentId } : {}) });
  const oldReusable = new Map((before?.reusableContents ?? []).map((r) => [r.id, r]));
  const newReusable = new Set(after.reusableContents.map((r) => r.id));
  for (const r of after.reusableContents) {
    const prior = oldReusable.get(r.id);
    if (!prior) {
      changes.push({ type: "reusable_content_created", reusableContent: reusable(r) });
      continue;
    }
    const attributes = diff<string>([
      ["title", prior.title, r.title],
      ["document", prior.documentId, r.documentId],
    ]);
    if (Object.keys(attributes).length) changes.push({ type: "reusable_content_edited", reusableContent: reusable(r), attributes });
  }
  for (const r of before?.reusableContents ?? []) if (!newReusable.has(r.id)) changes.push({ type: "reusable_content_deleted", reusableContent: reusable(r) });
  return changes;
}
