// Git's object store read and indexed with Node's own zlib and crypto (native code), not a JavaScript inflate:
// `indexPack` builds a packfile's index (what `git index-pack` does: every object's id, offset and CRC-32, each
// object inflated once and each delta's base once more), and `ObjectStore` reads single objects of a bare
// repository (its packs through their `.idx`, and loose objects) without loading or checking whole packfiles.
// isomorphic-git still writes objects and pushes; what it writes (loose objects, packs with v2 indexes) is read
// here too.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { join } from "node:path";
import zlib from "node:zlib";

export type ObjectType = "commit" | "tree" | "blob" | "tag";
const TYPES: Record<number, ObjectType> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };
const OFS_DELTA = 6;
const REF_DELTA = 7;

/** A packfile or object that is not what Git writes: the fetch or the store is refused. */
export class PackError extends Error {}

export interface GitObject {
  type: ObjectType;
  data: Buffer;
}

/** The object id of `data` as an object of `type` (SHA-1 of its header and bytes). */
export function objectId(type: ObjectType, data: Buffer): Buffer {
  return createHash("sha1").update(`${type} ${data.length}\0`).update(data).digest();
}

/** zlib's bound on deflate's output for `size` input bytes: a compressed object is never longer. */
function deflateBound(size: number): number {
  return size + Math.floor(size / 4096) + Math.floor(size / 16384) + Math.floor(size / 33554432) + 13 + 6;
}

/** Inflates the zlib stream at the start of `input` to exactly `size` bytes; gives the bytes and the input it used. */
function inflateAt(input: Buffer, size: number, where: string): { data: Buffer; used: number } {
  let result: { buffer: Buffer; engine: zlib.Inflate };
  try {
    result = zlib.inflateSync(input, { info: true, maxOutputLength: Math.max(size, 1), chunkSize: Math.max(64, Math.min(size, 16 * 1024 * 1024)) }) as unknown as { buffer: Buffer; engine: zlib.Inflate };
  } catch (err) {
    throw new PackError(`${where}: ${(err as Error).message}`);
  }
  if (result.buffer.length !== size) throw new PackError(`${where}: inflated to ${result.buffer.length} bytes, not the ${size} its header says.`);
  return { data: result.buffer, used: result.engine.bytesWritten };
}

interface EntryHeader {
  type: number;
  size: number;
  /** Where the compressed data starts. */
  dataStart: number;
  /** OFS_DELTA: the base's offset; REF_DELTA: the base's id. */
  baseOffset?: number;
  baseOid?: Buffer;
}

/** Parses the header of the pack entry at `offset` of `buf` (which holds at least its header). */
function entryHeader(buf: Buffer, offset: number, bufStart = 0): EntryHeader {
  let pos = offset - bufStart;
  const byte = () => {
    if (pos >= buf.length) throw new PackError(`The pack entry at ${offset} is cut short.`);
    return buf[pos++];
  };
  let c = byte();
  const type = (c >> 4) & 7;
  let size = c & 15;
  let shift = 4;
  while (c & 0x80) {
    c = byte();
    if (shift > 49) throw new PackError(`The pack entry at ${offset} declares an impossible size.`);
    size += (c & 0x7f) * 2 ** shift;
    shift += 7;
  }
  const header: EntryHeader = { type, size, dataStart: 0 };
  if (type === OFS_DELTA) {
    c = byte();
    let distance = c & 0x7f;
    while (c & 0x80) {
      c = byte();
      distance = (distance + 1) * 128 + (c & 0x7f);
      if (distance > Number.MAX_SAFE_INTEGER / 256) throw new PackError(`The pack entry at ${offset} has an impossible base offset.`);
    }
    header.baseOffset = offset - distance;
    if (distance <= 0 || header.baseOffset < 12) throw new PackError(`The pack entry at ${offset} has a base outside the pack.`);
  } else if (type === REF_DELTA) {
    if (pos + 20 > buf.length) throw new PackError(`The pack entry at ${offset} is cut short.`);
    header.baseOid = Buffer.from(buf.subarray(pos, pos + 20));
    pos += 20;
  } else if (!TYPES[type]) throw new PackError(`The pack entry at ${offset} has the unknown type ${type}.`);
  header.dataStart = pos + bufStart;
  return header;
}

function readVarint(delta: Buffer, at: { pos: number }): number {
  let value = 0;
  let shift = 0;
  let c: number;
  do {
    if (at.pos >= delta.length || shift > 49) throw new PackError("A delta is cut short.");
    c = delta[at.pos++];
    value += (c & 0x7f) * 2 ** shift;
    shift += 7;
  } while (c & 0x80);
  return value;
}

/** Applies a Git delta to its base (both bounded: every copy stays inside the base and the declared result). */
export function applyDelta(base: Buffer, delta: Buffer, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  const at = { pos: 0 };
  const sourceSize = readVarint(delta, at);
  if (sourceSize !== base.length) throw new PackError(`A delta expects a base of ${sourceSize} bytes, not ${base.length}.`);
  const targetSize = readVarint(delta, at);
  if (targetSize > maxBytes) throw new PackError(`A delta makes an object of ${targetSize} bytes, more than the limit of ${maxBytes}.`);
  const out = Buffer.allocUnsafe(targetSize);
  let written = 0;
  while (at.pos < delta.length) {
    const op = delta[at.pos++];
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += delta[at.pos++] * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) size += delta[at.pos++] * 2 ** (8 * bit);
      if (size === 0) size = 0x10000;
      if (at.pos > delta.length || offset + size > base.length || written + size > targetSize) throw new PackError("A delta copies outside its base or its result.");
      base.copy(out, written, offset, offset + size);
      written += size;
    } else if (op) {
      if (at.pos + op > delta.length || written + op > targetSize) throw new PackError("A delta inserts past its end or its result.");
      delta.copy(out, written, at.pos, at.pos + op);
      at.pos += op;
      written += op;
    } else throw new PackError("A delta has the reserved opcode 0.");
  }
  if (written !== targetSize) throw new PackError(`A delta made ${written} bytes, not the ${targetSize} it declares.`);
  return out;
}

/** Gives the event loop a turn once `everyMs` of synchronous work has passed (inflating a pack takes seconds). */
export function yielder(everyMs = 20): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = Date.now();
  };
}

export interface IndexOptions {
  /** Largest object (inflated, or made by a delta) accepted. */
  maxObjectBytes: number;
  /** A delta's base that is not in the pack (a thin pack): read from the store it is fetched into. */
  externalBase?: (oid: string) => GitObject | null;
  /** The trailing checksum was already checked (as the pack arrived). */
  checksumChecked?: boolean;
  /** Objects inflated on the way are kept here by id, up to `bytes` in all (the job reads them next). */
  keep?: { into: Map<string, GitObject>; bytes: number };
}

/**
 * The version-2 index (`.idx`) of a whole packfile in memory, checking it on the way: its trailing
 * checksum, that its objects fill it exactly, every delta resolvable. Gives the index and the pack's id.
 */
export async function indexPack(pack: Buffer, options: IndexOptions): Promise<{ idx: Buffer; packId: string; objects: number }> {
  const pause = yielder();
  if (pack.length < 32 || pack.toString("latin1", 0, 4) !== "PACK") throw new PackError("The answer is not a Git packfile.");
  const version = pack.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw new PackError(`Packfile version ${version} is not supported.`);
  const count = pack.readUInt32BE(8);
  const end = pack.length - 20;
  const trailer = pack.subarray(end);
  if (!options.checksumChecked && !createHash("sha1").update(pack.subarray(0, end)).digest().equals(trailer)) throw new PackError("The packfile's checksum does not match its content.");
  // Every entry takes at least 2 bytes of header and 8 of zlib stream.
  if (count > (end - 12) / 10) throw new PackError(`The packfile declares ${count} objects, more than it can hold.`);

  let kept = 0;
  const keep = (oid: Buffer, type: ObjectType, data: Buffer) => {
    if (!options.keep || kept + data.length > options.keep.bytes) return;
    kept += data.length;
    options.keep.into.set(oid.toString("hex"), { type, data });
  };
  const offsets = new Float64Array(count);
  const crcs = new Uint32Array(count);
  const oids: Array<Buffer | undefined> = new Array(count);
  /** Delta entries by their base: a base's offset, or its id (hex). */
  const byBaseOffset = new Map<number, number[]>();
  const byBaseOid = new Map<string, number[]>();
  const indexOfOffset = new Map<number, number>();
  const headers: EntryHeader[] = new Array(count);
  let pos = 12;
  for (let i = 0; i < count; i++) {
    await pause();
    if (pos >= end) throw new PackError(`The packfile ends before its object ${i + 1} of ${count}.`);
    const header = entryHeader(pack, pos);
    if (header.size > options.maxObjectBytes) throw new PackError(`The packfile holds an object of ${header.size} bytes, more than the limit of ${options.maxObjectBytes}.`);
    const { data, used } = inflateAt(pack.subarray(header.dataStart, end), header.size, `The pack entry at ${pos}`);
    const next = header.dataStart + used;
    offsets[i] = pos;
    crcs[i] = zlib.crc32(pack.subarray(pos, next));
    indexOfOffset.set(pos, i);
    headers[i] = header;
    if (header.type === OFS_DELTA) {
      const list = byBaseOffset.get(header.baseOffset!);
      if (list) list.push(i);
      else byBaseOffset.set(header.baseOffset!, [i]);
    } else if (header.type === REF_DELTA) {
      const key = header.baseOid!.toString("hex");
      const list = byBaseOid.get(key);
      if (list) list.push(i);
      else byBaseOid.set(key, [i]);
    } else {
      oids[i] = objectId(TYPES[header.type], data);
      keep(oids[i]!, TYPES[header.type], data);
    }
    pos = next;
  }
  if (pos !== end) throw new PackError("The packfile has bytes after its last object.");
  for (const base of byBaseOffset.keys()) if (!indexOfOffset.has(base)) throw new PackError(`A delta's base at ${base} is no object of the pack.`);

  // Deltas resolved depth first from each base, each base inflated again only while its deltas are made.
  const inflateEntry = (i: number) => inflateAt(pack.subarray(headers[i].dataStart, end), headers[i].size, `The pack entry at ${offsets[i]}`).data;
  const resolveChildren = async (type: ObjectType, data: Buffer, i: number | null, oid: Buffer): Promise<void> => {
    const children = [...(i !== null ? (byBaseOffset.get(offsets[i]) ?? []) : []), ...(byBaseOid.get(oid.toString("hex")) ?? [])];
    byBaseOid.delete(oid.toString("hex"));
    for (const child of children) {
      if (oids[child]) continue;
      await pause();
      const result = applyDelta(data, inflateEntry(child), options.maxObjectBytes);
      oids[child] = objectId(type, result);
      keep(oids[child]!, type, result);
      await resolveChildren(type, result, child, oids[child]!);
    }
  };
  for (let i = 0; i < count; i++) {
    if (headers[i].type === OFS_DELTA || headers[i].type === REF_DELTA) continue;
    if (!byBaseOffset.has(offsets[i]) && !byBaseOid.has(oids[i]!.toString("hex"))) continue;
    await resolveChildren(TYPES[headers[i].type], inflateEntry(i), i, oids[i]!);
  }
  // Bases outside the pack (thin packs: not asked for, but allowed by the protocol).
  for (const [key] of [...byBaseOid]) {
    const base = options.externalBase?.(key);
    if (!base) continue;
    await resolveChildren(base.type, base.data, null, Buffer.from(key, "hex"));
  }
  for (let i = 0; i < count; i++) if (!oids[i]) throw new PackError(`The packfile's object at ${offsets[i]} is a delta whose base is missing.`);

  // The index: fan-out, sorted ids, CRC-32s, 31-bit offsets (larger ones in a table of 64-bit offsets), checksums.
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => Buffer.compare(oids[a]!, oids[b]!));
  const large = order.filter((i) => offsets[i] >= 0x80000000);
  const idx = Buffer.alloc(8 + 256 * 4 + count * 28 + large.length * 8 + 40);
  idx.writeUInt32BE(0xff744f63, 0);
  idx.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const i of order) fanout[oids[i]![0]]++;
  let sum = 0;
  for (let b = 0; b < 256; b++) idx.writeUInt32BE((sum += fanout[b]), 8 + b * 4);
  let at = 8 + 1024;
  for (const i of order) at += oids[i]!.copy(idx, at);
  for (const i of order) at = idx.writeUInt32BE(crcs[i], at);
  let nextLarge = 0;
  for (const i of order) at = idx.writeUInt32BE(offsets[i] >= 0x80000000 ? (0x80000000 | nextLarge++) >>> 0 : offsets[i], at);
  for (const i of large) at = idx.writeBigUInt64BE(BigInt(offsets[i]), at);
  at += trailer.copy(idx, at);
  createHash("sha1").update(idx.subarray(0, at)).digest().copy(idx, at);
  return { idx, packId: trailer.toString("hex"), objects: count };
}

/** A pack of the store, read through its version-2 index with positional reads. */
class PackFile {
  private fd: number | null = null;
  private readonly count: number;
  /** Resolved objects by offset that deltas were made from: bounded (see BASE_CACHE_BYTES). */
  private readonly bases = new Map<number, GitObject>();
  private baseBytes = 0;
  private readonly size: number;

  constructor(
    private readonly path: string,
    private readonly idx: Buffer,
    private readonly maxObjectBytes: number,
  ) {
    if (idx.length < 8 + 1024 + 40 || idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) throw new PackError(`${path}: not a version-2 pack index.`);
    this.count = idx.readUInt32BE(8 + 255 * 4);
    if (idx.length < 8 + 1024 + this.count * 28 + 40) throw new PackError(`${path}: the pack index is cut short.`);
    this.size = fs.statSync(path).size;
  }

  /** The offset of `oid` in the pack, or -1. */
  find(oid: Buffer): number {
    const first = oid[0];
    let lo = first === 0 ? 0 : this.idx.readUInt32BE(8 + (first - 1) * 4);
    let hi = this.idx.readUInt32BE(8 + first * 4);
    const ids = 8 + 1024;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = this.idx.compare(oid, 0, 20, ids + mid * 20, ids + mid * 20 + 20);
      if (cmp === 0) return this.offsetAt(mid);
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  private offsetAt(i: number): number {
    const table = 8 + 1024 + this.count * 24;
    const value = this.idx.readUInt32BE(table + i * 4);
    if (!(value & 0x80000000)) return value;
    return Number(this.idx.readBigUInt64BE(table + this.count * 4 + (value & 0x7fffffff) * 8));
  }

  private readRange(start: number, length: number): Buffer {
    if (this.fd === null) this.fd = fs.openSync(this.path, "r");
    const len = Math.max(0, Math.min(length, this.size - 20 - start));
    const buf = Buffer.allocUnsafe(len);
    let done = 0;
    while (done < len) {
      const n = fs.readSync(this.fd, buf, done, len - done, start + done);
      if (n === 0) break;
      done += n;
    }
    return buf.subarray(0, done);
  }

  /** The object at `offset`, its deltas applied (a base by id comes from `store`). */
  readAt(offset: number, store: ObjectStore, depth = 0): GitObject {
    const cached = this.bases.get(offset);
    if (cached) return cached;
    if (depth > 10_000) throw new PackError(`${this.path}: a delta chain is too long.`);
    const head = this.readRange(offset, 32);
    const header = entryHeader(head, offset, offset);
    if (header.size > this.maxObjectBytes) throw new PackError(`${this.path}: an object of ${header.size} bytes is over the limit of ${this.maxObjectBytes}.`);
    const input = this.readRange(header.dataStart, deflateBound(header.size));
    const { data } = inflateAt(input, header.size, `${this.path} at ${offset}`);
    if (header.type !== OFS_DELTA && header.type !== REF_DELTA) return { type: TYPES[header.type], data };
    let base: GitObject | null;
    if (header.type === OFS_DELTA) base = this.readAt(header.baseOffset!, store, depth + 1);
    else base = store.read(header.baseOid!.toString("hex"));
    if (!base) throw new PackError(`${this.path}: the base of the delta at ${offset} is missing.`);
    if (header.type === OFS_DELTA) this.keepBase(header.baseOffset!, base);
    return { type: base.type, data: applyDelta(base.data, data, this.maxObjectBytes) };
  }

  private keepBase(offset: number, object: GitObject): void {
    if (this.bases.has(offset) || object.data.length > BASE_CACHE_BYTES / 4) return;
    this.bases.set(offset, object);
    this.baseBytes += object.data.length;
    for (const [key, value] of this.bases) {
      if (this.baseBytes <= BASE_CACHE_BYTES) break;
      this.bases.delete(key);
      this.baseBytes -= value.data.length;
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    this.bases.clear();
    this.baseBytes = 0;
  }
}

/** Bytes of delta bases a pack keeps resolved while a job reads it. */
const BASE_CACHE_BYTES = 32 * 1024 * 1024;
const HEX_OID = /^[0-9a-f]{40}$/;

/** The objects of a bare repository (packs with version-2 indexes, loose objects), read one at a time. */
export class ObjectStore {
  private packs = new Map<string, PackFile>();
  /** Objects a fetch just inflated (indexPack's `keep`): read from memory, a blob once. */
  readonly preloaded = new Map<string, GitObject>();

  constructor(
    readonly gitdir: string,
    private readonly maxObjectBytes = 2 ** 31 - 1,
  ) {}

  /** Looks at the pack directory again (after a fetch added a pack). */
  refresh(): void {
    const dir = join(this.gitdir, "objects", "pack");
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((name) => name.endsWith(".idx"));
    } catch {
      names = [];
    }
    for (const name of names) {
      if (this.packs.has(name)) continue;
      const packPath = join(dir, name.replace(/\.idx$/, ".pack"));
      if (!fs.existsSync(packPath)) continue;
      this.packs.set(name, new PackFile(packPath, fs.readFileSync(join(dir, name)), this.maxObjectBytes));
    }
  }

  /** The object `oid` (40 hex digits), or null when the store does not have it. */
  read(oid: string): GitObject | null {
    if (!HEX_OID.test(oid)) return null;
    const early = this.preloaded.get(oid);
    if (early) {
      if (early.type === "blob") this.preloaded.delete(oid);
      return early;
    }
    if (!this.packs.size) this.refresh();
    const found = this.fromPacks(oid) ?? this.loose(oid);
    if (found) return found;
    this.refresh();
    return this.fromPacks(oid);
  }

  has(oid: string): boolean {
    if (!HEX_OID.test(oid)) return false;
    if (this.preloaded.has(oid)) return true;
    if (fs.existsSync(join(this.gitdir, "objects", oid.slice(0, 2), oid.slice(2)))) return true;
    const id = Buffer.from(oid, "hex");
    this.refresh();
    for (const pack of this.packs.values()) if (pack.find(id) >= 0) return true;
    return false;
  }

  private fromPacks(oid: string): GitObject | null {
    const id = Buffer.from(oid, "hex");
    for (const pack of this.packs.values()) {
      const offset = pack.find(id);
      if (offset >= 0) return pack.readAt(offset, this);
    }
    return null;
  }

  private loose(oid: string): GitObject | null {
    let raw: Buffer;
    try {
      raw = fs.readFileSync(join(this.gitdir, "objects", oid.slice(0, 2), oid.slice(2)));
    } catch {
      return null;
    }
    const all = zlib.inflateSync(raw);
    const nul = all.indexOf(0);
    const [type, size] = all.toString("latin1", 0, nul).split(" ");
    if (!["commit", "tree", "blob", "tag"].includes(type) || Number(size) !== all.length - nul - 1) throw new PackError(`The loose object ${oid} is malformed.`);
    return { type: type as ObjectType, data: all.subarray(nul + 1) };
  }

  /** The object `oid`, which must be of `type`. */
  readTyped(oid: string, type: ObjectType): Buffer {
    const object = this.read(oid);
    if (!object) throw new PackError(`The object ${oid} is missing from the store.`);
    if (object.type !== type) throw new PackError(`The object ${oid} is a ${object.type}, not a ${type}.`);
    return object.data;
  }

  close(): void {
    for (const pack of this.packs.values()) pack.close();
    this.packs.clear();
    this.preloaded.clear();
  }
}

export interface TreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: "blob" | "tree" | "commit";
}

/** An entry name Git (and isomorphic-git) refuses in a tree: separators, `.`, `..`, `.git` in any spelling (NTFS, HFS+). */
export class UnsafeTreeEntryError extends Error {}

/** A tree's entries, refusing unsafe names as isomorphic-git's GitTree does. */
export function parseTree(buffer: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let cursor = 0;
  while (cursor < buffer.length) {
    const space = buffer.indexOf(32, cursor);
    const nul = buffer.indexOf(0, cursor);
    if (space < 0 || nul < 0 || space > nul || nul + 21 > buffer.length) throw new PackError(`A tree is malformed at byte ${cursor}.`);
    let mode = buffer.toString("utf8", cursor, space);
    if (mode === "40000") mode = "040000";
    const type = mode === "040000" ? "tree" : mode === "100644" || mode === "100755" || mode === "120000" ? "blob" : mode === "160000" ? "commit" : null;
    if (!type) throw new PackError(`A tree entry has the unexpected mode ${mode}.`);
    const path = buffer.toString("utf8", space + 1, nul);
    const hfsClean = path.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, "");
    const normalized = hfsClean.split(":")[0].toLowerCase().replace(/[. ]+$/, "");
    if (path.includes("\\") || path.includes("/") || hfsClean === "." || hfsClean === ".." || normalized === ".git" || /^\.?git~[1-9]$/.test(normalized)) {
      throw new UnsafeTreeEntryError(path);
    }
    entries.push({ mode, path, oid: buffer.toString("hex", nul + 1, nul + 21), type });
    cursor = nul + 21;
  }
  return entries;
}

export interface CommitInfo {
  tree: string;
  parents: string[];
  authorEmail: string;
  message: string;
}

/** The fields of a commit this service uses. */
export function parseCommit(buffer: Buffer): CommitInfo {
  const text = buffer.toString("utf8");
  const split = text.indexOf("\n\n");
  const head = split < 0 ? text : text.slice(0, split);
  const info: CommitInfo = { tree: "", parents: [], authorEmail: "", message: split < 0 ? "" : text.slice(split + 2) };
  for (const line of head.split("\n")) {
    if (line.startsWith(" ")) continue;
    const at = line.indexOf(" ");
    const key = line.slice(0, at);
    const value = line.slice(at + 1);
    if (key === "tree" && !info.tree) info.tree = value;
    else if (key === "parent") info.parents.push(value);
    else if (key === "author" && !info.authorEmail) info.authorEmail = /<([^>]*)>/.exec(value)?.[1] ?? "";
  }
  if (!HEX_OID.test(info.tree)) throw new PackError("A commit has no tree.");
  return info;
}
