// Which repository paths are safe to read and write: no `..`, no `.git` in any spelling, nothing absolute.
import { posix } from "node:path";

/**
 * True for a path component git itself refuses on some platform: `.`, `..`, `.git` in any case,
 * with trailing dots or spaces (NTFS), as an 8.3 short name (`git~1`), or with HFS+ ignorables.
 */
export function isUnsafeComponent(name: string): boolean {
  if (name === "" || name === "." || name === "..") return true;
  if (name.includes("\\") || name.includes("\0")) return true;
  // HFS+ ignores zero-width characters, so ".g\u200cit" is ".git" there.
  const visible = name.replace(/[\u200b-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, "");
  const trimmed = visible.replace(/[. ]+$/, "").toLowerCase();
  if (trimmed === ".git" || trimmed === "git~1") return true;
  return false;
}

/** The reason a tree path is refused, or null when it is safe. */
export function unsafePathReason(path: string): string | null {
  if (path.startsWith("/")) return "is absolute";
  for (const part of path.split("/")) if (isUnsafeComponent(part)) return `has the unsafe component "${part}"`;
  return null;
}

/**
 * Whether a symlink at `linkPath` pointing to `target` stays inside the tree (relative, and never
 * climbing above the repository root).
 */
export function symlinkStaysInside(linkPath: string, target: string): boolean {
  if (target.startsWith("/") || target.includes("\0") || /^[a-z]:/i.test(target)) return false;
  const resolved = posix.normalize(posix.join(posix.dirname(linkPath), target));
  if (resolved === ".." || resolved.startsWith("../") || resolved.startsWith("/")) return false;
  return resolved.split("/").every((part) => part === "." || !isUnsafeComponent(part));
}

/** Joins repository-relative paths, dropping empty parts and `./`; the result has no leading slash. */
export function joinRepoPath(...parts: string[]): string {
  const joined = posix.normalize(parts.filter(Boolean).join("/"));
  return joined === "." ? "" : joined.replace(/^\.\/+/, "").replace(/\/+$/, "");
}

/** A user-given directory (repoProjectDirectory, `root`): relative, normalized, and inside the tree. Null when it escapes. */
export function cleanDirectory(dir: string | undefined): string | null {
  if (!dir) return "";
  const normalized = joinRepoPath(dir.replace(/^\/+/, ""));
  if (normalized === "") return "";
  return unsafePathReason(normalized) ? null : normalized;
}
