// The change-requests service's shape as its action modules see it: its collections and shared methods.
import type { SpaceAccess } from "@docshelf/contracts/content";
import type { KeptSpaceAccess } from "@docshelf/contracts/kept-access";
import type { User } from "@docshelf/contracts/identity";
import type { Context, Service } from "moleculer";
import type { Caller, Role } from "@docshelf/access";
import type { Collection, Store } from "@docshelf/store";
import type { CountSync, PendingMark } from "@docshelf/count-sync";
import type { TreeContent } from "./merge";
import type { MergedChannel } from "./merged-channel";
import type { ChangeRequestDoc, CounterDoc, SettingDoc, WatchDoc } from "./models";
import type { ChangeRequestResource } from "./present";
import type { ReviewDoc, ReviewRequestDoc } from "./reviews";
import type { KeyedQueue } from "./keyed-queue";

export interface Vars {
  /** Merges of one space run one at a time on this node (merge.actions.ts). */
  mergeQueue: KeyedQueue;
  changeRequests: Collection<ChangeRequestDoc>;
  counters: Collection<CounterDoc>;
  settings: Collection<SettingDoc>;
  reviews: Collection<ReviewDoc>;
  reviewRequests: Collection<ReviewRequestDoc>;
  watches: Collection<WatchDoc>;
  /** Spaces whose change request counts are still to be sent (packages/count-sync's durable marks). */
  countMarks: Collection<PendingMark>;
  store: Store;
  countSync: CountSync;
  /** Signs the temporary PDF URLs; made once and kept, so URLs work on every replica. */
  pdfKey: string;
  /** Added to the clock by the test-only `advanceClock` (0 otherwise). */
  clockOffsetMs: number;
  /** The durable merged channel on NATS JetStream, when scaled out and JetStream is there. */
  mergedChannel?: MergedChannel;
  /** True while the channel connects at start (merges announced meanwhile stay pending for the sweep). */
  mergedChannelStarting?: boolean;
  announceTimer?: NodeJS.Timeout;
}

/** What `content.spaceAccess` answers. */
export type { SpaceAccess };

/** A space the caller may see, with main's current revision (not its title: kept answers leave it out). */
export interface SpaceSeen extends KeptSpaceAccess {
  spaceId: string;
  role: Role;
  revision: string;
}

export interface Methods {
  publicUrl(): string;
  /** Milliseconds since the epoch, as this service sees them (tests can move the clock on). */
  now(): number;
  /** The space as the caller sees it: 404 when it is missing, deleted or hidden from them. */
  loadSpace(ctx: Context, spaceId: string, opts?: { kept?: boolean }): Promise<SpaceSeen>;
  requireRole(space: SpaceSeen, min: Role, doing: string): void;
  /** A change request of the space by id or number, or 404. */
  loadChangeRequest(spaceId: string, ref: string): Promise<ChangeRequestDoc>;
  /** Both at once, as the caller: 404 for a hidden space or an unknown change request. */
  load(ctx: Context, spaceId: string, ref: string): Promise<{ space: SpaceSeen; cr: ChangeRequestDoc; caller: Caller }>;
  /** The next number of the space: one above the highest given (and above the counter of earlier versions). */
  nextNumber(spaceId: string): Promise<number>;
  /**
   * Inserts a new change request with the space's next number (again with the next one when a concurrent create
   * took it: the unique index refuses it) and answers it without waiting for the space's counts (CountSync.afterWrite).
   */
  insertNumbered(doc: Omit<ChangeRequestDoc, "number">): Promise<ChangeRequestDoc>;
  /** `users`, when given, are the creators of `docs` (creatorsOf), already asked for. */
  present(ctx: Context, docs: ChangeRequestDoc[], mainRevision: string | null, users?: Promise<Record<string, User>>): Promise<ChangeRequestResource[]>;
  /** The creators of `docs`, as GitBook embeds them. */
  creatorsOf(ctx: Context, docs: Array<{ createdBy: string }>): Promise<Record<string, User>>;
  /** Sends the space's absolute change request counts to content (one run at a time per space). */
  syncCounts(spaceId: string): Promise<void>;
  /**
   * Announces a merged change request: counts, the `change-requests.merged` broadcast and (scaled out) the
   * durable channel; then clears `announcePending`. At least once: a retry may repeat any of them.
   */
  announceMerged(cr: ChangeRequestDoc): Promise<void>;
  /** Announces the merges still pending after a grace period (a failure or a crash after the commit). */
  sweepAnnouncements(): Promise<number>;
  /** Moves the change request to a revision made from its current one, by compare-and-swap; 409 when it moved first. */
  moveRevision(cr: ChangeRequestDoc, revision: string, contributor: string): Promise<ChangeRequestDoc>;
  /** Tells who listens (the gateways, for open block editors) that the change request's content moved to `cr.revision`. */
  announceContent(cr: ChangeRequestDoc): Promise<void>;
  /** Content trees of revisions of the space (base, ours, theirs), streamed from content. */
  trees(ctx: Context, spaceId: string, revisionIds: string[]): Promise<TreeContent[]>;
  /** Stores a merged tree as a new revision of the space (streamed to content); its id. */
  storeTree(ctx: Context, spaceId: string, parents: string[], content: TreeContent): Promise<string>;
  /** Page bodies (markdown) by document id, at most 1,000 ids, streamed from content. */
  documentBodies(ctx: Context, ids: string[]): Promise<Record<string, string>>;
}

export type ChangeRequestsService = Service<Record<string, unknown>> & Vars & Methods;
export type ChangeRequestsActions = Service.ServiceActionsSchema<ChangeRequestsService>;
export type Ctx<P> = Context<P, Record<string, unknown>>;
