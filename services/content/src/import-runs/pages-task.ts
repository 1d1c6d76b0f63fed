// The worker-thread task of an import run (@docshelf/worker-pool): the uploaded files, ZIPs opened, turned
// into pages. A pure function of its input, so it runs off the event loop that answers requests; the
// limits of readZip (sizes, ratio, entries that share data, time budget) and of filePages hold as before.
// A refusal (a 400 naming the field) comes back as data: an Error's own fields do not cross threads.
import { ApiError } from "@docshelf/errors";
import { filePages, sourceFiles, type FilePagesResult } from "./file-pages";
import type { Upload } from "./uploads";
import type { ZipLimits } from "./zip";

export type FilePagesAnswer = ({ ok: true } & FilePagesResult) | { ok: false; message: string };

export async function filePagesTask(uploads: Upload[], limits: ZipLimits, maxPages: number): Promise<FilePagesAnswer> {
  // Buffers arrive as plain Uint8Arrays (structured clone): viewed as Buffers again, not copied.
  const files = uploads.map((upload) => ({ ...upload, bytes: Buffer.from(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength) }));
  try {
    return { ok: true, ...filePages(await sourceFiles(files, limits), maxPages) };
  } catch (err) {
    if (err instanceof ApiError && err.code === 400) return { ok: false, message: err.message };
    throw err;
  }
}
