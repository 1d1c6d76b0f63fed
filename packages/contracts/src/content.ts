// The content service's internal actions other services call, and the answers they give.
import type { Readable } from "node:stream";
import { callerOf, type RoleOrGuest } from "@docshelf/access";
import type { CallingOptions } from "moleculer";
import { action, call, type ActionCaller } from "./action";

/** What `content.spaceAccess` answers: a live space (deleted spaces do not exist) and the user's effective role on it. */
export interface SpaceAccess {
  exists: boolean;
  organizationId: string | null;
  /** The user's effective role on the space; null when they may not see it. */
  role: RoleOrGuest;
  /** The space's current revision. */
  revision: string | null;
  title: string | null;
  visibility: string | null;
}

export interface SpaceAccessParams {
  spaceId: string;
  userId: string;
}

export const spaceAccess = action<SpaceAccessParams, SpaceAccess>("content.spaceAccess");

/** The calling user's (`ctx.meta.user`) access to space `spaceId`; 401 without a caller. */
export function spaceAccessOf(ctx: ActionCaller & { meta: unknown }, spaceId: string, opts?: CallingOptions): Promise<SpaceAccess> {
  return call(ctx, spaceAccess, { spaceId, userId: callerOf(ctx).id }, opts);
}

/** The page fields another service may embed (GitBook's RevisionPageBase plus `path`). */
export interface PageMeta {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  path: string;
  createdAt: string;
  updatedAt: string;
}

/** What `content.pagesMeta` answers: the revision read (null when the space is missing or deleted) and the pages found in it. */
export interface PagesMeta {
  revision: string | null;
  pages: Record<string, PageMeta>;
}

export interface PagesMetaParams {
  spaceId: string;
  /** Default: the space's current revision. */
  revisionId?: string;
  pageIds: string[];
}

/** Metadata of `pageIds` in a revision of a live space; unknown ids are left out. No access check: the caller decides. */
export const pagesMeta = action<PagesMetaParams, PagesMeta>("content.pagesMeta");

/** The counters other services keep on a space (change requests, comments). */
export interface SpaceCounts {
  spaceId: string;
  changeRequests?: number;
  changeRequestsOpen?: number;
  changeRequestsDraft?: number;
  comments?: number;
}

export const setCounts = action<SpaceCounts, unknown>("content.setCounts");

/** A space as the public API presents it (GitBook's Space); only the fields other services read are typed. */
export interface SpaceResource {
  object: "space";
  id: string;
  title: string;
  visibility: string;
  organization: string;
  /** The space's current revision. */
  revision: string;
  [field: string]: unknown;
}

export const getSpace = action<{ spaceId: string }, SpaceResource>("content.getSpace");
export const createSpace = action<{ organizationId: string; title: string; [field: string]: unknown }, SpaceResource>("content.createSpace");

/** One page of a list (the `@docshelf/list` envelope). */
export interface Listed<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

export const listSpaces = action<{ organizationId: string; limit?: number; page?: string }, Listed<SpaceResource>>("content.listSpaces");

/** How many spaces each team and user holds a grant on, by id. */
export const grantCounts = action<{ organizationId: string; teams: string[]; users: string[] }, Record<string, number>>("content.grantCounts");

// Revisions, as change requests build and merge them.

/** A page of a revision's tree: the fields a merge reads, the rest carried as is. */
export interface RevisionTreePage {
  id: string;
  title: string;
  pages: RevisionTreePage[];
  [field: string]: unknown;
}

/** The trees of `revisionIds` (answered as a JSON stream when `stream`). */
export const revisionTrees = action<{ spaceId: string; revisionIds: string[]; stream: true }, Readable>("content.revisionTrees");
/** Documents' Markdown bodies by id (answered as a JSON stream when `stream`). */
export const documentBodies = action<{ ids: string[]; stream: true }, Readable>("content.documentBodies");
/** Stores a revision whose content is the call's stream (`opts.stream`); does not move the space. */
export const storeRevision = action<{ spaceId: string; parents: string[] }, { revision: string }>("content.storeRevision");
/** Moves the space to `revisionId` if it is still at `expectedRevisionId` (compare-and-swap). */
export const commitRevision = action<{ spaceId: string; expectedRevisionId: string; revisionId: string }, unknown>("content.commitRevision");
/** Applies change-request edits to a revision, giving the new revision and the pages touched. */
export const applyChanges = action<{ spaceId: string; revisionId: string; changes: unknown[]; move: false }, { revision: string; pages: string[] }>("content.applyChanges");
/** Imports a URL into a revision. */
export const importIntoRevision = action<{ spaceId: string; revisionId: string; url: string; source: string }, { revision: string; importedResources: number; totalResources: number }>(
  "content.importIntoRevision",
);

/** The revision reads a change request forwards to content (params: `spaceId`, `revisionId` and the read's own). */
export const readRevision = action<Record<string, unknown>, unknown>("content.readRevision");
export const readPages = action<Record<string, unknown>, unknown>("content.readPages");
export const readPage = action<Record<string, unknown>, unknown>("content.readPage");
/** GitBook's RevisionReusableContent of a revision (`reusableContentId`), the caller's access checked. */
export const readReusableContent = action<Record<string, unknown>, unknown>("content.readReusableContent");
export const readFiles = action<Record<string, unknown>, { items: unknown[]; next?: { page: string } }>("content.readFiles");
export const readFile = action<Record<string, unknown>, unknown>("content.readFile");
export const readFileBacklinks = action<Record<string, unknown>, unknown>("content.readFileBacklinks");
export const readPageLinks = action<Record<string, unknown>, unknown>("content.readPageLinks");

// Git Sync.

export interface GitBlob {
  oid: string;
  path: string;
}

export type CoverRef = { kind: "file"; file: string } | { kind: "url"; url: string };

/** A page as content's git actions take and give it. */
export interface GitTreePage {
  id?: string;
  /** A SUMMARY.md `##` group: content keeps it as GitBook's RevisionPageGroup. */
  type?: "group";
  title: string;
  slug: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  cover?: { ref?: CoverRef; yPos: number };
  /** The page's variables (`page.vars`; a page file's front matter `vars`). */
  variables?: Record<string, string>;
  markdown: string;
  git?: GitBlob;
  pages: GitTreePage[];
  /** Import only (not stored by content): a SUMMARY.md `##` group, a SUMMARY.md link to no file, the link target as written. */
  group?: boolean;
  href?: string;
  target?: string;
}

/** A reusable content as content's git actions take and give it (a `.gitbook/includes/*.md` file). */
export interface GitReusableContent {
  /** Snapshot: the reusable content's id (an import keeps the id of the one with the same `git.path`). */
  id?: string;
  title: string;
  markdown: string;
  git?: GitBlob;
}

export interface GitSnapshotParams {
  spaceId: string;
  revisionId?: string;
  fileData?: boolean;
  fileIds?: string[];
}

/** A revision as a JSON stream of its pages (GitTreePage), files and variables, for an export. */
export const gitSnapshot = action<GitSnapshotParams, Readable>("content.gitSnapshot");
/** Stores the tree in the call's stream (`opts.stream`) as a revision; moves the space to it when `move`. */
export const gitImport = action<{ spaceId: string; move: boolean }, { revision: string; moved: boolean; pages: number }>("content.gitImport");
/** Records a space's Git Sync state (null: unlinked), shown on the space. */
export const setGitSync = action<{ spaceId: string; gitSync: Record<string, unknown> | null }, unknown>("content.setGitSync");

// Published content, as sites serve it.

export interface PublishedHead {
  spaceId: string;
  revisionId: string | null;
  title: string;
  /** The space's Git sync (its GitSyncState's repository URL and provider), when it is synced. */
  git?: { url: string; provider?: string };
}

/** A page of `content.publishedTree`. */
export interface PublishedTreePage {
  id: string;
  title: string;
  slug: string;
  path: string;
  description?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  variables?: Record<string, string>;
  updatedAt: string;
  /** The page's file in its Git repository (imported by Git sync), from the repository's root. */
  gitPath?: string;
  pages: PublishedTreePage[];
}

export interface PublishedTree {
  spaceId: string;
  revisionId: string;
  /** The Git ref the revision was imported from (`refs/heads/main`), for a revision Git sync made. */
  gitRef?: string;
  variables: Record<string, string>;
  pages: PublishedTreePage[];
  files?: Array<{ name: string; url: string }>;
}

export interface SearchHit {
  spaceId: string;
  id: string;
  title: string;
  path: string;
  sections: Array<{ id: string; title: string; path: string; body: string }>;
}

export const publishedHeads = action<{ spaceIds: string[] }, PublishedHead[]>("content.publishedHeads");
/** Large trees come as a stream of JSON text. */
export const publishedTree = action<{ spaceId: string; revisionId: string }, PublishedTree | Readable>("content.publishedTree");
/**
 * A published page's markdown; `includes`: the markdown of each reusable content it includes, by the path its
 * `{% include "…" %}` names (for @docshelf/document's `reusableContent` render option).
 */
export interface PublishedPage {
  markdown: string;
  includes?: Record<string, string>;
}
export const publishedPage = action<{ spaceId: string; revisionId: string; pageId: string }, PublishedPage | null>("content.publishedPage");
export const publishedSearch = action<{ spaceIds: string[]; query: string; limit: number }, SearchHit[]>("content.publishedSearch");

// The public actions the app calls as the signed-in user (GitBook's API resources; only the fields callers
// read are typed, the rest carried as is).

/** A page of a revision's tree as the API presents it. */
export interface RevisionPageResource {
  id: string;
  title: string;
  path: string;
  /** "document", "group", "link", … */
  type: string;
  pages?: RevisionPageResource[];
  [field: string]: unknown;
}

/** GitBook's Revision. */
export interface RevisionResource {
  object: "revision";
  id: string;
  pages: RevisionPageResource[];
  [field: string]: unknown;
}

/** A page with its content (`format: "markdown"` gives `markdown`). */
export interface PageResource {
  id: string;
  title: string;
  path: string;
  markdown?: string;
  [field: string]: unknown;
}

/** GitBook's RevisionFile. */
export interface FileResource {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size?: number;
  [field: string]: unknown;
}

/** GitBook's SearchPageResult. */
export interface SearchPageResult {
  id: string;
  title: string;
  path: string;
  sections?: Array<{ id: string; title: string; path: string; body: string }>;
  [field: string]: unknown;
}

export interface ListParams {
  limit?: number;
  page?: string;
}

export const getCurrentRevision = action<{ spaceId: string; metadata?: boolean; computed?: boolean }, RevisionResource>("content.getCurrentRevision");
export const getRevision = action<{ spaceId: string; revisionId: string; metadata?: boolean; computed?: boolean }, RevisionResource>("content.getRevision");
export const getPageByPath = action<{ spaceId: string; pagePath: string; format?: "document" | "markdown" }, PageResource>("content.getPageByPath");
export const listFiles = action<{ spaceId: string } & ListParams, Listed<FileResource>>("content.listFiles");
export const searchSpaceContent = action<{ spaceId: string; query: string } & ListParams, Listed<SearchPageResult>>("content.searchSpaceContent");
export const listSpacesInCollection = action<{ collectionId: string } & ListParams, Listed<SpaceResource>>("content.listSpacesInCollection");

/** One revision of a space's log: what `revisionLog` answers of it (no pages). */
export interface RevisionLogEntry {
  id: string;
  createdAt: string;
  /** Its parents as stored: the first is the revision it was made from (main's, for a merge). */
  parents: string[];
  type?: string;
}
/**
 * Internal, as the caller (the same access check as getRevision: 404 for a space they may not see): up to
 * `limit` (1–100, default 20) revisions of the space from `revisionId` (default: the current one) back along
 * first parents, newest first, read without their pages. The walk ends early at a revision without parents
 * or whose first parent is not of this space (a duplicated space's first revision); a `revisionId` not of
 * this space is a 404.
 */
export const revisionLog = action<{ spaceId: string; revisionId?: string; limit?: number }, RevisionLogEntry[]>("content.revisionLog");

/** A page of a semantic change (GitBook's RevisionSemanticChange pages). */
export interface ChangedPage {
  id: string;
  type: "document" | "group";
  title: string;
  path: string;
}
/** One attribute's value before and after a change. */
export interface ChangedAttribute<T> {
  before?: T;
  after?: T;
}
/** GitBook's RevisionSemanticChange (the page kinds typed; files, variables and reusable contents carried as is). */
export type SemanticChange =
  | { type: "page_created" | "page_deleted"; page: ChangedPage }
  | { type: "page_edited"; page: ChangedPage; attributes: Record<string, ChangedAttribute<string>> }
  | { type: "page_moved"; page: ChangedPage; parent: ChangedAttribute<ChangedPage> }
  | { type: `file_${string}` | "variables_edited" | `reusable_content_${string}`; [field: string]: unknown };
/** GitBook's RevisionSemanticChanges: the first `limit` changes and how many more there are. */
export interface SemanticChanges {
  changes: SemanticChange[];
  more: number;
}

/** GitBook's getPageInRevisionById, as the caller. */
export const getPageInRevision = action<{ spaceId: string; revisionId: string; pageId: string; format?: "document" | "markdown" }, PageResource>("content.getPageInRevision");
/** Internal, no access check (the caller checks first): what changed from revision `from` to `to` of a space. */
export const semanticChangesBetween = action<{ spaceId: string; from: string; to: string; limit?: number }, SemanticChanges>("content.semanticChangesBetween");

// Import runs (GitBook's imports API; HTTP actions, typed here for callers and tests).

export type ImportRunStatus = "pending" | "in-progress" | "completed" | "failed" | "cancelled";

/** GitBook's ContentImportSource: a website, or files (each sent as a data URL, see content's README). */
export type ContentImportSource = { type: "website"; url: string } | { type: "file"; files: string[] };

/** GitBook's ContentImportRun. */
export interface ContentImportRun {
  object: "import-run";
  id: string;
  status: ImportRunStatus;
  /** Why it failed, when `status` is `failed`. */
  reason?: string;
  source: ContentImportSource;
  /** `changeRequest` when the run imports into that change request of the space. */
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  completedAt?: string;
  urls: { location: string };
  /** The pages the run wrote (once completed). */
  pages: Array<{ id: string; type: "page" | "folder"; status: "complete" | "pending"; sourceURL?: string }>;
}

export interface StartImportRunParams {
  organizationId: string;
  source: { type: string; url?: string; files?: string[] };
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
  enhance?: boolean;
}

export interface ListImportRunsParams {
  organizationId: string;
  space?: string;
  changeRequest?: string;
  site?: string;
  status?: "active" | ImportRunStatus;
  page?: string;
  limit?: number;
}

/** Starts an import run (201, the run pending); it works in the background. */
export const startImportRun = action<StartImportRunParams, ContentImportRun>("content.startImportRun");
export const getImportRun = action<{ organizationId: string; importRunId: string }, ContentImportRun>("content.getImportRun");
/** An organization's runs whose space the caller can see, most recent first. */
export const listImportRuns = action<ListImportRunsParams, Listed<ContentImportRun>>("content.listImportRuns");
/** Cancels a pending or in-progress run: nothing of it is written. */
export const cancelImportRun = action<{ organizationId: string; importRunId: string }, ContentImportRun>("content.cancelImportRun");

// Administration in the app (issue 39): a space renamed, moved into a collection or deleted as the signed-in user.
export const updateSpace = action<{ spaceId: string; title?: string; emoji?: string | null }, SpaceResource>("content.updateSpace");
/** GitBook's moveSpace: `parent` a collection of the organization, or null for the top level. */
export const moveSpace = action<{ spaceId: string; parent: string | null }, SpaceResource>("content.moveSpace");
/** Deletes a space (restorable for 7 days); 204 for a space already gone. */
export const deleteSpace = action<{ spaceId: string }, null>("content.deleteSpace");
