// API-description specs: hosting, versions, fetching and processing in the background.
import * as events from "@docshelf/contracts/events";
import { broadcast, call, type PayloadOf } from "@docshelf/contracts/action";
import * as orgs from "@docshelf/contracts/orgs";
import type { Context, ServiceSchema } from "moleculer";
import { configFor } from "@docshelf/config";
import { atLeast, MembershipCache, type Caller } from "@docshelf/access";
import { ForbiddenError, NotFoundError } from "@docshelf/errors";
import { op, storeMixin } from "@docshelf/store";
import { jobQueueGauge } from "@docshelf/runtime";
import { KeyedLimiter, sharedWorkerPool } from "@docshelf/worker-pool";
import { collections, type SpecDoc } from "./models";
import { claimLeaseMs, processSpec } from "./processing";
import { internalActions } from "./internal.actions";
import type { Methods, SpecAccess, Vars } from "./service-types";
import { openapiSettingsOf } from "./settings";
import { specActions } from "./specs.actions";
import { versionActions } from "./versions.actions";
import { WorkQueue } from "./work-queue";

const SWEEP_BATCH = 100;

export function openapiSchema(): ServiceSchema<Record<string, unknown>, Methods, Vars> {
  return {
    name: "openapi",
    mixins: [storeMixin(collections)],

    actions: {
      ...specActions,
      ...versionActions,
      ...internalActions,
    },

    events: {
      "orgs.members.changed": {
        handler(ctx: Context<PayloadOf<typeof events.orgsMembersChanged>>) {
          this.memberships.dropOrganization(ctx.params.organizationId);
        },
      },
    },

    methods: {
      publicUrl() {
        return configFor(this.broker).publicUrl;
      },

      async readAccess(organizationId: string, caller: Caller): Promise<SpecAccess> {
        const membership = await this.memberships.get(organizationId, caller.id);
        if (!membership.member) throw new NotFoundError(`Organization ${organizationId} was not found.`);
        const permissions = { view: atLeast(membership.role, "read"), edit: atLeast(membership.role, "create") };
        if (!permissions.view) throw new ForbiddenError("Guests of the organization cannot see its OpenAPI specs.");
        return { role: membership.role, permissions };
      },

      async writeAccess(organizationId: string, caller: Caller): Promise<SpecAccess> {
        const access = await this.readAccess(organizationId, caller);
        if (!access.permissions.edit) throw new ForbiddenError("Creating, changing and deleting OpenAPI specs takes the create role or better.");
        return access;
      },

      async loadSpec(organizationId: string, slug: string) {
        const spec = await this.specs.findOne({ organizationId, slug });
        if (!spec) throw new NotFoundError(`OpenAPI spec ${slug} was not found.`);
        return spec;
      },

      enqueue(spec: Pick<SpecDoc, "id" | "organizationId">) {
        this.queue.add(spec.id, spec.organizationId);
      },

      async runProcessing(specId: string) {
        const outcome = await processSpec(
          { specs: this.specs, versions: this.versions, documents: this.documents, settings: this.openapiSettings, workers: this.workers },
          specId,
        );
        if (outcome.kind === "versioned") {
          const { organizationId, slug } = outcome.spec;
          await broadcast(this.broker, events.openapiSpecVersioned, { organizationId, slug, id: specId, versionId: outcome.versionId });
        } else if (outcome.kind === "failed") {
          this.logger.info({ specId, code: outcome.failure.code }, "processing an OpenAPI spec failed");
        }
      },

      async sweep() {
        const now = Date.now();
        const { refreshIntervalMs } = this.openapiSettings;
        const batches = await Promise.all([
          this.specs.find({ processingState: "pending" }, { limit: SWEEP_BATCH }),
          this.specs.find({ processingState: "progress", claimedAt: op.lt(new Date(now - claimLeaseMs(this.openapiSettings)).toISOString()) }, { limit: SWEEP_BATCH }),
          this.specs.find(
            { processingState: "complete", "source.url": op.exists(true), lastProcessedAt: op.lte(new Date(now - refreshIntervalMs).toISOString()) },
            { limit: SWEEP_BATCH },
          ),
        ]);
        const specs = batches.flat();
        for (const spec of specs) this.enqueue(spec);
        return specs.length;
      },
    },

    created() {
      this.openapiSettings = openapiSettingsOf(configFor(this.broker));
      // Specs are parsed and validated on the process's worker threads, off the event loop.
      this.workers = sharedWorkerPool(configFor(this.broker).workers);
      this.renderedVersions = new Map();
      this.memberships = new MembershipCache((organizationId, userId) =>
        call(this.broker, orgs.memberRole, { organizationId, userId }),
      );
      // Two specs at a time, at most WORKER_ORG_CONCURRENCY of one organization's: one organization's many
      // specs never keep another's waiting behind them.
      this.queue = new WorkQueue(
        (id) => this.runProcessing(id),
        2,
        (id, err) => this.logger.error({ err, specId: id }, "processing an OpenAPI spec stopped; a later sweep retries it"),
        new KeyedLimiter(configFor(this.broker).workers.orgConcurrency),
      );
    },

    async started() {
      // Specs left pending or in progress by a restart, and URL specs due for refresh; then every sweep interval.
      const sweep = () => this.sweep().catch((err: unknown) => this.logger.error({ err }, "sweeping OpenAPI specs failed"));
      void sweep();
      this.sweepTimer = setInterval(sweep, this.openapiSettings.sweepIntervalMs);
      this.sweepTimer.unref();
      // Specs waiting for processing or being processed, from the store (the same on every replica).
      this.stopQueueGauge = jobQueueGauge(this.broker, "openapi", (state) => this.specs.count({ processingState: state === "running" ? "progress" : "pending" }));
    },

    async stopped() {
      if (this.sweepTimer) clearInterval(this.sweepTimer);
      this.stopQueueGauge?.();
      // Let running work finish before the store closes; what was waiting, the next start's sweep finds again.
      this.queue.clear();
      await this.queue.idle();
    },
  };
}

export default openapiSchema;
