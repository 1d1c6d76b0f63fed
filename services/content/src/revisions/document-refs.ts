// How the pages of a revision read and write GitBook's JSON document: Markdown links, images and
// `{% file %}` sources become `page`/`file`/`anchor` references to the revision's ids, and back;
// `{% include ".gitbook/includes/x.md" %}` a `reusable-content` reference to the one imported from that file.
import { posix } from "node:path";
import type { ContentRef, RefResolver } from "@docshelf/document";
import { slugify } from "@docshelf/slugs";
import { classifyLink } from "./links";
import { walk, type FileMeta, type PageNode, type ReusableContentMeta } from "./tree";

export interface RefIndex {
  byPath: Map<string, PageNode>;
  byId: Map<string, PageNode>;
  filesByName: Map<string, FileMeta>;
  filesById: Map<string, FileMeta>;
  /** Reusable contents by include file name (`x.md` of `.gitbook/includes/x.md`) and by id. */
  includesByName: Map<string, ReusableContentMeta>;
  includesById: Map<string, ReusableContentMeta>;
}

const INCLUDES = ".gitbook/includes/";

/** The file name an include is linked by: its imported file's, else its title's slug (as Git sync writes a new one). */
export function includeName(reusable: { title: string; git?: { path: string } }): string {
  if (reusable.git?.path) return posix.basename(reusable.git.path);
  return `${slugify(reusable.title, 100, "reusable-content")}.md`;
}

export function refIndex(pages: PageNode[], files: FileMeta[], reusableContents: ReusableContentMeta[] = []): RefIndex {
  const byPath = new Map<string, PageNode>();
  const byId = new Map<string, PageNode>();
  for (const { page } of walk(pages)) {
    byPath.set(page.path, page);
    byId.set(page.id, page);
  }
  const includesByName = new Map<string, ReusableContentMeta>();
  for (const r of reusableContents) if (!includesByName.has(includeName(r))) includesByName.set(includeName(r), r);
  return {
    byPath,
    byId,
    filesByName: new Map(files.map((f) => [f.name, f])),
    filesById: new Map(files.map((f) => [f.id, f])),
    includesByName,
    includesById: new Map(reusableContents.map((r) => [r.id, r])),
  };
}

/** The Markdown path from the page at `fromPath` to `target` (a page path or a file path), as the link resolver reads it. */
function relative(fromPath: string, target: string, suffix: string): string {
  const dir = posix.dirname(fromPath === "" ? "x" : fromPath);
  let rel = posix.relative(dir === "." ? "" : dir, target);
  if (rel === "") rel = posix.join("..", posix.basename(target));
  return encodeURI(rel + suffix);
}

/** The resolver for the body of the page at `fromPath`. `extraRefs` maps batch-local file refs (`./<ref>`) to file ids. */
export function documentResolver(index: RefIndex, fromPath: string, extraRefs?: Map<string, string>): RefResolver {
  return {
    toRef(href, use): ContentRef | undefined {
      if (use === "include") {
        // Include paths climb to the content root's `.gitbook/includes/` from wherever the page file is.
        const at = href.lastIndexOf(INCLUDES);
        const found = at >= 0 ? index.includesByName.get(safeDecode(href.slice(at + INCLUDES.length).split(/[?#]/, 1)[0])) : undefined;
        return found ? { kind: "reusable-content", reusableContent: found.id } : undefined;
      }
      const local = extraRefs?.get(href.replace(/^\.\//, ""));
      if (local) return { kind: "file", file: local };
      const found = classifyLink(href, fromPath, index, "");
      if (!found || found.status === "broken") return undefined;
      const hash = href.includes("#") ? href.slice(href.indexOf("#") + 1) : "";
      if (found.target.kind === "page" && hash) return { kind: "anchor", anchor: hash, page: found.target.page };
      if (found.target.kind === "url") return undefined;
      return found.target;
    },
    toHref(ref): string | undefined {
      if (ref.kind === "page" || (ref.kind === "anchor" && ref.page)) {
        const page = index.byId.get(ref.kind === "page" ? ref.page : (ref.page as string));
        if (!page || ref.space) return undefined;
        const href = page.path === "" ? "README.md" : relative(fromPath, page.path, ".md");
        return ref.kind === "anchor" ? `${href}#${ref.anchor}` : href;
      }
      if (ref.kind === "anchor") return `#${ref.anchor}`;
      if (ref.kind === "reusable-content") {
        const reusable = ref.space ? undefined : index.includesById.get(ref.reusableContent);
        return reusable ? relative(fromPath, `${INCLUDES}${includeName(reusable)}`, "") : undefined;
      }
      if (ref.kind === "file") {
        const file = index.filesById.get(ref.file);
        return file && !ref.space ? relative(fromPath, `.gitbook/assets/${file.name}`, "") : undefined;
      }
      return undefined;
    },
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
