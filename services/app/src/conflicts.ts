// A change request's changes against its base, page by page, and the pages main changed differently
// since then (the three-way merge's page rule: a page changed on both sides, not the same way, or
// deleted on one side and changed on the other, is a conflict).
import type { SemanticChange } from "@docshelf/contracts/content";

export type PageChangeKind = "added" | "removed" | "modified" | "moved";

export interface PageChanges {
  id: string;
  title: string;
  path: string;
  type: "document" | "group";
  kinds: PageChangeKind[];
  /** Edited attributes (title, slug, document, …) before and after. */
  attributes: Record<string, { before?: string; after?: string }>;
  /** The parent before and after a move (titles; undefined: the top level). */
  parent?: { before?: { id: string; title: string }; after?: { id: string; title: string } };
}

/** The page changes of a list of semantic changes, one entry a page, in the list's order. */
export function pageChanges(changes: SemanticChange[]): PageChanges[] {
  const byId = new Map<string, PageChanges>();
  for (const change of changes) {
    if (!("page" in change) || typeof change.page !== "object" || change.page === null) continue;
    const page = change.page as { id: string; title: string; path: string; type: "document" | "group" };
    let entry = byId.get(page.id);
    if (!entry) {
      entry = { id: page.id, title: page.title, path: page.path, type: page.type, kinds: [], attributes: {} };
      byId.set(page.id, entry);
    }
    switch (change.type) {
      case "page_created":
        entry.kinds.push("added");
        break;
      case "page_deleted":
        entry.kinds.push("removed");
        break;
      case "page_edited":
        entry.kinds.push("modified");
        Object.assign(entry.attributes, (change as { attributes: PageChanges["attributes"] }).attributes);
        break;
      case "page_moved":
        entry.kinds.push("moved");
        entry.parent = (change as { parent: PageChanges["parent"] }).parent;
        break;
    }
  }
  return [...byId.values()];
}

export interface PageConflict {
  ours: PageChanges;
  theirs: PageChanges;
  reason: string;
}

/**
 * The pages changed both in the change request (`ours`, against its base) and on main since that base
 * (`theirs`) in ways that do not agree: what merging would refuse for pages.
 */
export function pageConflicts(ours: PageChanges[], theirs: PageChanges[]): PageConflict[] {
  const main = new Map(theirs.map((p) => [p.id, p]));
  const out: PageConflict[] = [];
  for (const mine of ours) {
    const other = main.get(mine.id);
    if (!other) continue;
    const removedHere = mine.kinds.includes("removed");
    const removedThere = other.kinds.includes("removed");
    if (removedHere && removedThere) continue;
    if (removedHere || removedThere) {
      out.push({ ours: mine, theirs: other, reason: removedHere ? "deleted in the change request, changed on main" : "changed in the change request, deleted on main" });
      continue;
    }
    const differing = Object.keys(mine.attributes).filter((k) => k in other.attributes && mine.attributes[k].after !== other.attributes[k].after);
    const movedApart = mine.parent && other.parent && (mine.parent.after?.id ?? null) !== (other.parent.after?.id ?? null);
    if (differing.length || movedApart) {
      const what = [...differing.map((k) => (k === "document" ? "content" : k)), ...(movedApart ? ["place"] : [])];
      out.push({ ours: mine, theirs: other, reason: `changed on both sides differently (${what.join(", ")})` });
    }
  }
  return out;
}
