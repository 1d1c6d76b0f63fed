// Content-addressed bytes (uploaded files): on disk beside the embedded store, or in GridFS beside the
// MongoDB collections, so that replicas of a service share them without a shared volume.
import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import mongoose from "mongoose";

const SHA256 = /^[0-9a-f]{64}$/;

export interface BlobStore {
  readonly kind: "disk" | "gridfs";
  /** Stores `bytes` under their SHA-256 (once: equal bytes share one blob) and returns it. */
  put(bytes: Buffer): Promise<string>;
  /** Whether a blob is stored under `sha256`; false for anything that is not a SHA-256. */
  has(sha256: string): Promise<boolean>;
  /** Removes the blob; nothing happens when there is none. */
  remove(sha256: string): Promise<void>;
  /** The blob's bytes as a stream; call `has` first (a missing blob fails the stream). */
  open(sha256: string): Readable;
}

export function sha256Of(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** fsyncs a directory, so a rename in it survives a power cut (where the file system allows it). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // not every file system lets a directory be fsynced
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Blobs as files named by their SHA-256 in one directory (written to a temp name, then renamed). */
export class DiskBlobStore implements BlobStore {
  readonly kind = "disk" as const;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = sha256Of(bytes);
    const target = join(this.dir, sha256);
    if (!existsSync(target)) {
      // Durable before it is named: written and fsynced under a temporary name, renamed, the directory fsynced.
      const partial = `${target}.${process.pid}.${Date.now()}.tmp`;
      const fd = openSync(partial, "wx");
      try {
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(partial, target);
      fsyncDir(this.dir);
    }
    return sha256;
  }

  async has(sha256: string): Promise<boolean> {
    return SHA256.test(sha256) && existsSync(join(this.dir, sha256));
  }

  async remove(sha256: string): Promise<void> {
    if (SHA256.test(sha256)) rmSync(join(this.dir, sha256), { force: true });
  }

  open(sha256: string): Readable {
    if (!SHA256.test(sha256)) throw new Error("invalid blob name");
    return createReadStream(join(this.dir, sha256));
  }
}

/**
 * Blobs in a GridFS bucket, the file named by its SHA-256. Two replicas storing equal bytes at the same
 * moment may both upload; a download takes either (they are equal) and `remove` deletes every copy.
 */
export class GridFsBlobStore implements BlobStore {
  readonly kind = "gridfs" as const;
  private readonly bucket: mongoose.mongo.GridFSBucket;

  constructor(db: mongoose.mongo.Db, bucketName: string) {
    this.bucket = new mongoose.mongo.GridFSBucket(db, { bucketName });
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = sha256Of(bytes);
    if (await this.has(sha256)) return sha256;
    await new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStream(sha256);
      upload.once("error", reject);
      upload.once("finish", () => resolve());
      upload.end(bytes);
    });
    return sha256;
  }

  async has(sha256: string): Promise<boolean> {
    if (!SHA256.test(sha256)) return false;
    // A file document whose upload finished: GridFS writes it after the last chunk.
    return (await this.bucket.find({ filename: sha256 }, { limit: 1 }).toArray()).length > 0;
  }

  async remove(sha256: string): Promise<void> {
    if (!SHA256.test(sha256)) return;
    for (const file of await this.bucket.find({ filename: sha256 }).toArray()) {
      await this.bucket.delete(file._id).catch((err: unknown) => {
        // Another replica removed it first.
        if (!/not found/i.test(String((err as Error)?.message))) throw err;
      });
    }
  }

  open(sha256: string): Readable {
    if (!SHA256.test(sha256)) throw new Error("invalid blob name");
    return this.bucket.openDownloadStreamByName(sha256);
  }
}

/** Sum of the sizes of the files under `dir` (symbolic links not followed); what vanishes meanwhile counts as 0. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) total += await stat(path).then((s) => s.size, () => 0);
    }
  }
  return total;
}
