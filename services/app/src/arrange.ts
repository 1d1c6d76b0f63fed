// Reordering and nesting a change request's pages: the one `update_page` change (GitBook's `into` and
// `at`, as the API takes them) that moves a page up, down, under the page before it, or out of its parent.
import type { TreeNode } from "./pages/space";

export type Direction = "up" | "down" | "in" | "out";
export const DIRECTIONS: Direction[] = ["up", "down", "in", "out"];

/** The move a direction makes: `into` (a parent id, null for the top level, undefined: the same parent) and `at` (the index once the page is taken out). */
export type Move = {
  operation: "update_page";
  page: string;
  into?: string | null;
  at: number;
};

interface Place {
  siblings: TreeNode[];
  index: number;
  parent: TreeNode | null;
  /** Where the parent sits: its own siblings and index, and its parent. */
  above: Place | null;
}

export function placeOf(pages: TreeNode[], id: string, parent: TreeNode | null = null, above: Place | null = null): Place | null {
  for (let index = 0; index < pages.length; index++) {
    const page = pages[index];
    if (page.id === id) return { siblings: pages, index, parent, above };
    const inner = placeOf(page.pages ?? [], id, page, { siblings: pages, index, parent, above });
    if (inner) return inner;
  }
  return null;
}

/** Which moves a page can make where it is (to show only the buttons that do something). */
export function possibleMoves(pages: TreeNode[], id: string): Set<Direction> {
  const place = placeOf(pages, id);
  const out = new Set<Direction>();
  if (!place) return out;
  if (place.index > 0) out.add("up");
  if (place.index < place.siblings.length - 1) out.add("down");
  // Nesting goes under the page just before: a document or a group (a link holds no pages); a group is never nested.
  const before = place.siblings[place.index - 1];
  if (before && before.type !== "link" && place.siblings[place.index].type !== "group") out.add("in");
  if (place.parent) out.add("out");
  return out;
}

/** The change that moves page `id` one step `direction`; null when it cannot go that way (or is not in the tree). */
export function moveChange(pages: TreeNode[], id: string, direction: Direction): Move | null {
  const place = placeOf(pages, id);
  if (!place || !possibleMoves(pages, id).has(direction)) return null;
  switch (direction) {
    case "up":
      return { operation: "update_page", page: id, at: place.index - 1 };
    case "down":
      return { operation: "update_page", page: id, at: place.index + 1 };
    case "in": {
      // Last among the children of the page before it.
      const before = place.siblings[place.index - 1];
      return { operation: "update_page", page: id, into: before.id, at: (before.pages ?? []).length };
    }
    case "out": {
      // Just after its parent, in the parent's list (the top level when the parent is at the top).
      const up = place.above!;
      return { operation: "update_page", page: id, into: up.parent ? up.parent.id : null, at: up.index + 1 };
    }
  }
}

/** Every page of the tree with its depth, in order (for a parent picker). */
export function flatten(pages: TreeNode[], depth = 0, out: Array<{ page: TreeNode; depth: number }> = []): Array<{ page: TreeNode; depth: number }> {
  for (const page of pages) {
    out.push({ page, depth });
    flatten(page.pages ?? [], depth + 1, out);
  }
  return out;
}

export type Position = "before" | "after" | "inside";
export const POSITIONS: Position[] = ["before", "after", "inside"];

/**
 * The change that puts page `id` before or after page `target` (among the target's siblings), or last inside it (a
 * page dragged onto another in the tree); null when it cannot go there (either page not in the tree, into itself or
 * its own subpages, inside a link) or would not move.
 */
export function placeChange(pages: TreeNode[], id: string, target: string, position: Position): Move | null {
  const from = placeOf(pages, id);
  const to = placeOf(pages, target);
  if (!from || !to || id === target) return null;
  // Never into its own subpages.
  if (placeOf(from.siblings[from.index].pages ?? [], target)) return null;
  let into: string | null;
  let at: number;
  if (position === "inside") {
    const host = to.siblings[to.index];
    if (host.type === "link") return null;
    into = host.id;
    at = (host.pages ?? []).filter((p) => p.id !== id).length;
  } else {
    into = to.parent ? to.parent.id : null;
    // Counted once the page is taken out of the list (when it is in the same one, before the target).
    const index = from.siblings === to.siblings && from.index < to.index ? to.index - 1 : to.index;
    at = position === "before" ? index : index + 1;
  }
  // A page group stays at the top level.
  if (from.siblings[from.index].type === "group" && into !== null) return null;
  const sameParent = (from.parent ? from.parent.id : null) === into;
  if (sameParent && from.index === at) return null;
  return { operation: "update_page", page: id, into, at };
}

/** Page `id` and every page under it, parents first (what deleting it removes, and undoing brings back). */
export function subtreeIds(pages: TreeNode[], id: string): string[] {
  const place = placeOf(pages, id);
  if (!place) return [];
  const out: string[] = [];
  const visit = (page: TreeNode) => {
    out.push(page.id);
    for (const child of page.pages ?? []) visit(child);
  };
  visit(place.siblings[place.index]);
  return out;
}
