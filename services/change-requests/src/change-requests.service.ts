// Change requests: proposed changes to a space with their own revision, updated from main and merged into it.
import * as events from "@docshelf/contracts/events";
import { broadcast, call, type PayloadOf } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as keptAccess from "@docshelf/contracts/kept-access";
import type { User } from "@docshelf/contracts/identity";
import type { Context, ServiceSchema } from "moleculer";
import { atLeast, callerOf, type Role } from "@docshelf/access";
import { configFor, natsConnectionOptions } from "@docshelf/config";
import { ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { newId, newSecret, op, storeMixin } from "@docshelf/store";
import { changeRequestContentActions } from "./change-request-content.actions";
import { CountSync } from "@docshelf/count-sync";
import { jsonStream, readJson } from "@docshelf/runtime";
import { lifecycleActions } from "./lifecycle.actions";
import { mergeActions } from "./merge.actions";
import { startMergedChannel, type MergedMessage } from "./merged-channel";
import { pdfActions } from "./pdf.actions";
import { queueActions } from "./queue.actions";
import { reviewActions } from "./reviews.actions";
import { watchActions } from "./watch.actions";
import type { TreeContent } from "./merge";
import { collections, refFilter, STATUSES, type ChangeRequestDoc, type Status } from "./models";
import { presentChangeRequest } from "./present";
import type { Methods, SpaceSeen, Vars } from "./service-types";
import { KeyedQueue } from "./keyed-queue";

/** A merge still pending this long after it was committed is announced by the sweep (its own request had time). */
const ANNOUNCE_GRACE_MS = 30_000;
const ANNOUNCE_SWEEP_MS = 30_000;
/** Creates in one space at the same moment each take the next free number; this many tries before giving up. */
const MAX_NUMBER_ATTEMPTS = 20;

/** Writes within this long of each other share one count sent (and one mark): a count is eventually right, this much later. */
const COUNT_DELAY_MS = 100;

export function changeRequestsSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "change-requests",
    // keptAccessMixin: the events that drop the node's kept access answers (the list and get of change requests use them).
    mixins: [storeMixin(collections), keptAccess.keptAccessMixin()],

    actions: {
      ...lifecycleActions,
      ...changeRequestContentActions,
      ...mergeActions,
      ...pdfActions,
      ...reviewActions,
      ...queueActions,
      ...watchActions,
    },

    events: {
      // Users embedded in answers are read through contracts' usersById, kept for a few seconds: a change drops one at once.
      "identity.user.changed": {
        handler(ctx: Context<PayloadOf<typeof events.identityUserChanged>>) {
          identity.dropCachedUser(this.broker, ctx.params.id);
        },
      },
      // A purged space takes its change requests with it (their revisions went with the space).
      "content.space.purged": {
        async handler(ctx: Context<PayloadOf<typeof events.contentSpacePurged>>) {
          await this.changeRequests.deleteMany({ spaceId: ctx.params.spaceId });
          await this.reviews.deleteMany({ spaceId: ctx.params.spaceId });
          await this.reviewRequests.deleteMany({ spaceId: ctx.params.spaceId });
          await this.watches.deleteMany({ spaceId: ctx.params.spaceId });
          await this.counters.deleteOne({ id: ctx.params.spaceId });
        },
      },
    },

    methods: {
      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      now() {
        return Date.now() + this.clockOffsetMs;
      },

      /** `kept`: through the node's kept access answers (contracts' kept-access), for reads only; writes ask content. */
      async loadSpace(ctx: Context, spaceId: string, opts?: { kept?: boolean }): Promise<SpaceSeen> {
        const access = opts?.kept ? await keptAccess.keptSpaceAccessOf(ctx, spaceId) : await content.spaceAccessOf(ctx, spaceId);
        if (!access.exists || !access.role || !access.revision) throw new NotFoundError(`Space ${spaceId} was not found.`);
        return { ...access, spaceId, role: access.role, revision: access.revision };
      },

      requireRole(space: SpaceSeen, min: Role, doing: string) {
        if (!atLeast(space.role, min)) throw new ForbiddenError(`${doing} needs the ${min} role or better on the space.`);
      },

      async loadChangeRequest(spaceId: string, ref: string) {
        const cr = await this.changeRequests.findOne(refFilter(spaceId, ref));
        if (!cr) throw new NotFoundError(`Change request ${ref} was not found in the space.`);
        return cr;
      },

      async load(ctx: Context, spaceId: string, ref: string) {
        const caller = callerOf(ctx);
        const space = await this.loadSpace(ctx, spaceId);
        const cr = await this.loadChangeRequest(spaceId, ref);
        return { space, cr, caller };
      },

      async nextNumber(spaceId: string) {
        // Change requests are deleted only with their space, so the highest number is the last one given. The
        // counter is read for data written by earlier versions, which counted there (and never skipped back).
        const [[last], counter] = await Promise.all([
          this.changeRequests.find({ spaceId }, { sort: [["number", -1]], limit: 1 }),
          this.counters.findOne({ id: spaceId }),
        ]);
        return Math.max(last?.number ?? 0, counter?.last ?? 0) + 1;
      },

      async insertNumbered(doc: Omit<ChangeRequestDoc, "number">) {
        // The [spaceId, number] unique index refuses a number another create took meanwhile: take the next one.
        for (let attempt = 1; ; attempt++) {
          const numbered: ChangeRequestDoc = { ...doc, number: await this.nextNumber(doc.spaceId) } as ChangeRequestDoc;
          try {
            return await this.countSync.afterWrite(doc.spaceId, () => this.changeRequests.insert(numbered));
          } catch (err) {
            if (!(err instanceof ConflictError) || attempt >= MAX_NUMBER_ATTEMPTS) throw err;
          }
        }
      },

      async present(ctx: Context, docs: ChangeRequestDoc[], mainRevision: string | null, users?: Promise<Record<string, User>>) {
        const known = await (users ?? this.creatorsOf(ctx, docs));
        return docs.map((doc) => presentChangeRequest(doc, { publicUrl: this.publicUrl(), users: known, mainRevision }));
      },

      creatorsOf(ctx: Context, docs: Array<{ createdBy: string }>) {
        const ids = [...new Set(docs.map((d) => d.createdBy))];
        return ids.length ? identity.usersById(ctx, ids) : Promise.resolve({});
      },

      async moveRevision(cr: ChangeRequestDoc, revision: string, contributor: string) {
        const set: Partial<ChangeRequestDoc> = { revision, updatedAt: new Date().toISOString() };
        if (!cr.contributors.includes(contributor)) set.contributors = [...cr.contributors, contributor];
        const updated = await this.changeRequests.updateOne({ id: cr.id, revision: cr.revision, status: cr.status }, { $set: set });
        if (!updated) throw new ConflictError("The change request was edited, updated or merged meanwhile; read it and apply the changes again.");
        await this.announceContent(updated);
        return updated;
      },

      async announceContent(cr: ChangeRequestDoc) {
        // Best effort: the write is done; an open editor that misses the word finds the change at its next check.
        try {
          await broadcast(this.broker, events.changeRequestsContentChanged, { spaceId: cr.spaceId, changeRequestId: cr.id, revision: cr.revision });
        } catch (err) {
          this.logger.warn({ error: String((err as Error)?.message), changeRequestId: cr.id }, "announcing a change request's new content failed");
        }
      },

      syncCounts(spaceId: string) {
        return this.countSync.request(spaceId);
      },

      async announceMerged(cr: ChangeRequestDoc) {
        if (!cr.revisionMerged) return;
        const message: MergedMessage = { spaceId: cr.spaceId, changeRequestId: cr.id, number: cr.number, subject: cr.subject, revision: cr.revisionMerged };
        await this.syncCounts(cr.spaceId);
        await broadcast(this.broker, events.changeRequestsMerged, message);
        if (this.mergedChannelStarting) throw new Error("the durable merged channel is still connecting");
        if (this.mergedChannel) await this.mergedChannel.publish(message);
        await this.changeRequests.updateOne({ id: cr.id }, { $unset: ["announcePending"] });
      },

      async sweepAnnouncements() {
        const before = new Date(this.now() - ANNOUNCE_GRACE_MS).toISOString();
        const pending = await this.changeRequests.find({ announcePending: true, status: "merged", mergedAt: op.lt(before) }, { limit: 100 });
        let sent = 0;
        for (const cr of pending) {
          try {
            await this.announceMerged(cr);
            sent++;
          } catch (err) {
            this.logger.warn({ err, changeRequestId: cr.id }, "announcing a merge failed again; the next sweep retries");
          }
        }
        return sent;
      },

      async trees(ctx: Context, spaceId: string, revisionIds: string[]) {
        // Streamed: a large space's trees do not fit in one NATS message.
        const stream = await call(ctx, content.revisionTrees, {
          spaceId,
          revisionIds,
          stream: true,
        });
        return readJson<TreeContent[]>(stream);
      },

      async storeTree(ctx: Context, spaceId: string, parents: string[], tree: TreeContent) {
        const stored = await call(ctx, content.storeRevision, { spaceId, parents }, { stream: jsonStream(tree) });
        return stored.revision;
      },

      async documentBodies(ctx: Context, ids: string[]) {
        const stream = await call(ctx, content.documentBodies, { ids, stream: true });
        return readJson<Record<string, string>>(stream);
      },
    },

    created() {
      this.clockOffsetMs = 0;
      this.mergeQueue = new KeyedQueue();
    },

    async started() {
      // After the store mixin's started: the marks live in the service's store (packages/count-sync).
      this.countSync = new CountSync(
        async (spaceId) => {
          // Per status, each from the [spaceId, status] index; the total is their sum (a count by space alone
          // has no index to use and reads every change request of every space).
          const byStatus = await Promise.all(STATUSES.map((status) => this.changeRequests.count({ spaceId, status })));
          const of = (status: Status) => byStatus[STATUSES.indexOf(status)];
          const changeRequests = byStatus.reduce((sum, n) => sum + n, 0);
          const [changeRequestsOpen, changeRequestsDraft] = [of("open"), of("draft")];
          try {
            await call(this.broker, content.setCounts, { spaceId, changeRequests, changeRequestsOpen, changeRequestsDraft });
          } catch (err) {
            // The space is gone (purged since): its counts have nowhere to go, and its marks may go.
            if ((err as { code?: unknown })?.code !== 404) throw err;
          }
        },
        (spaceId, err) => this.logger.warn({ err, spaceId }, "sending a space's change request counts failed; they are sent again with the next change and at the next start"),
        { marks: this.countMarks, inOrder: this.store.writesInOrder, newId, delayMs: COUNT_DELAY_MS },
      );
      // Counts a previous process left unsent (killed after a create was acknowledged, before its counts went out).
      if ((await this.countMarks.find({}, { limit: 1 })).length) {
        void this.broker
          .waitForServices(["content"])
          .then(() => this.countSync.resume())
          .then((sent) => this.logger.info(`sent the change request counts of ${sent} spaces left unsent by the last run`))
          .catch((err: unknown) => this.logger.warn({ err }, "sending the change request counts left unsent failed; the next start tries again"));
      }

      const nats = configFor(this.broker).nats;
      if (nats) {
        // Not awaited: readiness does not wait on JetStream. Until the channel is up, merges stay pending.
        this.mergedChannelStarting = true;
        startMergedChannel(this.broker, natsConnectionOptions(nats), nats.streamReplicas)
          .then(async (channel) => {
            // The service may have stopped while the channel connected.
            if (this.announceTimer) this.mergedChannel = channel;
            else await channel.stop();
          })
          .catch((err: unknown) => {
            // Without JetStream, merges are announced by the broadcast alone.
            this.logger.warn({ error: String((err as Error)?.message) }, "NATS JetStream is not available for the durable merged channel; broadcasting only");
          })
          .finally(() => {
            this.mergedChannelStarting = false;
          });
      }
      const sweep = () => this.sweepAnnouncements().catch((err: unknown) => this.logger.warn({ err }, "sweeping merge announcements failed"));
      this.announceTimer = setInterval(sweep, ANNOUNCE_SWEEP_MS);
      this.announceTimer.unref();

      // The key that signs PDF URLs is made once and kept, so URLs work on every replica and across restarts.
      const key = await this.settings.findOne({ id: "pdf-signing-key" });
      if (key) this.pdfKey = key.value;
      else {
        const value = newSecret(32);
        try {
          await this.settings.insert({ id: "pdf-signing-key", value });
          this.pdfKey = value;
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          this.pdfKey = (await this.settings.findOne({ id: "pdf-signing-key" }))!.value;
        }
      }
    },

    async stopped() {
      if (this.announceTimer) clearInterval(this.announceTimer);
      this.announceTimer = undefined;
      const channel = this.mergedChannel;
      this.mergedChannel = undefined;
      await channel?.stop();
    },
  };
}

export default changeRequestsSchema;
