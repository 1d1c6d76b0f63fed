// Importing content into a space: a website's pages become new pages of the space's current revision.
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import { IMPORT_SOURCES, importFetch } from "./import-fetch";
import { convertOffThread } from "./off-thread";
import { commitChanges } from "./revisions/commit";
import { changesForPaths } from "./revisions/tree";
import type { ContentActions, ContentService, Ctx } from "./service-types";
import { importWebsite, type ImportedPage } from "./website-import";

/** Commits retried when the space moved while the site was fetched (the import only adds pages). */
const COMMIT_ATTEMPTS = 3;

interface ImportParams {
  spaceId: string;
  url: string;
  source: (typeof IMPORT_SOURCES)[number];
}

/** Adds the pages to the space's current revision as one new revision (the space moved to it); retried when the space moved meanwhile. */
async function commitImport(service: ContentService, spaceId: string, pages: ImportedPage[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const space = await service.spaces.findOne({ id: spaceId, deletedAt: op.exists(false) });
    if (!space) throw new NotFoundError(`Space ${spaceId} was not found.`);
    if (space.editMode === "locked") throw new ForbiddenError("The space is locked: its content cannot be edited.");
    const base = await service.loadRevision(space.id, space.revision);
    try {
      const { revision } = await commitChanges(service, space, base, changesForPaths(base.pages, pages), { move: true });
      return revision.id;
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= COMMIT_ATTEMPTS) throw err;
    }
  }
}

export const importActions: ContentActions = {
  importContent: {
    params: { spaceId: idRule, url: urlRule(2048), source: { type: "enum", values: [...IMPORT_SOURCES] } },
    async handler(ctx: Ctx<ImportParams>) {
      const { space, role } = await this.loadSpace(ctx, ctx.params.spaceId);
      this.requireRole(role, "edit", "Importing content");
      if (space.editMode === "locked") throw new ForbiddenError("The space is locked: its content cannot be edited.");
      if (ctx.params.source !== "website") {
        throw new BadRequestError(`Invalid parameters: 'source': importing from "${ctx.params.source}" is not supported; only "website" is.`);
      }
      const settings = this.importSettings;
      // safe-fetch's refusals (private addresses, bad URLs, time, size) are 400s with their own message.
      const site = await importWebsite(ctx.params.url, {
        fetch: importFetch(settings.allowedPrivateTargets),
        maxPages: settings.maxPages,
        maxBytesTotal: settings.maxBytesTotal,
        timeoutMs: settings.timeoutMs,
        convert: convertOffThread(this, space.organizationId),
      });
      const revision = await commitImport(this, space.id, site.pages);
      ctx.meta.$statusCode = 201;
      (ctx.meta as Record<string, unknown>).$responseHeaders = { Location: `${this.publicUrl()}/v1/spaces/${space.id}/revisions/${revision}` };
      return { revision, importedResources: site.importedResources, totalResources: site.totalResources };
    },
  },
};
