// Pure rules of the collection tree: descendants, cycles, inherited levels and sibling positions.
import type { Grants, RoleOrGuest } from "@docshelf/access";
import type { DefaultLevel } from "./models";

export interface TreeNode {
  id: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  grants?: Grants;
  position: number;
}

/** The deepest chain walked; deeper means corrupt data, never a real tree. */
const MAX_DEPTH = 256;

/** `rootId` and every collection nested below it, parents before children. */
export function descendantIds(nodes: ReadonlyArray<Pick<TreeNode, "id" | "parent">>, rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    if (!node.parent) continue;
    const list = children.get(node.parent) ?? [];
    list.push(node.id);
    children.set(node.parent, list);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = [rootId];
  while (queue.length) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    queue.push(...(children.get(id) ?? []));
  }
  return out;
}

/** Whether making `newParent` the parent of `id` would put a collection inside itself. */
export function wouldCycle(nodes: ReadonlyArray<Pick<TreeNode, "id" | "parent">>, id: string, newParent: string): boolean {
  return descendantIds(nodes, id).includes(newParent);
}

/** A stored default level as `effectiveRole` reads it: "inherit" means no level of its own. */
export function levelOf(level: DefaultLevel | undefined): RoleOrGuest {
  return level === undefined || level === "inherit" ? null : level;
}

/**
 * The default levels of `id` and its ancestors, nearest first, as `effectiveRole`'s `collectionLevels`.
 * `lookup` answers a collection by id (undefined when missing); a broken or cyclic chain stops the walk.
 */
export function chainLevels(lookup: (id: string) => Pick<TreeNode, "parent" | "defaultLevel"> | undefined, id: string): RoleOrGuest[] {
  return chainOf(lookup, id).map((node) => levelOf(node.defaultLevel));
}

/** The grants of `id` and its ancestors, nearest first (an empty map for a collection without any). */
export function chainGrants(lookup: (id: string) => Pick<TreeNode, "parent" | "grants"> | undefined, id: string): Grants[] {
  return chainOf(lookup, id).map((node) => node.grants ?? {});
}

function chainOf<N extends Pick<TreeNode, "parent">>(lookup: (id: string) => N | undefined, id: string): N[] {
  const chain: N[] = [];
  const seen = new Set<string>();
  let current: string | undefined = id;
  while (current && !seen.has(current) && chain.length < MAX_DEPTH) {
    seen.add(current);
    const node = lookup(current);
    if (!node) break;
    chain.push(node);
    current = node.parent;
  }
  return chain;
}

export interface Placement {
  before?: string;
  after?: string;
}

/**
 * The position that puts an item just before `before` or just after `after` among `siblings`
 * (sorted or not; the moved item itself excluded); at the end when neither names a sibling.
 */
export function positionAmong(siblings: ReadonlyArray<Pick<TreeNode, "id" | "position">>, placement: Placement): number {
  const sorted = [...siblings].sort((a, b) => a.position - b.position);
  const at = (id: string | undefined) => (id === undefined ? -1 : sorted.findIndex((s) => s.id === id));
  const beforeIndex = at(placement.before);
  if (beforeIndex >= 0) {
    const prev = beforeIndex > 0 ? sorted[beforeIndex - 1].position : sorted[beforeIndex].position - 2;
    return (prev + sorted[beforeIndex].position) / 2;
  }
  const afterIndex = at(placement.after);
  if (afterIndex >= 0) {
    const next = afterIndex < sorted.length - 1 ? sorted[afterIndex + 1].position : sorted[afterIndex].position + 2;
    return (sorted[afterIndex].position + next) / 2;
  }
  return sorted.length ? sorted[sorted.length - 1].position + 1 : 0;
}
