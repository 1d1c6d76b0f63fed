// Reading a ZIP sent to an import run (fflate), within the caps: entry count, size once decompressed,
// compression ratio, and entry names that stay inside the archive.
import { BadRequestError } from "@docshelf/errors";
import { unzipSync, type UnzipFileInfo } from "fflate";

export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  maxRatio: number;
}

export interface ZipEntry {
  /** The entry's path inside the archive, `/`-separated, never absolute and never with `..`. */
  path: string;
  bytes: Buffer;
}

/** Entries smaller than this are not held to the ratio: tiny files compress unevenly and cost nothing. */
const RATIO_FLOOR_BYTES = 64 * 1024;

/** The entry's path with `/` separators; undefined when it would leave the archive (absolute, drive, `..`). */
export function safeEntryPath(name: string): string | undefined {
  const path = name.replace(/\\/g, "/");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.includes("\0")) return undefined;
  const segments = path.split("/");
  if (segments.some((segment) => segment === "..")) return undefined;
  return segments.filter((segment) => segment !== "" && segment !== ".").join("/");
}

/** Entries the import never reads: folders, macOS resource forks, hidden files. */
function ignored(path: string): boolean {
  return path === "" || path.split("/").some((segment) => segment.startsWith(".") || segment === "__MACOSX");
}

/**
 * Checks the archive's directory against the limits without decompressing anything, then (unless
 * `listOnly`) decompresses the entries. The sizes checked are the directory's; fflate never writes
 * more than an entry's declared size, so a lying directory gets truncated entries, not more memory.
 * Any breach is a 400 naming `field`.
 */
export function readZip(bytes: Uint8Array, field: string, limits: ZipLimits, listOnly = false): ZipEntry[] {
  let entries = 0;
  let total = 0;
  const refuse = (why: string): never => {
    throw new BadRequestError(`Invalid parameters: '${field}': ${why}`);
  };
  const check = (file: UnzipFileInfo): boolean => {
    entries += 1;
    if (entries > limits.maxEntries) refuse(`the ZIP holds more than ${limits.maxEntries} entries.`);
    const path = safeEntryPath(file.name);
    if (path === undefined) refuse(`the ZIP entry "${file.name.slice(0, 200)}" points outside the archive.`);
    total += file.originalSize;
    if (total > limits.maxUncompressedBytes) refuse(`the ZIP holds more than ${limits.maxUncompressedBytes} bytes once decompressed.`);
    if (file.originalSize > RATIO_FLOOR_BYTES && file.originalSize > limits.maxRatio * Math.max(file.size, 1)) {
      refuse(`the ZIP entry "${file.name.slice(0, 200)}" decompresses over ${limits.maxRatio} times its size.`);
    }
    return !listOnly && !ignored(path!) && !file.name.endsWith("/");
  };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: check });
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    return refuse("not a ZIP archive this import can read.");
  }
  const read = Object.entries(files).map(([name, data]) => ({ path: safeEntryPath(name)!, bytes: Buffer.from(data.buffer, data.byteOffset, data.byteLength) }));
  // A stored entry is as long as its data, whatever the directory said (bounded by the archive's size).
  if (read.reduce((sum, entry) => sum + entry.bytes.length, 0) > limits.maxUncompressedBytes) refuse(`the ZIP holds more than ${limits.maxUncompressedBytes} bytes once decompressed.`);
  return read;
}
