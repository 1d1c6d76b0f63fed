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
  // Nesting goes under the page just before: a document or a group (a link holds no pages).
  const before = place.siblings[place.index - 1];
  if (before && before.type !== "link") out.add("in");
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
