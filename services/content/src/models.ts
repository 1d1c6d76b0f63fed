// Spaces, revisions, page documents and service settings as stored.
import type { Grants, RoleOrGuest } from "@docshelf/access";
import type { CollectionSpec } from "@docshelf/store";
import type { FileMeta, PageNode, ReusableContentMeta } from "./revisions/tree";

export const VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export interface SpaceDoc {
  id: string;
  organizationId: string;
  title: string;
  emoji: string;
  visibility: Visibility;
  editMode: "live" | "locked";
  /** A role, null (guests only), or "inherit" from the collection and organization. */
  defaultLevel: RoleOrGuest | "inherit";
  /** Roles granted on the space to teams and members, by `grantKey` (GitBook's space permissions). */
  grants?: Grants;
  parent?: string;
  /** Order among the spaces of the same parent (lower first); `move` places a space between two others. */
  position?: number;
  /** The active revision; moves only by compare-and-swap. */
  revision: string;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  /** GitBook's GitSyncState, a copy pushed by git-sync (content.setGitSync) whenever the space's link changes. */
  gitSync?: GitSyncState;
}

export interface GitSyncState {
  repoName: string;
  installationProvider?: "github" | "gitlab" | "github-legacy";
  integration: string;
  url: string;
  updatedAt: string;
}

/** An immutable snapshot of a space's content. Page bodies live in `documents`, shared by id. */
export interface RevisionDoc {
  id: string;
  spaceId: string;
  parents: string[];
  type: "edits";
  pages: PageNode[];
  files: FileMeta[];
  reusableContents: ReusableContentMeta[];
  variables: Record<string, string>;
  createdAt: string;
  /** Set by Git sync on a revision it imported (see git-sync-internal.actions.ts). */
  git?: { oid: string; message: string; createdByService: boolean; createdByGitBook?: boolean; url?: string; ref?: string };
}

/**
 * A revision's place in its space's history without its content (what `content.revisionLog` reads): written
 * beside every stored revision (revisions-logged.ts), and for a revision stored before these existed, on its
 * first walk. The store reads whole documents only, so this small copy is what spares reading the pages.
 */
export interface RevisionHeadDoc {
  id: string;
  spaceId: string;
  parents: string[];
  type: RevisionDoc["type"];
  createdAt: string;
}

/** A page body, keyed by the SHA-256 of its markdown: identical bodies are stored once. */
export interface DocumentDoc {
  id: string;
  markdown: string;
  createdAt: string;
}

/** Small service-wide values kept across restarts (the file link signing key). */
export interface SettingDoc {
  id: string;
  value: string;
}

/**
 * A space purged for good, kept for PURGE_REPLAY_MS so that every purge sweep announces it again
 * (`content.space.purged`): a service that missed the broadcast (down, or its NATS node was) still
 * drops the space's dependants. The handlers are idempotent.
 */
export interface PurgedSpaceDoc {
  id: string;
  organizationId: string;
  purgedAt: string;
}

export type ImportRunStatus = "pending" | "in-progress" | "completed" | "failed" | "cancelled";

/** A page an import run wrote: GitBook's ContentImportRun `pages` item. */
export interface ImportRunPage {
  id: string;
  type: "page" | "folder";
  status: "complete" | "pending";
  sourceURL?: string;
}

/** An import run (GitBook's ContentImportRun): what it imports, where, and how far it got. */
export interface ImportRunDoc {
  id: string;
  organizationId: string;
  spaceId: string;
  /** Import into this change request of the space instead of its main content (GitBook's `target.changeRequest`). */
  changeRequestId?: string;
  /** Import under this page of the space, or of the change request (GitBook's `target.page`). */
  pageId?: string;
  site?: string;
  source: { type: "website"; url: string } | { type: "file"; files: string[] };
  status: ImportRunStatus;
  reason?: string;
  createdBy: string;
  createdAt: string;
  /** Moved by the run's heartbeat while it works; an active run whose heartbeat stopped is reported failed. */
  updatedAt: string;
  startedAt?: string;
  completedAt?: string;
  /** Set, by a conditional update, just before the run commits: from then on it can no longer be cancelled. */
  committing?: boolean;
  /** The revision the run committed. */
  revision?: string;
  /** Pages the crawl or the files found so far (progress); the committed pages once completed. */
  discovered?: number;
  pages?: ImportRunPage[];
}

export const collections: Record<"spaces" | "revisions" | "revisionHeads" | "documents" | "settings" | "purgedSpaces" | "importRuns", CollectionSpec> = {
  spaces: { name: "spaces", indexes: [{ fields: ["organizationId"] }, { fields: ["parent"] }, { fields: ["deletedAt"] }] },
  revisions: { name: "revisions", indexes: [{ fields: ["spaceId"] }] },
  revisionHeads: { name: "revision_heads", indexes: [{ fields: ["spaceId"] }] },
  documents: { name: "documents" },
  settings: { name: "settings" },
  purgedSpaces: { name: "purged_spaces", indexes: [{ fields: ["purgedAt"] }] },
  importRuns: { name: "import_runs", indexes: [{ fields: ["organizationId", "createdAt"] }, { fields: ["spaceId"] }] },
};
