// Credentials in a repository URL: split off before anything is stored, sealed while a job waits,
// and scrubbed from every message that could reach a log, an error or an answer.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export interface Credentials {
  username: string;
  password: string;
}

export interface SplitUrl {
  /** The URL without userinfo: the only form ever stored, logged or returned. */
  url: string;
  credentials?: Credentials;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Parses an http(s) repository URL and separates its credentials; null when it is not one. */
export function splitRepoUrl(raw: string): SplitUrl | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
  const credentials = url.username || url.password ? { username: decode(url.username), password: decode(url.password) } : undefined;
  url.username = "";
  url.password = "";
  url.hash = "";
  return { url: url.href, ...(credentials ? { credentials } : {}) };
}

/** The repository's name (`owner/repo`) from its URL path. */
export function repoNameOf(url: string): string {
  const path = new URL(url).pathname.replace(/\/+$/, "").replace(/\.git$/, "");
  return path.split("/").filter(Boolean).slice(-2).join("/") || new URL(url).host;
}

/** Removes every credential (and any `user:pass@` userinfo) from a message. */
export function scrub(message: string, credentials?: Credentials): string {
  let out = message.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, "$1");
  for (const secret of [credentials?.password, credentials?.username]) {
    if (!secret || secret.length < 3) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64")])) out = out.split(form).join("***");
  }
  if (credentials) {
    const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64");
    out = out.split(basic).join("***");
  }
  return out;
}

/** AES-256-GCM under a key derived from the service secret: credentials of waiting jobs at rest. */
export class CredentialSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash("sha256").update(`docshelf-git-sync:${secret}`).digest();
  }

  seal(credentials: Credentials): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(credentials), "utf8"), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64")).join(".");
  }

  /** The credentials, or null when the sealed text is not ours (another key, tampered). */
  open(sealed: string): Credentials | null {
    try {
      const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64"));
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
      decipher.setAuthTag(tag);
      return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8")) as Credentials;
    } catch {
      return null;
    }
  }
}
