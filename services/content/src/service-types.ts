// The content service as its action files (src/*.actions.ts) and helpers see it: its collections,
// caches and the methods they share.
import type { KeyedLimiter, WorkerPool } from "@docshelf/worker-pool";
import type { Readable } from "node:stream";
import type { Context, Service, ServiceSchema } from "moleculer";
import type { Membership, MembershipCache, RoleOrGuest, Role } from "@docshelf/access";
import type { CollectionLevels } from "@docshelf/contracts/orgs";
import type { SpacePublishedUrl } from "@docshelf/contracts/sites";
import type { BlobStore, Collection, Store } from "@docshelf/store";
import type { DocumentDoc, ImportRunDoc, RevisionDoc, RevisionHeadDoc, PurgedSpaceDoc, SettingDoc, SpaceDoc } from "./models";
import type { PresentOptions, SpaceResource } from "./present";
import type { WeightedLru } from "./lru";
import type { ImportSettings } from "./import-fetch";
import type { LinkReport } from "./revisions/links";
import type { SearchIndex } from "./search";
import type { FileMeta, PageNode } from "./revisions/tree";

/** What `orgs.collectionLevels` answers about a collection; `unknown` when the orgs service could not say (its collection action is not deployed). */
export type CollectionInfo = CollectionLevels & { unknown?: boolean };

export interface ContentVars {
  /** Opened by storeMixin; its blobs named "files" hold the uploaded bytes. */
  store: Store;
  spaces: Collection<SpaceDoc>;
  revisions: Collection<RevisionDoc>;
  /** Each revision's id, space, parents and time without its content (revisions-logged.ts). */
  revisionHeads: Collection<RevisionHeadDoc>;
  documents: Collection<DocumentDoc>;
  settings: Collection<SettingDoc>;
  purgedSpaces: Collection<PurgedSpaceDoc>;
  importRuns: Collection<ImportRunDoc>;
  /** Import runs working on this node, by id: aborting one stops it at its next step (import-runs/runner.ts). */
  runningImports: Map<string, AbortController>;
  /** The process's worker threads (import runs' files are read there) and the per-organization bound on them. */
  workers: WorkerPool;
  importLimiter: KeyedLimiter;
  memberships: MembershipCache;
  collectionInfos: Map<string, { value: CollectionInfo; expires: number }>;
  publishedUrls: Map<string, { value: SpacePublishedUrl | null; expires: number }>;
  /** Counts drops of publishedUrls, so an answer fetched across one is not kept. */
  publishedUrlDrops: number;
  files: BlobStore;
  fileKey: string;
  /** Added to the wall clock by `now()`; moved only by the test-only `content.advanceClock`. */
  clockOffsetMs: number;
  purgeTimer?: NodeJS.Timeout;
  revisionCache: WeightedLru<RevisionDoc>;
  /** Serialized answers of immutable revisions, by revision and options: text, or bytes when over the streaming threshold. */
  jsonCache: KeptAnswers;
  /** A space's search answers as JSON text, by space, indexed revision, query, limit and offset (search.actions.ts). */
  searchAnswers: KeptAnswers;
  /** Single pages of a space's current revision as JSON text, by space, revision, page and read flags (space-content.actions.ts). */
  pageAnswers: KeptAnswers;
  pageIndexes: WeakMap<RevisionDoc, Map<string, PageNode>>;
  /** Link reports by revision (and page): revisions are immutable, so reports are too. */
  linkReports: Map<string, LinkReport>;
  /** This node's full-text index (src/search), built lazily per space; see search-indexing.ts. */
  searchIndex: SearchIndex;
  /** The last queued index step of each space, so steps for one space run in order. */
  searchBuilds: Map<string, Promise<void>>;
  /** Website import limits and the test-only private-address allowance (actions/import.ts). */
  importSettings: ImportSettings;
}

export interface ContentMethods {
  now(): Date;
  nowIso(): string;
  publicUrl(): string;
  membership(organizationId: string, userId: string): Promise<Membership>;
  collectionInfo(collectionId: string): Promise<CollectionInfo>;
  cachedCollectionInfo(collectionId: string): CollectionInfo | undefined;
  /** At once when the space is in no collection (or its collection's levels are cached). */
  roleOn(space: SpaceDoc, membership: Membership): RoleOrGuest | Promise<RoleOrGuest>;
  publishedUrlOf(spaceId: string, shareKey?: string): Promise<SpacePublishedUrl | null>;
  /** The published URL this node keeps for the space (no share key), undefined when it must be asked. */
  cachedPublishedUrl(spaceId: string): SpacePublishedUrl | null | undefined;
  /** The role `membership` gives on a collection described by `info` (levels and grants). */
  roleOnCollection(info: CollectionInfo, membership: Membership): RoleOrGuest;
  /** The space as the caller sees it, with the caller's role; 404 when it is missing, deleted (unless `deleted`) or hidden. */
  loadSpace(ctx: Context, spaceId: string, options?: { deleted?: boolean }): Promise<{ space: SpaceDoc; role: RoleOrGuest; membership: Membership }>;
  requireRole(role: RoleOrGuest, min: Role, doing: string): void;
  loadRevision(spaceId: string, revisionId: string): Promise<RevisionDoc>;
  pageIndex(revision: RevisionDoc): Map<string, PageNode>;
  markdownOf(documentId: string | undefined): Promise<string>;
  /** Every page of a revision with its markdown (the search index's input). */
  pagesWithMarkdown(revision: RevisionDoc): Promise<Array<{ id: string; title: string; path: string; markdown: string }>>;
  revisionChanged(spaceId: string, revisionId: string): Promise<void>;
  downloadURL(file: FileMeta): string;
  presentOptions(spaceId: string, metadata?: boolean): PresentOptions;
  /** A JSON answer; over ~512 KB it is streamed so it fits through the transporter in chunks. */
  /** The answer kept under `key` (JSON text to the gateway, the value to other services), or undefined. */
  keptAnswer(ctx: Context, key: string, cache: KeptAnswers): unknown | Readable | undefined;
  respondJson(ctx: Context, key: string | null, build: () => unknown, cache?: KeptAnswers): unknown | Readable;
  presentSpaceFor(space: SpaceDoc, role: RoleOrGuest): SpaceResource;
}

export type ContentSchema = ServiceSchema<Record<string, unknown>, ContentMethods, ContentVars>;
export type ContentService = Service<Record<string, unknown>> & ContentVars & ContentMethods;
/** What each `src/*.actions.ts` file exports, spread into the service's `actions`. */
export type ContentActions = Service.ServiceActionsSchema<ContentService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;

/** Deleted spaces can be restored for this long, then the purge job removes them. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface BacklinksQuery {
  fileId: string;
  page?: string;
  limit?: number;
}

/** Answers kept as JSON text (bytes when over the streaming threshold), least recently used out beyond `max`. */
export interface KeptAnswers {
  entries: Map<string, string | Buffer>;
  max: number;
}
