// The deprecated move operations' `position` parameter and writing the order a move sets.
import { BadRequestError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import { movePositions, type MoveTarget } from "./structure";

type Pointer = { type: string } & Record<string, string>;
export interface MoveParams {
  position?: { before?: Pointer; after?: Pointer };
}

/** `position: {before?: {type, <idKey>}, after?: {type, <idKey>}}`, optional (absent moves to the end). */
export function moveParams(types: string[], idKey: string) {
  const pointer = { type: "object", strict: true, optional: true, props: { type: { type: "enum", values: types }, [idKey]: idRule } } as const;
  return { type: "object", strict: true, optional: true, props: { before: pointer, after: pointer } } as const;
}

export function moveTargetOf(position: MoveParams["position"], idKey: string): MoveTarget {
  if (position?.before && position?.after) throw new BadRequestError("Invalid parameters: 'position' takes one of 'before' and 'after', not both.");
  if (position?.before) return { before: position.before[idKey] };
  if (position?.after) return { after: position.after[idKey] };
  return { end: true };
}

/** Writes the positions a move changes; 400 when the reference is not a sibling or is the item itself. */
export async function applyMove(
  siblings: Array<{ id: string; position: number }>,
  id: string,
  target: MoveTarget,
  write: (id: string, position: number) => Promise<unknown>,
): Promise<void> {
  let changes: Map<string, number>;
  try {
    changes = movePositions(siblings, id, target);
  } catch {
    throw new BadRequestError("Invalid parameters: 'position' must name a sibling of the item moved, other than itself.");
  }
  for (const [nodeId, position] of changes) await write(nodeId, position);
}
