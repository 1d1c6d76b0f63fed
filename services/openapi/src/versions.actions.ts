// Version actions: list a spec's versions, read one (or the latest) and its content.
import { callerOf } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { idRule } from "@docshelf/validation";
import type { SpecDoc, VersionDoc } from "./models";
import { jsonTextAnswer } from "@docshelf/runtime";
import { presentContentJson, presentVersion } from "./present";
import { slugRule } from "./params";
import type { Ctx, OpenAPIActions, OpenAPIService } from "./service-types";

type Ref = { organizationId: string; specSlug: string };
const ref = { organizationId: idRule, specSlug: slugRule };
type VersionRef = Ref & { versionId: string };
const versionRef = { ...ref, versionId: idRule };

/** The version content (`VersionContent` in present.ts), streamed when large. */
async function contentOf(service: OpenAPIService, ctx: Ctx<Ref>, spec: SpecDoc, version: VersionDoc): Promise<unknown> {
  const document = await service.documents.findOne({ id: version.id });
  if (!document) throw new NotFoundError(`OpenAPI spec version ${version.id} was not found.`);
  return jsonTextAnswer(ctx.meta, presentContentJson(version, document, spec, service.publicUrl()));
}

async function loadVersion(service: OpenAPIService, ctx: Ctx<Ref>, versionId: string | "latest"): Promise<{ spec: SpecDoc; version: VersionDoc }> {
  await service.readAccess(ctx.params.organizationId, callerOf(ctx));
  const spec = await service.loadSpec(ctx.params.organizationId, ctx.params.specSlug);
  const id = versionId === "latest" ? spec.lastVersion : versionId;
  const version = id ? await service.versions.findOne({ id, specId: spec.id }) : null;
  if (!version) {
    throw new NotFoundError(versionId === "latest" ? `OpenAPI spec ${spec.slug} has no processed version yet.` : `OpenAPI spec version ${versionId} was not found.`);
  }
  return { spec, version };
}

export const versionActions: OpenAPIActions = {
  listVersions: {
    params: { ...ref, ...listParams },
    async handler(this: OpenAPIService, ctx: Ctx<Ref & { page?: string; limit?: number }>) {
      await this.readAccess(ctx.params.organizationId, callerOf(ctx));
      const spec = await this.loadSpec(ctx.params.organizationId, ctx.params.specSlug);
      const publicUrl = this.publicUrl();
      // Newest first: a client looking for the latest finds it on the first page.
      return listPage(this.versions, { specId: spec.id }, { ...ctx.params, sort: [["createdAt", -1]] }, (docs) =>
        docs.map((doc) => presentVersion(doc, spec, publicUrl)),
      );
    },
  },

  getLatestVersion: {
    params: ref,
    async handler(this: OpenAPIService, ctx: Ctx<Ref>) {
      const { spec, version } = await loadVersion(this, ctx, "latest");
      return presentVersion(version, spec, this.publicUrl());
    },
  },

  getLatestVersionContent: {
    params: ref,
    async handler(this: OpenAPIService, ctx: Ctx<Ref>) {
      const { spec, version } = await loadVersion(this, ctx, "latest");
      return contentOf(this, ctx, spec, version);
    },
  },

  getVersion: {
    params: versionRef,
    async handler(this: OpenAPIService, ctx: Ctx<VersionRef>) {
      const { spec, version } = await loadVersion(this, ctx, ctx.params.versionId);
      return presentVersion(version, spec, this.publicUrl());
    },
  },

  getVersionContent: {
    params: versionRef,
    async handler(this: OpenAPIService, ctx: Ctx<VersionRef>) {
      const { spec, version } = await loadVersion(this, ctx, ctx.params.versionId);
      return contentOf(this, ctx, spec, version);
    },
  },
};
