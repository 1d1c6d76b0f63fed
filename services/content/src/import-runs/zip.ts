// Reading a ZIP sent to an import run, within the caps: entry count, size once decompressed (declared,
// and again as the bytes are produced), compression ratio, entries that share data, entry names that stay
// inside the archive, and a time budget. The directory is read here (the ZIP format, APPNOTE 6.3); each
// entry's data is inflated by Node's zlib on its thread pool (off the event loop: other requests never wait
// for an archive) with `maxOutputLength` set to the size the entry declared, so zlib stops as soon as an
// entry produces more than it declared, and the archive can never produce more than its checked total.
import { promisify } from "node:util";
import { inflateRaw as inflateRawCallback } from "node:zlib";
import { BadRequestError } from "@docshelf/errors";

export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  maxRatio: number;
  /** Time to read (decompress) the whole archive; `ZIP_READ_BUDGET_MS` when absent. */
  maxMillis?: number;
}

export interface ZipEntry {
  /** The entry's path inside the archive, `/`-separated, never absolute and never with `..`. */
  path: string;
  bytes: Buffer;
}

/** An entry of the archive's directory, checked against the limits. */
export interface ZipDirectoryEntry {
  /** The name as the archive spells it. */
  name: string;
  /** safeEntryPath(name). */
  path: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's data starts in the archive. */
  dataStart: number;
  /** Folders, hidden files, __MACOSX: listed and checked, never read. */
  skipped: boolean;
}

/** Entries smaller than this are not held to the ratio: tiny files compress unevenly and cost nothing. */
const RATIO_FLOOR_BYTES = 64 * 1024;
/** The default time to decompress one archive. */
export const ZIP_READ_BUDGET_MS = 20_000;

const inflateRaw = promisify(inflateRawCallback);

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_END64_LOCATOR = 0x07064b50;
const MAX32 = 0xffffffff;

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

const shown = (name: string) => JSON.stringify(name.slice(0, 200));

function refuser(field: string) {
  return (why: string): never => {
    throw new BadRequestError(`Invalid parameters: '${field}': ${why}`);
  };
}

/**
 * The archive's directory, checked against the limits without decompressing anything: entry count, names,
 * declared sizes and ratio, methods, encryption, and every entry's data inside the archive and apart from
 * every other entry's (a directory whose entries share compressed data would have it inflated once per
 * entry). Any breach is a 400 naming `field`.
 */
export function listZip(bytes: Uint8Array, field: string, limits: ZipLimits): ZipDirectoryEntry[] {
  const refuse = refuser(field);
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unreadable = (): never => refuse("not a ZIP archive this import can read.");
  const u16 = (at: number) => (at >= 0 && at + 2 <= data.length ? data.readUInt16LE(at) : unreadable());
  const u32 = (at: number) => (at >= 0 && at + 4 <= data.length ? data.readUInt32LE(at) : unreadable());
  const u64 = (at: number) => {
    const value = at >= 0 && at + 8 <= data.length ? data.readBigUInt64LE(at) : unreadable();
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? unreadable() : Number(value);
  };

  // The end of central directory record: the last one in the final 64 KiB + 22 bytes.
  let end = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (data.readUInt32LE(at) === SIG_END) {
      end = at;
      break;
    }
  }
  if (end < 0) unreadable();
  let count = u16(end + 10);
  let directorySize = u32(end + 12);
  let offset = u32(end + 16);
  if (count === 0xffff || directorySize === MAX32 || offset === MAX32) {
    // ZIP64: the locator just before the record points at the ZIP64 end record.
    if (end < 20 || u32(end - 20) !== SIG_END64_LOCATOR) unreadable();
    const end64 = u64(end - 20 + 8);
    if (u32(end64) !== SIG_END64) unreadable();
    count = u64(end64 + 32);
    directorySize = u64(end64 + 40);
    offset = u64(end64 + 48);
  }
  if (count > limits.maxEntries) refuse(`the ZIP holds more than ${limits.maxEntries} entries.`);
  if (offset + directorySize > data.length) unreadable();

  const entries: ZipDirectoryEntry[] = [];
  const spans: Array<{ start: number; end: number; name: string }> = [];
  let total = 0;
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (u32(at) !== SIG_CENTRAL) unreadable();
    const flags = u16(at + 8);
    const method = u16(at + 10);
    let compressedSize = u32(at + 20);
    let size = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let localOffset = u32(at + 42);
    if (at + 46 + nameLength + extraLength > data.length) unreadable();
    const name = data.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? "utf8" : "latin1");
    // ZIP64 sizes and offset, in this order, for the fields that hold 0xFFFFFFFF.
    if (size === MAX32 || compressedSize === MAX32 || localOffset === MAX32) {
      for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; e += 4 + u16(e + 2)) {
        if (u16(e) !== 1) continue;
        let p = e + 4;
        if (size === MAX32) {
          size = u64(p);
          p += 8;
        }
        if (compressedSize === MAX32) {
          compressedSize = u64(p);
          p += 8;
        }
        if (localOffset === MAX32) localOffset = u64(p);
        break;
      }
    }
    at += 46 + nameLength + extraLength + commentLength;

    const path = safeEntryPath(name);
    if (path === undefined) refuse(`the ZIP entry ${shown(name)} points outside the archive.`);
    total += size;
    if (total > limits.maxUncompressedBytes) refuse(`the ZIP holds more than ${limits.maxUncompressedBytes} bytes once decompressed.`);
    if (size > RATIO_FLOOR_BYTES && size > limits.maxRatio * Math.max(compressedSize, 1)) {
      refuse(`the ZIP entry ${shown(name)} decompresses over ${limits.maxRatio} times its size.`);
    }
    if (flags & 1) refuse(`the ZIP entry ${shown(name)} is encrypted.`);
    if (method !== 0 && method !== 8) refuse(`the ZIP entry ${shown(name)} uses compression method ${method}; only stored and deflated entries can be read.`);
    if (method === 0 && compressedSize !== size) refuse(`the ZIP entry ${shown(name)} is damaged: stored, yet its sizes differ.`);
    if (u32(localOffset) !== SIG_LOCAL) unreadable();
    const dataStart = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28);
    if (dataStart + compressedSize > offset) refuse(`the ZIP entry ${shown(name)} is damaged: its data runs past the archive's entries.`);
    spans.push({ start: localOffset, end: dataStart + compressedSize, name });
    entries.push({ name, path: path!, method, compressedSize, size, dataStart, skipped: ignored(path!) || name.endsWith("/") });
  }
  // Each entry's header and data must stand apart from every other's.
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i].start < spans[i - 1].end) refuse(`the ZIP entries ${shown(spans[i - 1].name)} and ${shown(spans[i].name)} share their data; each entry must have its own.`);
  }
  return entries;
}

/**
 * Checks the directory (listZip), then decompresses the entries the import reads, each bounded by the size
 * it declared (so all of them by the checked `maxUncompressedBytes`) as the bytes come out, within
 * `maxMillis`. An entry producing more (or fewer) bytes than its directory declared is refused, naming it.
 * Any breach is a 400 naming `field` (a failed run's reason, when the run reads it).
 */
export async function readZip(bytes: Uint8Array, field: string, limits: ZipLimits): Promise<ZipEntry[]> {
  const refuse = refuser(field);
  const entries = listZip(bytes, field, limits);
  const budgetMs = limits.maxMillis ?? ZIP_READ_BUDGET_MS;
  const started = Date.now();
  const read: ZipEntry[] = [];
  for (const entry of entries) {
    if (entry.skipped) continue;
    const compressed = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    let data: Buffer;
    if (entry.method === 0) {
      data = Buffer.from(compressed);
    } else {
      try {
        data = await inflateRaw(compressed, { maxOutputLength: Math.max(1, entry.size) });
      } catch (err) {
        if ((err as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") refuse(`the ZIP entry ${shown(entry.name)} decompresses to more than the ${entry.size} bytes its directory declares.`);
        return refuse(`the ZIP entry ${shown(entry.name)} is damaged (${(err as Error).message}).`);
      }
      if (data.length !== entry.size) refuse(`the ZIP entry ${shown(entry.name)} is damaged: it decompresses to ${data.length} bytes, its directory declares ${entry.size}.`);
    }
    if (Date.now() - started > budgetMs) refuse(`reading the ZIP took over ${budgetMs} ms (at the entry ${shown(entry.name)}).`);
    read.push({ path: entry.path, bytes: data });
  }
  return read;
}
