// Three-way merge of two revisions' content against their common base: pages matched by id.
//
// For each page: changed on one side only → that side's version; changed on both sides the same way
// → it; changed differently on both sides, or deleted on one side and changed on the other → a
// conflict. The parent follows the same rule; sibling order takes the side that reordered, and pages
// new to one side go before the sibling that follows them there (at the end when they are last). Files, reusable contents and
// variables merge the same way by id (by key for variables).
import type { RevisionTreePage as TreePage } from "@docshelf/contracts/content";

/** A page of a revision's tree (`content.revisionTrees`). */
export type { TreePage };

export interface TreeContent {
  pages: TreePage[];
  files: Array<{ id: string; name?: string; [field: string]: unknown }>;
  reusableContents: Array<{ id: string; title?: string; [field: string]: unknown }>;
  variables: Record<string, string>;
}

export interface Conflict {
  kind: "page" | "file" | "reusable-content" | "variable";
  id: string;
  title?: string;
  reason: string;
}

export interface MergeResult {
  content: TreeContent;
  conflicts: Conflict[];
}

/** Fields that are derived or bookkeeping: a difference in them alone is not a change. */
const DERIVED = new Set(["pages", "path", "updatedAt", "createdAt"]);

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => !DERIVED.has(k) && obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(obj[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function same(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

interface Placed {
  node: TreePage;
  parent: string | null;
}

function flatten(pages: TreePage[], parent: string | null = null, into = new Map<string, Placed>()): Map<string, Placed> {
  for (const page of pages) {
    into.set(page.id, { node: page, parent });
    flatten(page.pages, page.id, into);
  }
  return into;
}

/** Children ids by parent id ("" for the root), in tree order. */
function childLists(pages: TreePage[]): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  const visit = (list: TreePage[], parent: string) => {
    lists.set(parent, list.map((p) => p.id));
    for (const p of list) visit(p.pages, p.id);
  };
  visit(pages, "");
  return lists;
}

type Side<T> = { base?: T; ours?: T; theirs?: T };

/** Three-way choice of one value: undefined means "absent" (deleted or never there). */
/** How conflicts name the two sides. */
export interface SideNames {
  ours: string;
  theirs: string;
}
const MERGE_SIDES: SideNames = { ours: "main", theirs: "the change request" };

function choose<T>(v: Side<T>, eq: (a: T, b: T) => boolean, names: SideNames): { value?: T; conflict?: string } {
  const { base, ours, theirs } = v;
  if (base === undefined) {
    if (ours !== undefined && theirs !== undefined) return eq(ours, theirs) ? { value: ours } : { conflict: "added on both sides differently" };
    return { value: ours ?? theirs };
  }
  const oursChanged = ours === undefined || !eq(base, ours);
  const theirsChanged = theirs === undefined || !eq(base, theirs);
  if (ours === undefined && theirs === undefined) return {};
  if (ours === undefined) return theirsChanged ? { conflict: `deleted in ${names.ours} and changed in ${names.theirs}` } : {};
  if (theirs === undefined) return oursChanged ? { conflict: `changed in ${names.ours} and deleted in ${names.theirs}` } : {};
  if (oursChanged && theirsChanged && !eq(ours, theirs)) return { conflict: "changed on both sides" };
  return { value: theirsChanged ? theirs : ours };
}

/** The relative order of the ids both lists hold. */
function common(a: string[], b: string[]): string[] {
  const inB = new Set(b);
  return a.filter((id) => inB.has(id));
}

function sameOrder(a: string[], b: string[]): boolean {
  const x = common(a, b);
  const y = common(b, a);
  return x.length === y.length && x.every((id, i) => id === y[i]);
}

function orderChildren(kids: Set<string>, base: string[], ours: string[], theirs: string[]): string[] {
  const only = (list: string[]) => list.filter((id) => kids.has(id));
  const [b, o, t] = [only(base), only(ours), only(theirs)];
  const theirsReordered = !sameOrder(b, t);
  const oursReordered = !sameOrder(b, o);
  const [skeleton, other] = theirsReordered && !oursReordered ? [t, o] : [o, t];
  const result = [...skeleton];
  // From the end: each page the skeleton lacks goes before the sibling that follows it on its side (last: at the end).
  for (let i = other.length - 1; i >= 0; i--) {
    if (result.includes(other[i])) continue;
    const next = other[i + 1];
    result.splice(next === undefined ? result.length : result.indexOf(next), 0, other[i]);
  }
  for (const id of kids) if (!result.includes(id)) result.push(id);
  return result;
}

function mergePages(base: TreePage[], ours: TreePage[], theirs: TreePage[], conflicts: Conflict[], names: SideNames): TreePage[] {
  const [fb, fo, ft] = [flatten(base), flatten(ours), flatten(theirs)];
  const merged = new Map<string, Placed>();
  const ids = new Set([...fb.keys(), ...fo.keys(), ...ft.keys()]);
  for (const id of ids) {
    const [b, o, t] = [fb.get(id), fo.get(id), ft.get(id)];
    const title = (t ?? o ?? b)!.node.title;
    const fields = choose<TreePage>({ base: b?.node, ours: o?.node, theirs: t?.node }, same, names);
    // A move counts as a change too: deleted on one side and moved on the other is a conflict.
    const moved = (x?: Placed) => !!(b && x && x.parent !== b.parent);
    if (!fields.conflict && b && ((!o && moved(t)) || (!t && moved(o)))) fields.conflict = !o ? `deleted in ${names.ours} and moved in ${names.theirs}` : `moved in ${names.ours} and deleted in ${names.theirs}`;
    if (fields.conflict) {
      conflicts.push({ kind: "page", id, title, reason: fields.conflict });
      continue;
    }
    if (!fields.value) continue;
    let parent: string | null;
    if (!b || !o || !t) parent = (o ?? t)!.parent;
    else if (moved(o) && moved(t) && o.parent !== t.parent) {
      conflicts.push({ kind: "page", id, title, reason: "moved to different parents on both sides" });
      continue;
    } else parent = moved(t) ? t.parent : o.parent;
    merged.set(id, { node: fields.value, parent });
  }
  // A page whose parent did not survive, or that ended up inside itself, cannot be placed.
  for (const [id, placed] of merged) {
    if (placed.parent !== null && !merged.has(placed.parent)) {
      conflicts.push({ kind: "page", id, title: placed.node.title, reason: "its parent page was deleted on the other side" });
      continue;
    }
    const seen = new Set([id]);
    for (let p = placed.parent; p !== null; p = merged.get(p)?.parent ?? null) {
      if (seen.has(p)) {
        conflicts.push({ kind: "page", id, title: placed.node.title, reason: "moved inside itself by the two sides' moves" });
        break;
      }
      seen.add(p);
    }
  }
  if (conflicts.length) return [];
  const [lb, lo, lt] = [childLists(base), childLists(ours), childLists(theirs)];
  const kidsOf = new Map<string, Set<string>>();
  for (const [id, placed] of merged) {
    const key = placed.parent ?? "";
    if (!kidsOf.has(key)) kidsOf.set(key, new Set());
    kidsOf.get(key)!.add(id);
  }
  const build = (parent: string): TreePage[] => {
    const kids = kidsOf.get(parent);
    if (!kids) return [];
    return orderChildren(kids, lb.get(parent) ?? [], lo.get(parent) ?? [], lt.get(parent) ?? []).map((id) => ({
      ...merged.get(id)!.node,
      pages: build(id),
    }));
  };
  return build("");
}

function mergeById<T extends { id: string; title?: string; name?: string }>(
  kind: Conflict["kind"],
  base: T[],
  ours: T[],
  theirs: T[],
  conflicts: Conflict[],
  names: SideNames,
): T[] {
  const index = (list: T[]) => new Map(list.map((x) => [x.id, x]));
  const [ib, io, it] = [index(base), index(ours), index(theirs)];
  // Main's order first, then what only the change request has, in its order.
  const ids = [...new Set([...ours.map((x) => x.id), ...theirs.map((x) => x.id), ...base.map((x) => x.id)])];
  const out: T[] = [];
  for (const id of ids) {
    const chosen = choose<T>({ base: ib.get(id), ours: io.get(id), theirs: it.get(id) }, same, names);
    const any = (it.get(id) ?? io.get(id) ?? ib.get(id))!;
    if (chosen.conflict) conflicts.push({ kind, id, title: any.title ?? any.name, reason: chosen.conflict });
    else if (chosen.value) out.push(chosen.value);
  }
  return out;
}

function mergeVariables(base: Record<string, string>, ours: Record<string, string>, theirs: Record<string, string>, conflicts: Conflict[], names: SideNames) {
  const out: Record<string, string> = {};
  for (const key of new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])) {
    const chosen = choose<string>({ base: base[key], ours: ours[key], theirs: theirs[key] }, (a, b) => a === b, names);
    if (chosen.conflict) conflicts.push({ kind: "variable", id: key, reason: chosen.conflict });
    else if (chosen.value !== undefined) out[key] = chosen.value;
  }
  return out;
}

/**
 * Merges `theirs` into `ours`, both descended from `base` (`names` words the conflicts: by default
 * ours is main and theirs the change request). With conflicts, `content` is meaningless and nothing
 * should be stored.
 */
export function mergeRevisions(base: TreeContent, ours: TreeContent, theirs: TreeContent, names: SideNames = MERGE_SIDES): MergeResult {
  const conflicts: Conflict[] = [];
  const pages = mergePages(base.pages, ours.pages, theirs.pages, conflicts, names);
  const files = mergeById("file", base.files, ours.files, theirs.files, conflicts, names);
  const reusableContents = mergeById("reusable-content", base.reusableContents, ours.reusableContents, theirs.reusableContents, conflicts, names);
  const variables = mergeVariables(base.variables, ours.variables, theirs.variables, conflicts, names);
  return { content: { pages, files, reusableContents, variables }, conflicts };
}

/** Pages, files, contents and variables as one line each, for a 409 message. */
export function describeConflicts(conflicts: Conflict[]): string {
  return conflicts
    .slice(0, 20)
    .map((c) => `${c.kind} ${c.title ? `"${c.title}" ` : ""}(${c.id}): ${c.reason}`)
    .join("; ")
    .concat(conflicts.length > 20 ? `; and ${conflicts.length - 20} more` : "");
}
