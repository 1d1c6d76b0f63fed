// External file references with `repoTreeURL`: a page's relative link to a repository file that is
// neither a page nor an asset (`../src/index.js`) points nowhere once the page lives in a space, so
// import rewrites it to `<repoTreeURL>/<repository path>` and export writes it back as a relative path.
import { posix } from "node:path";
import { unsafePathReason } from "./paths";

/** Inline links and images, `[text](href "title")`; reference definitions and autolinks are left alone. */
const LINK = /(!?\[[^\]\n]*\]\()([^()\s]+)((?:\s+"[^"\n]*")?\))/g;
const FENCE = /^(```|~~~)/;

/** Applies `rewrite` to every inline link target outside fenced code blocks. */
function mapLinks(markdown: string, rewrite: (href: string) => string): string {
  let inFence = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (FENCE.test(line.trimStart())) {
        inFence = !inFence;
        return line;
      }
      if (inFence) return line;
      return line.replace(LINK, (whole, open: string, href: string, close: string) => {
        const next = rewrite(href);
        return next === href ? whole : `${open}${next}${close}`;
      });
    })
    .join("\n");
}

/** Whether an href names a file of the layout itself: a page (markdown) or an asset. */
function isLayoutFile(path: string): boolean {
  return /\.md$/i.test(path) || path.startsWith(".gitbook/") || path.includes("/.gitbook/");
}

function treePrefix(treeURL: string): string {
  return treeURL.replace(/\/+$/, "");
}

/**
 * Import: relative links of the page at `pagePath` (a repository path) to other repository files
 * become `<treeURL>/<path>`. Links to pages, assets, anchors, absolute URLs and anything climbing
 * out of the repository are kept as written.
 */
export function linksToTree(markdown: string, pagePath: string, treeURL: string): string {
  const prefix = treePrefix(treeURL);
  return mapLinks(markdown, (href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || /^[#<]/.test(href) || href.startsWith("//")) return href;
    const cut = href.search(/[?#]/);
    const pathPart = cut < 0 ? href : href.slice(0, cut);
    const rest = cut < 0 ? "" : href.slice(cut);
    if (!pathPart) return href;
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathPart);
    } catch {
      return href;
    }
    const base = posix.dirname(pagePath) === "." ? "" : posix.dirname(pagePath);
    const target = posix.normalize(decoded.startsWith("/") ? decoded.slice(1) : posix.join(base, decoded)).replace(/\/+$/, "");
    if (target === "." || target === ".." || target.startsWith("../") || unsafePathReason(target) || isLayoutFile(target)) return href;
    return `${prefix}/${target.split("/").map(encodeURIComponent).join("/")}${rest}`;
  });
}

/** Export: links under `<treeURL>/` written by import go back to paths relative to the page at `pagePath`. */
export function linksFromTree(markdown: string, pagePath: string, treeURL: string): string {
  const prefix = `${treePrefix(treeURL)}/`;
  return mapLinks(markdown, (href) => {
    if (!href.startsWith(prefix)) return href;
    const tail = href.slice(prefix.length);
    const cut = tail.search(/[?#]/);
    const pathPart = cut < 0 ? tail : tail.slice(0, cut);
    const rest = cut < 0 ? "" : tail.slice(cut);
    let target: string;
    try {
      target = decodeURIComponent(pathPart);
    } catch {
      return href;
    }
    if (!target || unsafePathReason(target)) return href;
    const base = posix.dirname(pagePath) === "." ? "" : posix.dirname(pagePath);
    const relative = posix.relative(base || ".", target);
    return `${relative.split("/").map((part) => (part === ".." ? part : encodeURIComponent(part))).join("/")}${rest}`;
  });
}
