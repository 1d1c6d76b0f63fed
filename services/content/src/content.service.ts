// The content service: spaces and their revisions (pages, files, links, templates, search, imports).
// This file holds its store, lifecycle, events and the methods its action files share; the actions
// are in src/<resource>.actions.ts, each an object spread into `actions`.
import { KeyedLimiter, sharedWorkerPool } from "@docshelf/worker-pool";
import { jsonTextFor, STREAM_OVER_BYTES } from "@docshelf/runtime";
import type { Context, ServiceSchema } from "moleculer";
import { broadcast, call, type PayloadOf } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import * as orgs from "@docshelf/contracts/orgs";
import * as sites from "@docshelf/contracts/sites";
import { configFor } from "@docshelf/config";
import { atLeast, callerOf, effectiveRole, grantedRoles, grantKey, memberRoleOf, MembershipCache, ROLES, type Membership, type RoleOrGuest, type Role } from "@docshelf/access";
import { ConflictError, ForbiddenError, NotFoundError, isMissingService } from "@docshelf/errors";
import { newSecret, op, storeMixin, type Collection } from "@docshelf/store";
import { changeActions } from "./changes.actions";
import { forgetRenders } from "./computed";
import { gitSyncInternalActions } from "./git-sync-internal.actions";
import { gitSyncStateActions } from "./git-sync-state.actions";
import { importActions } from "./import.actions";
import { importRunActions } from "./import-runs.actions";
import { linkActions } from "./links.actions";
import { pagesInternalActions } from "./pages-internal.actions";
import { permissionActions } from "./permissions.actions";
import { publishedActions } from "./published.actions";
import { revisionActions } from "./revisions.actions";
import { revisionLogActions } from "./revision-log.actions";
import { reusableContentActions } from "./reusable-contents.actions";
import { revisionsInternalActions } from "./revisions-internal.actions";
import { SearchIndex } from "./search";
import { searchActions } from "./search.actions";
import { indexSpace, unindexSpace } from "./search-indexing";
import { spaceAccessActions } from "./space-access.actions";
import { spaceContentActions } from "./space-content.actions";
import { spaceActions } from "./spaces.actions";
import { signFileToken } from "./files";
import { rememberLru, WeightedLru } from "./lru";
import { collections, type RevisionDoc, type SpaceDoc } from "./models";
import { announcedSpaces } from "./spaces-announced";
import { loggedRevisions } from "./revisions-logged";
import { presentSpace } from "./present";
import { purgeDeleted } from "./purge";
import { walk, type FileMeta } from "./revisions/tree";
import type { SpacePublishedUrl } from "@docshelf/contracts/sites";
import type { CollectionInfo, ContentSchema, KeptAnswers } from "./service-types";

/**
 * Parsed revisions kept per content process, weighed by their pages and files (about half a kilobyte each in
 * memory): 100,000, so a hundred spaces of a thousand pages stay parsed, in about 50 MB. At least 8 are kept.
 */
const REVISION_CACHE_PAGES = 100_000;

/** A revision's weight in the cache: its pages (all levels) and files, and one for itself. */
function revisionWeight(revision: RevisionDoc): number {
  let pages = 0;
  for (const _ of walk(revision.pages)) pages++;
  return pages + revision.files.length + 1;
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const CACHE_TTL_MS = 10_000;
/** Answers of immutable revisions kept as JSON text (a long one as bytes), least recently used out first. */
const JSON_CACHE_ENTRIES = 16;
/** Searches of a space answered again as they were while its indexed revision stands (popular queries repeat). */
const SEARCH_ANSWERS = 64;
/** Single pages of immutable revisions (a docs site's popular pages are read again and again). */
const PAGE_ANSWERS = 256;

/** The role `membership` gives on `space`, in the collection described by `info` (none: at the top). */
function roleWith(space: SpaceDoc, membership: Membership, info: CollectionInfo | undefined): RoleOrGuest {
  return effectiveRole({
    memberRole: memberRoleOf(membership),
    collectionLevels: info?.levels ?? [],
    spaceLevel: space.defaultLevel === "inherit" ? null : space.defaultLevel,
    teamRoles: grantedRoles(membership, space.grants, ...(info?.grants ?? [])),
    visibility: space.visibility,
  });
}

/** Ids of an organization's spaces whose parent is one of `collectionIds`. */
async function spaceIdsIn(spaces: Collection<SpaceDoc>, organizationId: string, collectionIds: string[]): Promise<string[]> {
  if (!collectionIds.length) return [];
  return (await spaces.find({ organizationId, parent: op.in(collectionIds) })).map((s) => s.id);
}

/** How long a node keeps a space's published URL (sites.urls.changed drops it sooner). */
const PUBLISHED_URL_TTL_MS = 10_000;

export function contentSchema(): ContentSchema {
  return {
    name: "content",
    mixins: [storeMixin(collections)] as Array<Partial<ServiceSchema>>,

    actions: {
      ...spaceActions,
      ...spaceContentActions,
      ...revisionActions,
      ...revisionLogActions,
      ...reusableContentActions,
      ...changeActions,
      ...linkActions,
      ...searchActions,
      ...importActions,
      ...importRunActions,
      ...permissionActions,
      ...spaceAccessActions,
      ...pagesInternalActions,
      ...revisionsInternalActions,
      ...gitSyncInternalActions,
      ...gitSyncStateActions,
      ...publishedActions,
    },

    events: {
      // A space this node has indexed for search is indexed again in the background (every content
      // node hears this broadcast); one it has not waits for its first search.
      "content.revision.changed": {
        handler(ctx: Context<PayloadOf<typeof events.contentRevisionChanged>>) {
          const { spaceId, revisionId } = ctx.params;
          if (this.searchIndex.revisionOf(spaceId) === undefined) return;
          void indexSpace(this, spaceId, revisionId).catch((err: unknown) => this.logger.warn({ err, spaceId }, "re-indexing a space for search failed; its next search retries"));
        },
      },
      "content.space.deleted": {
        handler(ctx: Context<PayloadOf<typeof events.contentSpaceDeleted>>) {
          void unindexSpace(this, ctx.params.spaceId);
        },
      },
      "content.space.purged": {
        handler(ctx: Context<PayloadOf<typeof events.contentSpacePurged>>) {
          void unindexSpace(this, ctx.params.spaceId);
        },
      },
      // Computed pages' renders are dropped as soon as their spec changes (computed.ts).
      "openapi.spec.versioned": {
        handler(ctx: Context<PayloadOf<typeof events.openapiSpecVersioned>>) {
          forgetRenders(this.broker, ctx.params.organizationId, ctx.params.slug);
        },
      },
      "openapi.spec.deleted": {
        handler(ctx: Context<PayloadOf<typeof events.openapiSpecDeleted>>) {
          forgetRenders(this.broker, ctx.params.organizationId, ctx.params.slug);
        },
      },
      // A member left the organization or a team was deleted: their grants go, so rejoining brings no old access back.
      "orgs.principal.removed": {
        async handler(ctx: Context<PayloadOf<typeof events.orgsPrincipalRemoved>>) {
          const key = `grants.${grantKey(ctx.params.principal, ctx.params.id)}`;
          const held = await this.spaces.find({ organizationId: ctx.params.organizationId, [key]: op.exists(true) });
          for (const space of held) await this.spaces.updateOne({ id: space.id }, { $unset: [key] });
        },
      },
      "orgs.members.changed": {
        handler(ctx: Context<PayloadOf<typeof events.orgsMembersChanged>>) {
          this.memberships.dropOrganization(ctx.params.organizationId);
        },
      },
      "sites.urls.changed": {
        handler() {
          this.publishedUrlDrops += 1;
          this.publishedUrls.clear();
        },
      },
      "orgs.collections.changed": {
        handler() {
          // Levels are inherited down the collection tree: any change may affect every cached descendant.
          this.collectionInfos.clear();
        },
      },
      // A deleted collection takes its spaces into the deleted state, with the same restore window.
      "orgs.collection.deleted": {
        async handler(ctx: Context<PayloadOf<typeof events.orgsCollectionDeleted>>) {
          // The orgs service's time, read on this service's clock (they differ only under the test clock).
          const given = ctx.params.deletedAt ? Date.parse(ctx.params.deletedAt) : NaN;
          const deletedAt = Number.isNaN(given) ? this.nowIso() : new Date(given + this.clockOffsetMs).toISOString();
          for (const spaceId of await spaceIdsIn(this.spaces, ctx.params.organizationId, ctx.params.collectionIds)) {
            await this.spaces.updateOne({ id: spaceId, deletedAt: op.exists(false) }, { $set: { deletedAt, updatedAt: deletedAt } });
          }
          this.collectionInfos.clear();
        },
      },
      "orgs.collection.transferred": {
        async handler(ctx: Context<PayloadOf<typeof events.orgsCollectionTransferred>>) {
          const { fromOrganizationId, toOrganizationId } = ctx.params;
          for (const spaceId of await spaceIdsIn(this.spaces, fromOrganizationId, ctx.params.collectionIds)) {
            // As a space transferred on its own: grants name teams and members of the organization it
            // leaves, so they stay behind, and the sites of that organization stop publishing it.
            const moved = await this.spaces.updateOne(
              { id: spaceId, organizationId: fromOrganizationId },
              { $set: { organizationId: toOrganizationId, updatedAt: this.nowIso() }, $unset: ["grants"] },
            );
            if (moved) await broadcast(this.broker, events.contentSpaceTransferred, { spaceId, fromOrganizationId, toOrganizationId });
          }
          this.collectionInfos.clear();
        },
      },
    },

    methods: {
      now() {
        return new Date(Date.now() + this.clockOffsetMs);
      },

      nowIso() {
        return this.now().toISOString();
      },

      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      membership(organizationId: string, userId: string) {
        return this.memberships.get(organizationId, userId);
      },

      /** A collection's levels and grants as this node keeps them (CACHE_TTL_MS); undefined: not kept. */
      cachedCollectionInfo(collectionId: string): CollectionInfo | undefined {
        const hit = this.collectionInfos.get(collectionId);
        return hit && hit.expires > Date.now() ? hit.value : undefined;
      },

      async collectionInfo(collectionId: string): Promise<CollectionInfo> {
        const hit = this.cachedCollectionInfo(collectionId);
        if (hit) return hit;
        let value: CollectionInfo;
        try {
          value = await call(this.broker, orgs.collectionLevels, { collectionId });
        } catch (err) {
          // Until the orgs service offers collection levels, a space in a collection inherits nothing from it.
          if (!isMissingService(err)) throw err;
          return { exists: false, organizationId: null, deleted: false, levels: [], grants: [], unknown: true };
        }
        // "inherit" (or anything that is not a role) passes the decision to the next level up.
        value = { ...value, levels: (value.levels ?? []).map((level) => ((ROLES as readonly unknown[]).includes(level) ? level : null)) };
        if (this.collectionInfos.size > 10_000) this.collectionInfos.clear();
        this.collectionInfos.set(collectionId, { value, expires: Date.now() + CACHE_TTL_MS });
        return value;
      },

      /** The published URL this node keeps for the space (asked without a share key); undefined: not kept. */
      cachedPublishedUrl(spaceId: string): SpacePublishedUrl | null | undefined {
        const hit = this.publishedUrls.get(spaceId);
        return hit && hit.expires > Date.now() ? hit.value : undefined;
      },

      /**
       * Where the space is published (sites decide: `sites.spacePublishedUrl`). Answers without a share
       * key are kept PUBLISHED_URL_TTL_MS per node and dropped at once on `sites.urls.changed`; with a
       * key the sites service checks it every time. null without a sites service.
       */
      async publishedUrlOf(spaceId: string, shareKey?: string): Promise<SpacePublishedUrl | null> {
        if (shareKey === undefined) {
          const hit = this.cachedPublishedUrl(spaceId);
          if (hit !== undefined) return hit;
        }
        const drops = this.publishedUrlDrops;
        let value: SpacePublishedUrl | null;
        try {
          value = await call(this.broker, sites.spacePublishedUrl, shareKey === undefined ? { spaceId } : { spaceId, shareKey });
        } catch (err) {
          if (!isMissingService(err)) throw err;
          // Without a sites service nothing is published; kept like an answer, so that a system run without
          // one does not build and throw a not-found error on every read of a space.
          value = null;
        }
        // An answer fetched across a drop may predate the change: it is used, not kept.
        if (shareKey === undefined && drops === this.publishedUrlDrops) {
          if (this.publishedUrls.size > 10_000) this.publishedUrls.clear();
          this.publishedUrls.set(spaceId, { value, expires: Date.now() + PUBLISHED_URL_TTL_MS });
        }
        return value;
      },

      roleOn(space: SpaceDoc, membership: Membership): RoleOrGuest | Promise<RoleOrGuest> {
        if (!space.parent) return roleWith(space, membership, undefined);
        const hit = this.cachedCollectionInfo(space.parent);
        if (hit) return roleWith(space, membership, hit);
        return this.collectionInfo(space.parent).then((info) => roleWith(space, membership, info));
      },

      roleOnCollection(info: CollectionInfo, membership: Membership): RoleOrGuest {
        return effectiveRole({ memberRole: memberRoleOf(membership), collectionLevels: info.levels, teamRoles: grantedRoles(membership, ...(info.grants ?? [])) });
      },

      async loadSpace(ctx: Context, spaceId: string, options: { deleted?: boolean } = {}) {
        const caller = callerOf(ctx);
        const space = await this.spaces.findOne({ id: spaceId });
        if (!space || (space.deletedAt && !options.deleted)) throw new NotFoundError(`Space ${spaceId} was not found.`);
        // Cached membership and role are used at once: this is the start of nearly every content request.
        const membership = this.memberships.peek(space.organizationId, caller.id) ?? (await this.membership(space.organizationId, caller.id));
        const known = this.roleOn(space, membership);
        const role = known instanceof Promise ? await known : known;
        if (!role) throw new NotFoundError(`Space ${spaceId} was not found.`);
        return { space, role, membership };
      },

      requireRole(role: RoleOrGuest, min: Role, doing: string) {
        if (!atLeast(role, min)) throw new ForbiddenError(`${doing} needs the ${min} role or better on the space.`);
      },

      async loadRevision(spaceId: string, revisionId: string) {
        const cached = this.revisionCache.get(revisionId);
        if (cached && cached.spaceId === spaceId) return cached;
        const revision = await this.revisions.findOne({ id: revisionId });
        if (!revision || revision.spaceId !== spaceId) throw new NotFoundError(`Revision ${revisionId} was not found.`);
        // Revisions never change, so a cached copy is always right. Weighed by its pages and files: reads spread
        // over a hundred spaces of a thousand pages each no longer parse a revision again at nearly every read.
        return this.revisionCache.set(revisionId, revision, revisionWeight(revision));
      },

      pageIndex(revision: RevisionDoc) {
        let index = this.pageIndexes.get(revision);
        if (!index) {
          index = new Map();
          for (const { page } of walk(revision.pages)) index.set(page.id, page);
          this.pageIndexes.set(revision, index);
        }
        return index;
      },

      async markdownOf(documentId: string | undefined) {
        if (!documentId) return "";
        const doc = await this.documents.findOne({ id: documentId });
        return doc?.markdown ?? "";
      },

      async pagesWithMarkdown(revision: RevisionDoc) {
        const ids = [...new Set([...walk(revision.pages)].flatMap(({ page }) => (page.documentId ? [page.documentId] : [])))];
        const bodies = new Map<string, string>();
        for (let i = 0; i < ids.length; i += 500) {
          for (const doc of await this.documents.find({ id: op.in(ids.slice(i, i + 500)) })) bodies.set(doc.id, doc.markdown);
        }
        return [...walk(revision.pages)].map(({ page }) => ({ id: page.id, title: page.title, path: page.path, markdown: bodies.get(page.documentId ?? "") ?? "" }));
      },

      async revisionChanged(spaceId: string, revisionId: string) {
        // The search index (and anyone else) follows the space's content through this event.
        await broadcast(this.broker, events.contentRevisionChanged, { spaceId, revisionId });
      },

      downloadURL(file: FileMeta) {
        return `${this.publicUrl()}/v1/files/${signFileToken(this.fileKey, { sha256: file.sha256, name: file.name, contentType: file.contentType })}`;
      },

      presentSpaceFor(space: SpaceDoc, role: RoleOrGuest) {
        return presentSpace(space, role, this.publicUrl());
      },

      presentOptions(spaceId: string, metadata = true) {
        return { spaceId, publicUrl: this.publicUrl(), metadata };
      },

      keptAnswer(ctx: Context, key: string, cache: KeptAnswers) {
        const kept = cache.entries.get(key);
        return kept === undefined ? undefined : jsonTextFor(ctx, rememberLru(cache.entries, key, kept, cache.max));
      },

      respondJson(ctx: Context, key: string | null, build: () => unknown, given?: KeptAnswers) {
        const cache = given ?? this.jsonCache;
        // Keyed answers are of an immutable revision: their text is kept and sent again as it is.
        const kept = key ? this.keptAnswer(ctx, key, cache) : undefined;
        if (kept !== undefined) return kept;
        const value = build();
        const json = JSON.stringify(value);
        const text = json.length > STREAM_OVER_BYTES ? Buffer.from(json, "utf8") : json;
        if (key) rememberLru(cache.entries, key, text, cache.max);
        return jsonTextFor(ctx, text, () => value);
      },
    },

    created() {
      this.clockOffsetMs = 0;
      this.collectionInfos = new Map();
      this.publishedUrls = new Map();
      this.publishedUrlDrops = 0;
      this.revisionCache = new WeightedLru<RevisionDoc>(REVISION_CACHE_PAGES, 8);
      this.jsonCache = { entries: new Map(), max: JSON_CACHE_ENTRIES };
      this.searchAnswers = { entries: new Map(), max: SEARCH_ANSWERS };
      this.pageAnswers = { entries: new Map(), max: PAGE_ANSWERS };
      this.pageIndexes = new WeakMap();
      this.linkReports = new Map();
      // One search index per content node, built lazily per space on its first search.
      this.searchIndex = new SearchIndex();
      this.searchBuilds = new Map();
      this.importSettings = configFor(this.broker).contentImport;
      this.workers = sharedWorkerPool(configFor(this.broker).workers);
      this.importLimiter = new KeyedLimiter(configFor(this.broker).workers.orgConcurrency);
      this.runningImports = new Map();
      this.memberships = new MembershipCache((organizationId, userId) =>
        call(this.broker, orgs.memberRole, { organizationId, userId }),
      );
    },

    async started() {
      // Opened by the store mixin (whose started runs first); every access-changing write is announced (spaces-announced.ts).
      this.spaces = announcedSpaces(this.spaces, this.broker);
      // Every stored revision's head is kept beside it for content.revisionLog (revisions-logged.ts).
      this.revisions = loggedRevisions(this.revisions, this.revisionHeads);
      this.files = this.store.blobs("files");
      // The key that signs download URLs is made once and kept, so URLs survive restarts and work on every replica.
      const key = await this.settings.findOne({ id: "file-signing-key" });
      if (key) this.fileKey = key.value;
      else {
        const value = newSecret(32);
        try {
          await this.settings.insert({ id: "file-signing-key", value });
          this.fileKey = value;
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          this.fileKey = (await this.settings.findOne({ id: "file-signing-key" }))!.value;
        }
      }
      // Permanent removal after the retention window: stateless (it queries deletedAt), so restarts lose nothing.
      const purge = () => purgeDeleted(this).catch((err: unknown) => this.logger.error({ err }, "purging deleted spaces failed"));
      void purge();
      this.purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
      this.purgeTimer.unref();
    },

    stopped() {
      if (this.purgeTimer) clearInterval(this.purgeTimer);
      // Runs still working stop without writing; left active, they are reported failed once their heartbeat is stale.
      for (const run of this.runningImports.values()) run.abort();
    },
  };
}

export default contentSchema;
