// Compressed variants of the app's built files (the block editor's script and stylesheet under /app/assets/):
// they never change under a name (the name carries their hash) and hold no secret, so each is compressed once,
// with gzip and brotli at their best settings on libuv's thread pool (not the event loop), and the variants kept. Pages are not compressed here: an app page
// carries a CSRF token beside what the reader typed, which compression would leak (BREACH).
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { chooseEncoding } from "./edge-cache";

type Encoding = Parameters<Parameters<typeof chooseEncoding>[1]>[0];

/** Files smaller than this go out as they are (compression would barely pay for its header). */
const MIN_BYTES = 1024;
/** Built files are few; past this many names (a long-running gateway across many app builds) the oldest go. */
const MAX_ENTRIES = 32;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

interface Variants {
  gzip: Buffer;
  br: Buffer;
}

export interface StaticAnswer {
  body: Buffer;
  /** Set when the body is a compressed variant. */
  encoding?: Exclude<Encoding, "identity">;
}

/** Whether an app answer is a built file: a 200 cached as immutable. */
export function isImmutable(status: number, headers: Record<string, string | string[]>): boolean {
  if (status !== 200) return false;
  const cache = String(Object.entries(headers).find(([name]) => name.toLowerCase() === "cache-control")?.[1] ?? "");
  return /\bimmutable\b/.test(cache) && /\bpublic\b/.test(cache);
}

export class StaticCompressor {
  private readonly kept = new Map<string, { identity: Buffer; variants: Promise<Variants> }>();

  /**
   * The body to send for the built file at `path` to a client that accepts `acceptEncoding`: a compressed
   * variant when the client takes one and it is smaller, the file itself otherwise.
   */
  async answer(path: string, body: Buffer, acceptEncoding: string | string[] | undefined): Promise<StaticAnswer> {
    if (body.length < MIN_BYTES || chooseEncoding(acceptEncoding, () => true) === "identity") return { body };
    const variants = await this.variantsOf(path, body).catch(() => undefined);
    if (!variants) return { body };
    const encoding = chooseEncoding(acceptEncoding, (e) => e !== "identity" && variants[e].length < body.length);
    return encoding === "identity" ? { body } : { body: variants[encoding], encoding };
  }

  private variantsOf(path: string, body: Buffer): Promise<Variants> {
    const known = this.kept.get(path);
    // Same name, other bytes (two app builds side by side in a rolling upgrade never share a hashed name, but a
    // development build may): compress again rather than send another file's variant.
    if (known && known.identity.equals(body)) return known.variants;
    // Asked once per name, whoever asks meanwhile waits for the same work; a failure is not kept.
    const variants = Promise.all([
      gzipAsync(body, { level: 9 }),
      // Brotli's best quality takes about 2 s a megabyte: larger files get quality 5 (about 0.2 s a megabyte).
      brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: body.length > 1024 * 1024 ? 5 : 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ]).then(([gz, br]) => ({ gzip: gz, br }));
    variants.catch(() => {
      if (this.kept.get(path)?.variants === variants) this.kept.delete(path);
    });
    if (known) this.kept.delete(path);
    else if (this.kept.size >= MAX_ENTRIES) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
    this.kept.set(path, { identity: body, variants });
    return variants;
  }
}
