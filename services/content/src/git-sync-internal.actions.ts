// Internal: what Git sync reads and writes: a revision's whole tree with markdown and file bytes
// (export), and a revision built from an imported repository with its `git` metadata (import).
// Both travel as streams of JSON text: a whole space does not fit in one NATS message.
import type { GitReusableContent, GitSnapshotParams, GitTreePage } from "@docshelf/contracts/content";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { jsonStream } from "@docshelf/runtime";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { RevisionDoc } from "./models";
import { checkChanges } from "./revisions/change-rules";
import { commitChanges } from "./revisions/commit";
import { walk, type AppliedChanges, type Change, type GitBlob, type PageNode } from "./revisions/tree";
import type { ContentActions, Ctx } from "./service-types";

/** `revision.git` as Git sync fills it. */
export interface RevisionGit {
  oid: string;
  message: string;
  createdByService: boolean;
  /** GitBook's name of createdByService (its schema requires it); same value. */
  createdByGitBook?: boolean;
  url?: string;
  ref?: string;
}

export interface GitFile {
  id: string;
  name: string;
  contentType: string;
  /** The bytes, base64 (snapshot; empty when left out). */
  data: string;
  /** SHA-256 of the bytes (snapshot). */
  sha256?: string;
  /** Import: the length of this file's bytes in the binary part of the stream (then `data` is absent). */
  size?: number;
  git?: GitBlob;
}

export interface GitSnapshot {
  revision: string;
  git?: RevisionGit;
  pages: GitTreePage[];
  files: GitFile[];
  /** Each with its markdown (`.gitbook/includes` files). */
  reusableContents: GitReusableContent[];
  variables: Record<string, string>;
}

export interface GitImportBody {
  git: RevisionGit;
  pages: GitTreePage[];
  files: GitFile[];
  /** The repository's reusable contents: they replace the space's (absent: the space's are kept). */
  reusableContents?: GitReusableContent[];
  /** The repository's `vars.yaml`: replaces the space's variables (absent: they are kept). */
  variables?: Record<string, string>;
}

/**
 * The import stream: the body as one line of JSON whose files carry `size` instead of `data`, a newline,
 * then the files' bytes one after the other in the order of `files` (no base64, no giant JSON string).
 */
function splitImportStream(whole: Buffer): { body: GitImportBody; bytes: Buffer[] } {
  const newline = whole.indexOf(10);
  if (newline < 0) throw new BadRequestError("Invalid parameters: the import stream has no header line.");
  const body = JSON.parse(whole.subarray(0, newline).toString("utf8")) as GitImportBody;
  const bytes: Buffer[] = [];
  let at = newline + 1;
  for (const file of body.files) {
    if (typeof file.size === "number") {
      bytes.push(whole.subarray(at, at + file.size));
      at += file.size;
    } else bytes.push(Buffer.from(file.data ?? "", "base64"));
  }
  if (at > whole.length) throw new BadRequestError("Invalid parameters: the import stream ended before its files' bytes.");
  return { body, bytes };
}

export const gitSyncInternalActions: ContentActions = {
  /**
   * Internal (git-sync export): a revision of a live space (default its current one), whole, as a stream
   * of JSON text (GitSnapshot); `fileData: false` leaves every file's bytes out, `fileIds` all but those
   * files'. No access check: the caller decides.
   */
  gitSnapshot: {
    visibility: "public",
    params: {
      spaceId: idRule,
      revisionId: { ...idRule, optional: true },
      fileData: { type: "boolean", optional: true },
      fileIds: { type: "array", items: "string", max: 100_000, optional: true },
    },
    async handler(ctx: Ctx<GitSnapshotParams>) {
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!space || space.deletedAt) throw new NotFoundError(`Space ${ctx.params.spaceId} was not found.`);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId ?? space.revision);
      const bodies = new Map((await this.pagesWithMarkdown(revision)).map((p) => [p.id, p.markdown]));
      const toGit = (page: PageNode): GitTreePage => {
        const out: GitTreePage = { id: page.id, title: page.title, slug: page.slug, markdown: bodies.get(page.id) ?? "", pages: page.pages.map(toGit) };
        if (page.type === "group") out.type = "group";
        if (page.description) out.description = page.description;
        if (page.icon) out.icon = page.icon;
        if (page.emoji) out.emoji = page.emoji;
        if (page.hidden) out.hidden = true;
        if (page.cover) out.cover = page.cover;
        if (page.variables && Object.keys(page.variables).length) out.variables = page.variables;
        if (page.git) out.git = page.git;
        return out;
      };
      const files: GitFile[] = [];
      const only = ctx.params.fileIds ? new Set(ctx.params.fileIds) : null;
      for (const file of revision.files) {
        const wanted = ctx.params.fileData !== false && (!only || only.has(file.id));
        const data = wanted && (await this.files.has(file.sha256)) ? (await readAllBytes(this.files.open(file.sha256))).toString("base64") : "";
        files.push({ id: file.id, name: file.name, contentType: file.contentType, data, sha256: file.sha256, ...(file.git ? { git: file.git } : {}) });
      }
      const reusableContents: GitReusableContent[] = [];
      for (const r of revision.reusableContents) {
        const item: GitReusableContent = { id: r.id, title: r.title, markdown: r.documentId ? await this.markdownOf(r.documentId) : "" };
        if (r.git) item.git = r.git;
        reusableContents.push(item);
      }
      const snapshot: GitSnapshot = { revision: revision.id, pages: revision.pages.map(toGit), files, reusableContents, variables: revision.variables ?? {} };
      const git = (revision as RevisionDoc).git;
      if (git) snapshot.git = git;
      return jsonStream(snapshot);
    },
  },

  /**
   * Internal (git-sync import): replaces the content of the space's current revision with the
   * streamed GitImportBody, as one new revision carrying `git`. With `move` the space moves to it by
   * compare-and-swap (409 when it moved meanwhile); without, the revision stands alone (standalone import).
   * Pages keep the id of the page at the same path in the base revision.
   */
  gitImport: {
    visibility: "public",
    params: { spaceId: idRule, move: { type: "boolean" } },
    async handler(ctx: Ctx<{ spaceId: string; move: boolean }>) {
      if (!ctx.stream) throw new BadRequestError("Invalid parameters: the import body must be streamed.");
      const { body, bytes: fileBytes } = splitImportStream(await readAllBytes(ctx.stream as unknown as NodeJS.ReadableStream));
      const space = await this.spaces.findOne({ id: ctx.params.spaceId });
      if (!space || space.deletedAt) throw new NotFoundError(`Space ${ctx.params.spaceId} was not found.`);
      const base = await this.loadRevision(space.id, space.revision);
      const idsByPath = new Map<string, string>();
      for (const { page } of walk(base.pages)) idsByPath.set(page.path, page.id);

      const pageChanges: Change[] = base.pages.map((page) => ({ type: "delete_page", page: page.id }));
      const gitByPage = new Map<string, GitBlob>();
      const groups = new Set<string>();
      const add = (pages: GitTreePage[], parent: string | null, parentPath: string) => {
        for (const page of pages) {
          const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
          // Ids are needed as parents, so every inserted page gets one here.
          const pageId = idsByPath.get(path) ?? newId();
          const change: Change = { type: "insert_page", id: pageId, parent, title: page.title, slug: page.slug, markdown: page.markdown };
          if (page.description) change.description = page.description;
          if (page.icon) change.icon = page.icon;
          if (page.emoji) change.emoji = page.emoji;
          if (page.hidden) change.hidden = true;
          if (page.cover) change.cover = page.cover;
          if (page.variables && Object.keys(page.variables).length) change.variables = page.variables;
          pageChanges.push(change);
          if (page.git) gitByPage.set(pageId, page.git);
          // GitBook's groups are top-level only.
          if (page.type === "group" && parent === null) groups.add(pageId);
          add(page.pages, pageId, path);
        }
      };
      add(body.pages, null, "");
      checkChanges(pageChanges);

      const fileChanges: Change[] = base.files.map((file) => ({ type: "delete_file", file: file.id }));
      const gitByFile = new Map<string, GitBlob>();
      for (const [index, file] of body.files.entries()) {
        const bytes = fileBytes[index];
        fileChanges.push({ type: "insert_file", id: file.id, name: file.name, contentType: file.contentType, size: bytes.length, sha256: await this.files.put(bytes) });
        if (file.git) gitByFile.set(file.id, file.git);
      }

      // Reusable contents keep the id of the one imported from the same file, so pages' references hold.
      const reusableChanges: Change[] = [];
      const gitByReusable = new Map<string, GitBlob>();
      if (body.reusableContents) {
        const idsByGitPath = new Map(base.reusableContents.flatMap((r) => (r.git ? [[r.git.path, r.id] as const] : [])));
        for (const r of base.reusableContents) reusableChanges.push({ type: "delete_reusable_content", id: r.id });
        for (const r of body.reusableContents) {
          const id = (r.git && idsByGitPath.get(r.git.path)) || newId();
          reusableChanges.push({ type: "upsert_reusable_content", id, title: r.title, markdown: r.markdown });
          if (r.git) gitByReusable.set(id, r.git);
        }
      }
      // Checked by content's rule; the imported map then replaces the space's (set_variables merges).
      if (body.variables) reusableChanges.push({ type: "set_variables", variables: body.variables });
      checkChanges(reusableChanges);

      const amend = (applied: AppliedChanges) => {
        for (const r of applied.reusableContents) {
          const git = gitByReusable.get(r.id);
          if (git) r.git = git;
        }
        if (body.variables) applied.variables = { ...body.variables };
        for (const { page } of walk(applied.pages)) {
          const git = gitByPage.get(page.id);
          if (git) page.git = git;
          if (groups.has(page.id)) {
            page.type = "group";
            delete page.documentId;
          }
        }
        for (const file of applied.files) {
          const git = gitByFile.get(file.id);
          if (git) file.git = git;
        }
      };
      const { revision } = await commitChanges(this, space, base, [...fileChanges, ...pageChanges, ...reusableChanges], { move: ctx.params.move, amend, git: body.git });
      return { revision: revision.id, moved: ctx.params.move, pages: [...walk(revision.pages)].length };
    },
  },
};

async function readAllBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) parts.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  return Buffer.concat(parts);
}
