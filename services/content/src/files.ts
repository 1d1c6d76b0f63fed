// File bytes on disk under DATA_DIR/content/files/<sha256>, and the signed capability tokens of download URLs.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync, type ReadStream } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export class FileStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    // The in-memory store (unit tests) still needs somewhere for bytes: a per-process temp dir.
    this.dir = dataDir === ":memory:" ? join(tmpdir(), `docshelf-files-${process.pid}`) : join(resolve(dataDir), "content", "files");
    mkdirSync(this.dir, { recursive: true });
  }

  /** Stores `bytes` under their SHA-256 (once: equal bytes share one file) and returns it. */
  put(bytes: Buffer): string {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const target = join(this.dir, sha256);
    if (!existsSync(target)) {
      const partial = `${target}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(partial, bytes);
      renameSync(partial, target);
    }
    return sha256;
  }

  has(sha256: string): boolean {
    return /^[0-9a-f]{64}$/.test(sha256) && existsSync(join(this.dir, sha256));
  }

  remove(sha256: string): void {
    if (this.has(sha256)) rmSync(join(this.dir, sha256), { force: true });
  }

  open(sha256: string): ReadStream {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("invalid file name");
    return createReadStream(join(this.dir, sha256));
  }
}

/**
 * A download token names the bytes (sha256) and the file's metadata, signed with the service's key:
 * whoever holds the URL may read that file, and nothing else can be derived from it.
 */
export interface FileClaims {
  sha256: string;
  name: string;
  contentType: string;
}

export function signFileToken(key: string, claims: FileClaims): string {
  const body = Buffer.from(JSON.stringify([claims.sha256, claims.name, claims.contentType])).toString("base64url");
  const mac = createHmac("sha256", key).update(body).digest("base64url");
  return `${body}.${mac}`;
}

export function verifyFileToken(key: string, token: string): FileClaims | null {
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined) return null;
  const expected = createHmac("sha256", key).update(body).digest();
  let given: Buffer;
  try {
    given = Buffer.from(mac, "base64url");
  } catch {
    return null;
  }
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [sha256, name, contentType] = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown[];
    if (typeof sha256 !== "string" || typeof name !== "string" || typeof contentType !== "string") return null;
    return { sha256, name, contentType };
  } catch {
    return null;
  }
}
