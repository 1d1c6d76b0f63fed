// How the pages of a revision read and write GitBook's JSON document: Markdown links, images and
// `{% file %}` sources become `page`/`file`/`anchor` references to the revision's ids, and back.
import { posix } from "node:path";
import type { ContentRef, RefResolver } from "@docshelf/document";
import { classifyLink } from "./links";
import { walk, type FileMeta, type PageNode } from "./tree";

export interface RefIndex {
  byPath: Map<string, PageNode>;
  byId: Map<string, PageNode>;
  filesByName: Map<string, FileMeta>;
  filesById: Map<string, FileMeta>;
}

export function refIndex(pages: PageNode[], files: FileMeta[]): RefIndex {
  const byPath = new Map<string, PageNode>();
  const byId = new Map<string, PageNode>();
  for (const { page } of walk(pages)) {
    byPath.set(page.path, page);
    byId.set(page.id, page);
  }
  return { byPath, byId, filesByName: new Map(files.map((f) => [f.name, f])), filesById: new Map(files.map((f) => [f.id, f])) };
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
      if (use === "include") return undefined;
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
      if (ref.kind === "file") {
        const file = index.filesById.get(ref.file);
        return file && !ref.space ? relative(fromPath, `.gitbook/assets/${file.name}`, "") : undefined;
      }
      return undefined;
    },
  };
}
