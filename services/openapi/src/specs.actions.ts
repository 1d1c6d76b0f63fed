// Spec actions: list, create, read, create-or-replace, change visibility, delete.
import { broadcast } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { callerOf } from "@docshelf/access";
import { BadRequestError, ConflictError, NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { VISIBILITIES, type SpecDoc, type SpecSource, type SpecVisibility } from "./models";
import { presentSpec } from "./present";
import { slugRule, sourceRule } from "./params";
import type { Ctx, OpenAPIActions, OpenAPIService } from "./service-types";

type Ref = { organizationId: string; specSlug: string };
const ref = { organizationId: idRule, specSlug: slugRule };

/** The one source a request gives: exactly one of `url` and `text`, the text within the size cap. */
function sourceOf(source: { url?: string; text?: string }, maxBytes: number): SpecSource {
  if ((source.url === undefined) === (source.text === undefined)) {
    throw new BadRequestError("Invalid parameters: 'source' must hold exactly one of 'url' and 'text'.");
  }
  if (source.url !== undefined) return { url: source.url };
  if (Buffer.byteLength(source.text!, "utf8") > maxBytes) {
    throw new BadRequestError(`Invalid parameters: 'source.text' is larger than ${maxBytes} bytes.`);
  }
  return { text: source.text! };
}

function newSpec(organizationId: string, slug: string, source: SpecSource): SpecDoc {
  const now = new Date().toISOString();
  return {
    id: newId(),
    organizationId,
    slug,
    source,
    visibility: "private",
    processingState: "pending",
    sourceRevision: 1,
    claimedAt: "",
    createdAt: now,
    updatedAt: now,
  };
}

export const specActions: OpenAPIActions = {
  list: {
    params: { organizationId: idRule, ...listParams },
    async handler(this: OpenAPIService, ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
      const { permissions } = await this.readAccess(ctx.params.organizationId, callerOf(ctx));
      const publicUrl = this.publicUrl();
      return listPage(this.specs, { organizationId: ctx.params.organizationId }, { ...ctx.params, sort: [["createdAt", 1]] }, (docs) =>
        docs.map((doc) => presentSpec(doc, permissions, publicUrl)),
      );
    },
  },

  create: {
    params: { organizationId: idRule, slug: slugRule, source: sourceRule },
    async handler(this: OpenAPIService, ctx: Ctx<{ organizationId: string; slug: string; source: { url?: string; text?: string } }>) {
      const source = sourceOf(ctx.params.source, this.openapiSettings.maxBytes);
      const { permissions } = await this.writeAccess(ctx.params.organizationId, callerOf(ctx));
      const spec = newSpec(ctx.params.organizationId, ctx.params.slug, source);
      try {
        await this.specs.insert(spec);
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(`An OpenAPI spec with the slug "${spec.slug}" already exists.`);
        throw err;
      }
      this.enqueue(spec);
      ctx.meta.$statusCode = 201;
      return presentSpec(spec, permissions, this.publicUrl());
    },
  },

  get: {
    params: ref,
    async handler(this: OpenAPIService, ctx: Ctx<Ref>) {
      const { permissions } = await this.readAccess(ctx.params.organizationId, callerOf(ctx));
      const spec = await this.loadSpec(ctx.params.organizationId, ctx.params.specSlug);
      return presentSpec(spec, permissions, this.publicUrl());
    },
  },

  put: {
    params: { ...ref, source: sourceRule },
    async handler(this: OpenAPIService, ctx: Ctx<Ref & { source: { url?: string; text?: string } }>) {
      const source = sourceOf(ctx.params.source, this.openapiSettings.maxBytes);
      const { organizationId, specSlug } = ctx.params;
      const { permissions } = await this.writeAccess(organizationId, callerOf(ctx));
      // Update first; when there is nothing to update, create (and if a racing PUT created it, update again).
      for (let attempt = 0; attempt < 2; attempt++) {
        const updated = await this.specs.updateOne(
          { organizationId, slug: specSlug },
          { $set: { source, processingState: "pending", claimedAt: "", updatedAt: new Date().toISOString() }, $inc: { sourceRevision: 1 } },
        );
        if (updated) {
          this.enqueue(updated);
          return presentSpec(updated, permissions, this.publicUrl());
        }
        const spec = newSpec(organizationId, specSlug, source);
        try {
          await this.specs.insert(spec);
        } catch (err) {
          if (err instanceof ConflictError) continue;
          throw err;
        }
        this.enqueue(spec);
        return presentSpec(spec, permissions, this.publicUrl());
      }
      throw new ConflictError("The spec changed concurrently; try again.");
    },
  },

  update: {
    params: { ...ref, visibility: { type: "enum", values: [...VISIBILITIES] } },
    async handler(this: OpenAPIService, ctx: Ctx<Ref & { visibility: SpecVisibility }>) {
      const { organizationId, specSlug } = ctx.params;
      const { permissions } = await this.writeAccess(organizationId, callerOf(ctx));
      const updated = await this.specs.updateOne(
        { organizationId, slug: specSlug },
        { $set: { visibility: ctx.params.visibility, updatedAt: new Date().toISOString() } },
      );
      if (!updated) throw new NotFoundError(`OpenAPI spec ${specSlug} was not found.`);
      return presentSpec(updated, permissions, this.publicUrl());
    },
  },

  remove: {
    params: ref,
    async handler(this: OpenAPIService, ctx: Ctx<Ref>) {
      const { organizationId, specSlug } = ctx.params;
      await this.writeAccess(organizationId, callerOf(ctx));
      const spec = await this.specs.findOne({ organizationId, slug: specSlug });
      if (spec) {
        await this.specs.deleteOne({ id: spec.id });
        await this.versions.deleteMany({ specId: spec.id });
        await this.documents.deleteMany({ specId: spec.id });
        await broadcast(this.broker, events.openapiSpecDeleted, { organizationId, slug: specSlug, id: spec.id });
      }
      ctx.meta.$statusCode = 204;
      return null;
    },
  },
};
