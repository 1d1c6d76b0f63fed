// Which status moves a change request allows, and who may make them.
import type { Status } from "./models";

/**
 * Moves by PATCH: draft ⇄ open; draft or open → archived; archived → draft or open (reopen).
 * `merged` is reached only by merging and is final; PATCH cannot set it.
 */
const MOVES: Record<Status, Status[]> = {
  draft: ["open", "archived"],
  open: ["draft", "archived"],
  archived: ["draft", "open"],
  merged: [],
};

/** Why `from` → `to` is refused, or null when it is allowed (staying put is allowed). */
export function refusedMove(from: Status, to: Status): string | null {
  if (from === to) return null;
  if (from === "merged") return "A merged change request cannot change status.";
  if (to === "merged") return "A change request is merged with POST …/merge, not by setting its status.";
  return MOVES[from].includes(to) ? null : `A change request cannot move from ${from} to ${to}.`;
}

/** Archiving or reopening an archived change request is for its author or a space admin. */
export function needsAuthorOrAdmin(from: Status, to: Status): boolean {
  return from !== to && (to === "archived" || from === "archived");
}

/** Statuses whose content can still be edited, updated from main and merged. */
export function isActive(status: Status): boolean {
  return status === "draft" || status === "open";
}
