// GitBook's reusable content and variables in a repository, both ways: every `.gitbook/includes/*.md` of
// the content root is a reusable content (front matter `title`, the body its markdown), `.gitbook/vars.yaml`
// holds the space's variables and a page's front matter `vars` its own. An export writes a file only when
// what the space holds differs from what the file says, so an unchanged one stays byte for byte.
import type { GitBlob, GitReusableContent } from "@docshelf/contracts/content";
import { splitFrontMatter } from "@docshelf/document";
import { slugify as slugifyTitle } from "@docshelf/slugs";
import { posix } from "node:path";
import { Document, isMap, parseDocument, stringify as stringifyYaml } from "yaml";

export const INCLUDES_DIR = ".gitbook/includes";
export const VARS_FILE = ".gitbook/vars.yaml";

/** Content's rules for a variable (services/content revisions/change-rules.ts) and a reusable content. */
const VARIABLE_NAME = /^(?!__)[A-Za-z_][\w-]*$/;
const MAX_VARIABLE_NAME = 64;
const MAX_VARIABLE_VALUE = 256;
const MAX_TITLE = 256;
const MAX_MARKDOWN = 1024 * 1024;

/** A reusable content as content's git actions take and give it. */
export type TreeReusableContent = GitReusableContent;

/** The title and markdown of an include file: front matter `title` (else the file's name) and the body after it. */
export function readIncludeFile(text: string, path: string): { title: string; markdown: string } {
  const { data, body } = splitFrontMatter(text);
  const title = typeof data?.title === "string" && data.title.trim() ? data.title.trim() : posix.basename(path, ".md");
  return { title, markdown: body };
}

/** The include files of a content root (paths relative to it), as reusable contents; a problem is said with the file's path. */
export function readIncludes(files: Iterable<[string, { oid: string; data: Buffer }]>, repoPath: (rel: string) => string): TreeReusableContent[] {
  const out: TreeReusableContent[] = [];
  const sorted = [...files].filter(([rel]) => rel.startsWith(`${INCLUDES_DIR}/`) && /\.md$/i.test(rel)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [rel, file] of sorted) {
    const { title, markdown } = readIncludeFile(file.data.toString("utf8"), rel);
    if (markdown.length > MAX_MARKDOWN) throw new ReusableError(`The reusable content "${repoPath(rel)}" is longer than ${MAX_MARKDOWN} characters, content's limit for one.`);
    out.push({ title: title.slice(0, MAX_TITLE), markdown, git: { oid: file.oid, path: repoPath(rel) } });
  }
  return out;
}

/** A YAML mapping's scalar values as variables (numbers and booleans as written); `where` names the file in a problem. */
export function variablesOf(data: unknown, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (data === null || data === undefined) return out;
  if (typeof data !== "object" || Array.isArray(data)) throw new ReusableError(`${where} is not a mapping of variable names to values.`);
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    if (!VARIABLE_NAME.test(name) || name.length > MAX_VARIABLE_NAME) throw new ReusableError(`${where}: the variable name "${name.slice(0, 80)}" is not one a space takes (a letter or _ first, then letters, digits, _ or -; at most ${MAX_VARIABLE_NAME} characters).`);
    if (value !== null && typeof value === "object") throw new ReusableError(`${where}: the variable "${name}" is not a single value.`);
    const text = value === null || value === undefined ? "" : String(value);
    if (text.length > MAX_VARIABLE_VALUE) throw new ReusableError(`${where}: the value of "${name}" has ${text.length} characters; a variable takes at most ${MAX_VARIABLE_VALUE}.`);
    out[name] = text;
  }
  return out;
}

/** The variables of a `vars.yaml` text. */
export function readVariablesFile(text: string, path: string): Record<string, string> {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new ReusableError(`${path} is not valid YAML: ${doc.errors[0].message.split("\n")[0]}`);
  return variablesOf(doc.toJS({ maxAliasCount: 100 }), path);
}

function sameVariables(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}

/** A page front matter's `vars`, compared as an export reads it back. */
export function samePageVariables(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return sameVariables(a ?? {}, b ?? {});
}

/** Something in the repository's reusable content or variables a space cannot take. */
export class ReusableError extends Error {}

/** The file name a reusable content is written to and linked by: its file's, else its title's slug. */
export function includeFileName(reusable: { title: string; git?: GitBlob }): string {
  return reusable.git?.path ? posix.basename(reusable.git.path) : `${slugifyTitle(reusable.title, 100, "reusable-content")}.md`;
}

/** An include file's new text: its front matter kept as written unless the title changed, the body replaced. */
export function composeInclude(original: string | undefined, reusable: TreeReusableContent): string {
  if (original === undefined) return `---\n${stringifyYaml({ title: reusable.title }, { lineWidth: 0 })}---\n\n${reusable.markdown}`;
  const bom = original.startsWith("\uFEFF") ? "\uFEFF" : "";
  const source = original.slice(bom.length);
  const split = splitFrontMatter(source);
  const before = readIncludeFile(original, reusable.git?.path ?? "x.md");
  const fm = split.block !== null && source.startsWith(split.block) ? split.block : null;
  const gap = fm ? source.slice(fm.length, source.length - split.body.length) : "";
  let head = fm ?? "";
  if (before.title !== reusable.title) {
    const parsed = fm ? parseDocument(split.raw ?? "") : null;
    const doc: Document = parsed && isMap(parsed.contents) ? parsed : new Document({});
    doc.set("title", reusable.title);
    const eol = fm && /\r\n/.test(fm) ? "\r\n" : "\n";
    head = `---${eol}${doc.toString({ lineWidth: 0 }).replace(/\n$/, "").replace(/\r?\n/g, eol)}${eol}---${eol}`;
    if (!fm) head += eol;
  }
  return `${bom}${head}${gap}${reusable.markdown}`;
}

export interface ReusablePlanInput {
  reusableContents: TreeReusableContent[];
  variables: Record<string, string>;
  /** The content root, a repository path. */
  contentDir: string;
  /** The base commit's files (repository paths). */
  head: Map<string, unknown>;
  readText: (path: string) => Promise<string | undefined>;
  /**
   * The include files the space imported or wrote at its last sync with this repository, by reusable content id
   * (SyncState.reusable). Absent (no record, or one rebuilt from the branch): nothing is deleted.
   */
  recorded?: Record<string, { path: string }>;
}

export interface ReusablePlan {
  /** Files to write, by repository path. */
  writes: Map<string, Buffer>;
  /** Include files to remove: only ones the record names, of reusable contents the space no longer has (or moved). */
  deletes: Set<string>;
  /** The include file of each of the space's reusable contents after the export (SyncState.reusable). */
  record: Record<string, { path: string }>;
}

/**
 * What an export writes and deletes for the space's reusable contents and variables: only files whose text says
 * something else than the space (a new reusable content gets `<root>/.gitbook/includes/<slug>.md`). An include file
 * is deleted only when the record of the last sync says the space imported or wrote it for a reusable content the
 * space no longer has (deleting it in the space is the ask); any other file stays. A space with no variables leaves
 * `vars.yaml` as it is (it may never have read it).
 */
export async function planReusable(input: ReusablePlanInput): Promise<ReusablePlan> {
  const writes = new Map<string, Buffer>();
  const deletes = new Set<string>();
  const record: Record<string, { path: string }> = {};
  const includesDir = posix.join(input.contentDir, INCLUDES_DIR);
  // A reusable content imported from a file keeps it; one made in the space keeps the file an export wrote for it
  // while its name is still the one pages' includes use (content's includeName), else it moves.
  const keptPath = (r: TreeReusableContent): string | undefined => {
    if (r.git?.path && input.head.has(r.git.path)) return r.git.path;
    const before = r.id ? input.recorded?.[r.id]?.path : undefined;
    if (!r.git?.path && before && input.head.has(before) && posix.basename(before) === includeFileName(r) && posix.dirname(before) === includesDir) return before;
    return undefined;
  };
  const kept = new Map(input.reusableContents.map((r) => [r, keptPath(r)] as const));
  const keptPaths = new Set([...kept.values()].filter((p): p is string => !!p));
  for (const { path } of Object.values(input.recorded ?? {})) {
    if (keptPaths.has(path) || !input.head.has(path)) continue;
    // Its reusable content is gone from the space (deleted there), or moved to another name: the old file goes.
    deletes.add(path);
  }
  const taken = new Set([...input.head.keys()].filter((p) => !deletes.has(p)).map((p) => p.toLowerCase()));
  for (const reusable of input.reusableContents) {
    const recorded = kept.get(reusable);
    if (recorded) {
      if (reusable.id) record[reusable.id] = { path: recorded };
      const original = await input.readText(recorded);
      if (original === undefined) continue;
      const before = readIncludeFile(original, recorded);
      if (before.title === reusable.title && before.markdown === reusable.markdown) continue;
      writes.set(recorded, Buffer.from(composeInclude(original, reusable), "utf8"));
      continue;
    }
    const name = includeFileName(reusable);
    const ext = posix.extname(name);
    let path = posix.join(includesDir, name);
    for (let n = 2; taken.has(path.toLowerCase()); n++) path = posix.join(includesDir, `${name.slice(0, name.length - ext.length)}-${n}${ext}`);
    taken.add(path.toLowerCase());
    deletes.delete(path);
    if (reusable.id) record[reusable.id] = { path };
    writes.set(path, Buffer.from(composeInclude(undefined, reusable), "utf8"));
  }
  const varsPath = posix.join(input.contentDir, VARS_FILE);
  const original = input.head.has(varsPath) ? await input.readText(varsPath) : undefined;
  const plan = { writes, deletes, record };
  if (!Object.keys(input.variables).length) return plan;
  if (original === undefined) {
    writes.set(varsPath, Buffer.from(stringifyYaml(input.variables, { lineWidth: 0 }), "utf8"));
    return plan;
  }
  let current: Record<string, string> | null;
  try {
    current = readVariablesFile(original, varsPath);
  } catch {
    current = null;
  }
  if (current && sameVariables(current, input.variables)) return plan;
  const parsed = parseDocument(original);
  const doc: Document = isMap(parsed.contents) && !parsed.errors.length ? parsed : new Document({});
  for (const [name, value] of Object.entries(input.variables)) if (current?.[name] !== value) doc.set(name, value);
  for (const name of Object.keys(current ?? {})) if (!Object.prototype.hasOwnProperty.call(input.variables, name)) doc.delete(name);
  writes.set(varsPath, Buffer.from(doc.toString({ lineWidth: 0 }), "utf8"));
  return plan;
}
