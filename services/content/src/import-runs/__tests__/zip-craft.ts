// Test helper: ZIP archives written byte by byte, so a test can make the directory say what an attacker
// would (entries sharing data, sizes that lie) where zip writers refuse to.
import { constants, deflateRawSync } from "node:zlib";

export interface CraftedData {
  /** The local header's name. */
  name: string;
  /** The entry's data as stored (already deflated when method is 8). */
  data: Uint8Array;
  method: 0 | 8;
}

export interface CraftedEntry {
  name: string;
  /** Index into the data records: which local header this directory entry points at. */
  record: number;
  /** The size the directory declares once decompressed. */
  size: number;
  /** Flags of the directory entry (bit 0: encrypted). */
  flags?: number;
  method?: number;
}

/** Local headers with their data, then a central directory whose entries point at them as told. */
export function craftZip(records: CraftedData[], entries: CraftedEntry[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const record of records) {
    const name = Buffer.from(record.name, "utf8");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x800, 6);
    header.writeUInt16LE(record.method, 8);
    header.writeUInt32LE(record.data.length, 18);
    header.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    parts.push(header, name, Buffer.from(record.data));
    offset += header.length + name.length + record.data.length;
  }
  const directoryStart = offset;
  for (const entry of entries) {
    const record = records[entry.record];
    const name = Buffer.from(entry.name, "utf8");
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x800 | (entry.flags ?? 0), 8);
    header.writeUInt16LE(entry.method ?? record.method, 10);
    header.writeUInt32LE(record.data.length, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offsets[entry.record], 42);
    parts.push(header, name);
    offset += header.length + name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - directoryStart, 12);
  end.writeUInt32LE(directoryStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/**
 * `mib` MiB of zeros as one raw deflate stream (about 1,000 to 1) without holding them: one MiB deflated
 * with a full flush (which resets the compressor, so every MiB gives the same bytes), repeated, then an
 * empty final block.
 */
export function deflatedZeros(mib: number): Buffer {
  const oneMib = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(mib).fill(oneMib), Buffer.from([0x03, 0x00])]);
}
