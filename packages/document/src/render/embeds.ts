// Embeds: a link card for any web URL; an iframe only for a few video providers whose embed URL we build
// ourselves from an id (never the author's URL), sandboxed. The sites' CSP lists the same hosts in frame-src.

export interface EmbedFrame {
  src: string;
  provider: string;
}

/** Hosts an embed iframe may load (each page's CSP `frame-src` names exactly these). */
export const EMBED_FRAME_HOSTS = ["www.youtube-nocookie.com", "player.vimeo.com", "www.loom.com"] as const;

/** The sandbox of every embed iframe: the players need scripts and their own origin, nothing else (no top navigation, forms or popups). */
export const EMBED_SANDBOX = "allow-scripts allow-same-origin allow-presentation";

const ID = /^[A-Za-z0-9_-]{6,64}$/;

/** The iframe for a URL of an allowed provider, or undefined (then the embed is a link card). */
export function embedFrame(url: string): EmbedFrame | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return undefined;
  const host = u.hostname.toLowerCase().replace(/^www\./, "").replace(/^m\./, "");
  const segments = u.pathname.split("/").filter(Boolean);
  let id: string | undefined;
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    id = u.pathname === "/watch" ? u.searchParams.get("v") ?? undefined : ["embed", "shorts", "live"].includes(segments[0]) ? segments[1] : undefined;
    if (id && ID.test(id)) return { src: `https://www.youtube-nocookie.com/embed/${id}`, provider: "YouTube" };
  } else if (host === "youtu.be") {
    id = segments[0];
    if (id && ID.test(id)) return { src: `https://www.youtube-nocookie.com/embed/${id}`, provider: "YouTube" };
  } else if (host === "vimeo.com" || host === "player.vimeo.com") {
    id = segments.find((s) => /^\d{3,12}$/.test(s));
    if (id) return { src: `https://player.vimeo.com/video/${id}`, provider: "Vimeo" };
  } else if (host === "loom.com") {
    id = ["share", "embed"].includes(segments[0]) ? segments[1] : undefined;
    if (id && /^[0-9a-f]{16,64}$/i.test(id)) return { src: `https://www.loom.com/embed/${id}`, provider: "Loom" };
  }
  return undefined;
}
