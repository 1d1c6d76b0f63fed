// Fetching one commit over Git's smart HTTP protocol (version 1, stateless, one request for the pack) into a bare
// store: the packfile is written to disk as it arrives (side-band demultiplexed, its checksum computed on the way),
// then indexed with native zlib and SHA-1 (pack.ts) instead of isomorphic-git's JavaScript inflate of every object.
// Asks for depth 1 when the server can (the tree at the commit, not the whole history), the store's branch heads
// as what it has. Every request goes through the job's HTTP client (git-http.ts: SSRF guard, timeout, size cap).
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { join } from "node:path";
import type { HttpClient } from "isomorphic-git";
import type { Credentials } from "./credentials";
import { indexPack, type GitObject, type ObjectStore } from "./pack";

/** The remote refused or broke the protocol; `status` is the HTTP status when there was one. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchTarget {
  url: string;
  credentials?: Credentials;
  http: HttpClient;
  gitdir: string;
}

export interface FetchOptions {
  /** Commits the store has (branch heads): the server leaves out what they reach. */
  haves: string[];
  /** 1: only the commit and its tree, when the server supports shallow fetches; undefined: the whole history. */
  depth?: number;
  /** Largest object accepted (inflated). */
  maxObjectBytes: number;
  /** The store, for a delta's base the pack does not hold; the objects inflated while indexing are handed to it (up to `keepBytes`). */
  store: ObjectStore;
  keepBytes?: number;
}

const AGENT = "git/docshelf-git-sync";

function pkt(line: string): Buffer {
  const body = Buffer.from(line, "utf8");
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0"), "latin1"), body]);
}

/** Headers of a request; the credentials only once the server asked for them (a 401), as isomorphic-git sends them. */
function baseHeaders(target: FetchTarget, withAuth: boolean): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": AGENT };
  if (withAuth && target.credentials) headers.authorization = `Basic ${Buffer.from(`${target.credentials.username}:${target.credentials.password}`).toString("base64")}`;
  return headers;
}

function statusError(status: number, what: string): FetchError {
  return new FetchError(`${what}: the Git server answered HTTP ${status}.`, status);
}

/** Reads pkt-lines from a stream of chunks: a line's payload, or null for a flush packet; undefined at the end. */
class PktReader {
  private chunks: Buffer[] = [];
  private length = 0;
  private done = false;
  private readonly iterator: AsyncIterator<Uint8Array>;

  constructor(body: AsyncIterableIterator<Uint8Array> | undefined) {
    this.iterator = (body ?? (async function* () {})())[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.length < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else {
        const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        this.chunks.push(chunk);
        this.length += chunk.length;
      }
    }
    return this.length >= n;
  }

  private take(n: number): Buffer {
    const first = this.chunks[0];
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const all = Buffer.concat(this.chunks, this.length);
      out = all.subarray(0, n);
      this.chunks = all.length > n ? [all.subarray(n)] : [];
    }
    this.length -= n;
    return out;
  }

  /** What is left of the stream, as it arrives (a pack sent without side-band). */
  async *rest(): AsyncGenerator<Buffer> {
    const held = this.chunks;
    this.chunks = [];
    this.length = 0;
    yield* held;
    while (!this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
  }

  async next(): Promise<Buffer | null | undefined> {
    if (!(await this.fill(4))) {
      if (this.length) throw new FetchError("The Git server's answer was cut short.");
      return undefined;
    }
    const size = Number.parseInt(this.take(4).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 1 || size === 2 || size === 3 || size > 65520) throw new FetchError("The Git server's answer is not Git's protocol.");
    if (size === 0) return null;
    if (!(await this.fill(size - 4))) throw new FetchError("The Git server's answer was cut short.");
    return this.take(size - 4);
  }
}

interface Advertisement {
  refs: Map<string, string>;
  capabilities: Set<string>;
  withAuth: boolean;
}

/** The upload-pack service's refs and capabilities (protocol version 1), and whether it asked for the credentials. */
async function discover(target: FetchTarget): Promise<Advertisement> {
  const url = `${target.url.replace(/\/+$/, "")}/info/refs?service=git-upload-pack`;
  let withAuth = false;
  let res = await target.http.request({ url, method: "GET", headers: baseHeaders(target, false) });
  if ((res.statusCode === 401 || res.statusCode === 203) && target.credentials) {
    for await (const _ of res.body ?? []) void _;
    withAuth = true;
    res = await target.http.request({ url, method: "GET", headers: baseHeaders(target, true) });
  }
  if (res.statusCode !== 200) {
    for await (const _ of res.body ?? []) void _;
    throw statusError(res.statusCode === 203 ? 401 : res.statusCode, "Reading the repository's branches failed");
  }
  if (!/^application\/x-git-upload-pack-advertisement\b/.test(res.headers?.["content-type"] ?? "")) throw new FetchError("The server does not speak Git's smart HTTP protocol (not a Git repository URL?).");
  const reader = new PktReader(res.body);
  const refs = new Map<string, string>();
  const capabilities = new Set<string>();
  let first = true;
  for (;;) {
    const line = await reader.next();
    if (line === undefined) break;
    if (line === null) continue;
    let text = line.toString("utf8").replace(/\n$/, "");
    if (text.startsWith("# service=")) continue;
    if (text.startsWith("ERR ")) throw new FetchError(`The Git server refused: ${text.slice(4, 200)}`);
    if (first) {
      const nul = text.indexOf("\0");
      if (nul >= 0) {
        for (const cap of text.slice(nul + 1).split(" ")) if (cap) capabilities.add(cap);
        text = text.slice(0, nul);
      }
      first = false;
    }
    const [oid, name] = text.split(" ");
    if (name && /^[0-9a-f]{40}$/.test(oid)) refs.set(name, oid);
  }
  return { refs, capabilities, withAuth };
}

function readShallow(gitdir: string): Set<string> {
  try {
    return new Set(fs.readFileSync(join(gitdir, "shallow"), "utf8").split("\n").filter((l) => /^[0-9a-f]{40}$/.test(l)));
  } catch {
    return new Set();
  }
}

/**
 * Fetches commit `oid` (the head of `ref` on the server) with what it needs into the store: writes
 * `objects/pack/pack-<id>.pack` and its `.idx`, the `shallow` file when the fetch was shallow, and
 * `refs/remotes/origin/<branch>`. The server must still advertise the commit on some branch.
 */
export async function fetchCommit(target: FetchTarget, ref: string, oid: string, options: FetchOptions): Promise<{ shallow: boolean; objects: number }> {
  const advertised = await discover(target);
  if (![...advertised.refs.values()].includes(oid)) throw new FetchError(`The branch ${ref} moved on the Git server while it was read; try again.`);
  const caps = advertised.capabilities;
  const sideBand = caps.has("side-band-64k") ? "side-band-64k" : caps.has("side-band") ? "side-band" : null;
  const shallowOk = caps.has("shallow");
  const depth = options.depth && shallowOk ? options.depth : undefined;
  const wanted = [sideBand, caps.has("ofs-delta") ? "ofs-delta" : null, caps.has("no-progress") ? "no-progress" : null, shallowOk ? "shallow" : null, `agent=${AGENT.slice(4)}`].filter(Boolean);
  const shallows = shallowOk ? readShallow(target.gitdir) : new Set<string>();
  const haves = [...new Set(options.haves)].filter((h) => h !== oid);
  const parts = [pkt(`want ${oid} ${wanted.join(" ")}\n`)];
  for (const s of shallows) parts.push(pkt(`shallow ${s}\n`));
  if (depth) parts.push(pkt(`deepen ${depth}\n`));
  parts.push(Buffer.from("0000", "latin1"));
  for (const h of haves) parts.push(pkt(`have ${h}\n`));
  parts.push(pkt("done\n"));
  const body = Buffer.concat(parts);

  const res = await target.http.request({
    url: `${target.url.replace(/\/+$/, "")}/git-upload-pack`,
    method: "POST",
    headers: { ...baseHeaders(target, advertised.withAuth), "content-type": "application/x-git-upload-pack-request", accept: "application/x-git-upload-pack-result" },
    body: (async function* () {
      yield new Uint8Array(body.buffer, body.byteOffset, body.length);
    })(),
  });
  if (res.statusCode !== 200) {
    for await (const _ of res.body ?? []) void _;
    throw statusError(res.statusCode, "Fetching the repository failed");
  }
  const reader = new PktReader(res.body);
  // The shallow update (only after `deepen`), then the acknowledgement of `done` (ACK or NAK).
  const shallowAdd: string[] = [];
  const shallowRemove: string[] = [];
  if (depth) {
    for (;;) {
      const line = await reader.next();
      if (line === undefined) throw new FetchError("The Git server's answer ended before the pack.");
      if (line === null) break;
      const text = line.toString("utf8").trim();
      if (text.startsWith("shallow ")) shallowAdd.push(text.slice(8));
      else if (text.startsWith("unshallow ")) shallowRemove.push(text.slice(10));
      else if (text.startsWith("ERR ")) throw new FetchError(`The Git server refused: ${text.slice(4, 200)}`);
      else throw new FetchError("The Git server's shallow answer is not Git's protocol.");
    }
  }

  const packDir = join(target.gitdir, "objects", "pack");
  fs.mkdirSync(packDir, { recursive: true });
  const tmp = join(packDir, `tmp-${randomBytes(8).toString("hex")}.pack`);
  const file = await fs.promises.open(tmp, "w");
  const hash = createHash("sha1");
  /** The last 20 bytes so far: the checksum of everything before, so held back from the hash until more arrives. */
  let held = Buffer.alloc(0);
  let received = 0;
  /** Written in pieces of about 1 MiB (side-band packets are 64 KiB at most). */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    const data = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await file.write(data);
  };
  const writePack = async (data: Buffer) => {
    if (data.length >= 20) {
      hash.update(held);
      hash.update(data.subarray(0, data.length - 20));
      held = Buffer.from(data.subarray(data.length - 20));
    } else {
      const joined = Buffer.concat([held, data]);
      hash.update(joined.subarray(0, joined.length - 20 > 0 ? joined.length - 20 : 0));
      held = Buffer.from(joined.subarray(Math.max(0, joined.length - 20)));
    }
    received += data.length;
    pending.push(data);
    pendingBytes += data.length;
    if (pendingBytes >= 1024 * 1024) await flush();
  };
  try {
    let acknowledged = false;
    for (;;) {
      const line = await reader.next();
      if (line === undefined) break;
      if (line === null) {
        if (sideBand) break;
        continue;
      }
      if (!acknowledged) {
        const text = line.toString("latin1", 0, Math.min(line.length, 200));
        if (text.startsWith("NAK") || text.startsWith("ACK ")) {
          acknowledged = true;
          if (!sideBand) {
            // Without side-band the pack follows as raw bytes.
            for await (const chunk of reader.rest()) await writePack(chunk);
            break;
          }
          continue;
        }
        if (text.startsWith("ERR ")) throw new FetchError(`The Git server refused: ${text.slice(4).trim()}`);
      }
      if (!sideBand) throw new FetchError("The Git server's answer is not Git's protocol.");
      const channel = line[0];
      if (channel === 1) await writePack(line.subarray(1));
      else if (channel === 3) throw new FetchError(`The Git server failed: ${line.toString("utf8", 1, Math.min(line.length, 300)).trim()}`);
      else if (channel !== 2) throw new FetchError("The Git server's answer is not Git's protocol.");
    }
    await flush();
    await file.close();
    if (received < 32) throw new FetchError("The Git server sent no packfile.");
    const trailer = held;
    if (!hash.digest().equals(trailer)) throw new FetchError("The packfile's checksum does not match its content (the transfer was corrupted).");
    const packId = trailer.toString("hex");
    let objects = 0;
    const packPath = join(packDir, `pack-${packId}.pack`);
    if (received > 32 && !fs.existsSync(join(packDir, `pack-${packId}.idx`))) {
      const pack = await fs.promises.readFile(tmp);
      const inflated = new Map<string, GitObject>();
      const indexed = await indexPack(pack, {
        maxObjectBytes: options.maxObjectBytes,
        checksumChecked: true,
        ...(options.keepBytes ? { keep: { into: inflated, bytes: options.keepBytes } } : {}),
        externalBase: (base) => options.store.read(base),
      });
      objects = indexed.objects;
      fs.renameSync(tmp, packPath);
      const idxTmp = join(packDir, `tmp-${randomBytes(8).toString("hex")}.idx`);
      fs.writeFileSync(idxTmp, indexed.idx);
      // The index last: a pack is found through its index.
      fs.renameSync(idxTmp, join(packDir, `pack-${packId}.idx`));
      // Only once the pack is in the store.
      for (const [oid, object] of inflated) options.store.preloaded.set(oid, object);
    }
    if (depth || shallowAdd.length || shallowRemove.length) {
      const next = readShallow(target.gitdir);
      for (const s of shallowAdd) next.add(s);
      for (const s of shallowRemove) next.delete(s);
      if (next.size) fs.writeFileSync(join(target.gitdir, "shallow"), [...next].map((s) => `${s}\n`).join(""));
      else fs.rmSync(join(target.gitdir, "shallow"), { force: true });
    }
    const branch = ref.replace(/^refs\/heads\//, "");
    const refPath = join(target.gitdir, "refs", "remotes", "origin", ...branch.split("/"));
    fs.mkdirSync(join(refPath, ".."), { recursive: true });
    fs.writeFileSync(refPath, `${oid}\n`);
    return { shallow: Boolean(depth), objects };
  } finally {
    await file.close().catch(() => undefined);
    fs.rmSync(tmp, { force: true });
  }
}
