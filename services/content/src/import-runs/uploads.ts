// The files sent with an import run: each `source.files` entry is the file itself as a data URL
// (RFC 2397, `data:<type>;name=<file name>;base64,<bytes>`), checked and decoded before the run starts.
import { BadRequestError } from "@docshelf/errors";

export type UploadKind = "markdown" | "html" | "zip";

export interface Upload {
  /** The file's name: the data URL's `name` parameter, else `file-<n>` with the type's extension. */
  name: string;
  kind: UploadKind;
  bytes: Buffer;
}

const KIND_BY_TYPE: Record<string, UploadKind> = {
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/zip": "zip",
  "application/x-zip-compressed": "zip",
  "application/x-zip": "zip",
};
const EXTENSION: Record<UploadKind, string> = { markdown: "md", html: "html", zip: "zip" };
const ZIP_MAGIC = Buffer.from([0x50, 0x4b]);

function kindOfName(name: string): UploadKind | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension === "md" || extension === "markdown" || extension === "mdx") return "markdown";
  if (extension === "html" || extension === "htm" || extension === "xhtml") return "html";
  if (extension === "zip") return "zip";
  return undefined;
}

/** A file name as given, without folders or control characters, at most 255 characters. */
function cleanName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // kept as sent
  }
  return name.replace(/[\u0000-\u001f\u007f]/g, "").split(/[\\/]/).pop()!.trim().slice(0, 255);
}

/**
 * Decodes one `source.files[index]` entry. A user's mistake (not a data URL, not base64, a type the
 * import does not read) is a 400 naming `source.files[index]`; the bytes' size is checked by the caller.
 */
export function parseUpload(value: string, index: number): Upload {
  const field = `source.files[${index}]`;
  const match = /^data:([^,]*),/i.exec(value.slice(0, 1024));
  if (!match) throw new BadRequestError(`Invalid parameters: '${field}' must be the file as a data URL (data:<type>;name=<file name>;base64,<content>).`);
  const [type = "", ...parameters] = match[1].split(";").map((part) => part.trim());
  const base64 = parameters.some((p) => p.toLowerCase() === "base64");
  const nameParameter = parameters.find((p) => p.toLowerCase().startsWith("name="));
  const payload = value.slice(match[0].length);
  let bytes: Buffer;
  if (base64) {
    const compact = payload.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw new BadRequestError(`Invalid parameters: '${field}' is not valid base64.`);
    bytes = Buffer.from(compact, "base64");
  } else {
    try {
      bytes = Buffer.from(decodeURIComponent(payload), "utf8");
    } catch {
      throw new BadRequestError(`Invalid parameters: '${field}' is not valid percent-encoded text.`);
    }
  }
  const name = nameParameter ? cleanName(nameParameter.slice(5)) : "";
  const kind = KIND_BY_TYPE[type.toLowerCase()] ?? kindOfName(name) ?? (bytes.subarray(0, 2).equals(ZIP_MAGIC) ? "zip" : undefined);
  if (!kind) {
    throw new BadRequestError(`Invalid parameters: '${field}': only Markdown, HTML and ZIP files can be imported (give the type, e.g. data:text/markdown;name=guide.md;base64,…).`);
  }
  if (bytes.length === 0) throw new BadRequestError(`Invalid parameters: '${field}' is empty.`);
  return { name: name || `file-${index + 1}.${EXTENSION[kind]}`, kind, bytes };
}
