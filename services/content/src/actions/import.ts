// Importing content into a space: a website's pages become new pages of the space's current revision.
import { configFor, type ContentImportConfig } from "@docshelf/config";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { addressPolicyFor, isPublicAddress, safeFetch } from "@docshelf/safe-fetch";
import { op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import { changesForPaths } from "../revisions/tree";
import type { ContentPart, Ctx } from "../service-types";
import { importWebsite, type ImportedPage, type ImportFetch } from "../website-import";

/** GitBook's ImportContentSource values; only `website` is implemented. */
export const IMPORT_SOURCES = ["website", "docx", "markdown", "html", "zip", "confluence", "github-wiki", "notion", "google-docs"] as const;

/** The import's limits: packages/config's CONTENT_IMPORT_* variables. */
export type ImportSettings = ContentImportConfig;

/** Commits retried when the space moved while the site was fetched (the import only adds pages). */
const COMMIT_ATTEMPTS = 3;

/**
 * safe-fetch with the address policy of each hop. The website import asks for `redirect: "manual"`
 * and follows redirects itself, so every hop passes through here and is checked with its own port.
 */
export function importFetch(allowedPrivateTargets: string[]): ImportFetch {
  return (url, options) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined; // safe-fetch refuses it as bad-url
    }
    return safeFetch(url, { ...options, isAllowedAddress: parsed ? addressPolicyFor(parsed, allowedPrivateTargets) : isPublicAddress });
  };
}

interface ImportParams {
  spaceId: string;
  url: string;
  source: (typeof IMPORT_SOURCES)[number];
}

export const importActions: ContentPart = {
  actions: {
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
        });
        const revision = await this.commitImport(space.id, site.pages);
        ctx.meta.$statusCode = 201;
        (ctx.meta as Record<string, unknown>).$responseHeaders = { Location: `${this.publicUrl()}/v1/spaces/${space.id}/revisions/${revision}` };
        return { revision, importedResources: site.importedResources, totalResources: site.totalResources };
      },
    },
  },

  methods: {
    /** Adds the pages to the space's current revision as one new revision; retried when the space moved meanwhile. */
    async commitImport(spaceId: string, pages: ImportedPage[]): Promise<string> {
      for (let attempt = 1; ; attempt++) {
        const space = await this.spaces.findOne({ id: spaceId, deletedAt: op.exists(false) });
        if (!space) throw new NotFoundError(`Space ${spaceId} was not found.`);
        if (space.editMode === "locked") throw new ForbiddenError("The space is locked: its content cannot be edited.");
        const base = await this.loadRevision(space.id, space.revision);
        try {
          const { revision } = await this.commitChanges(space, base, changesForPaths(base.pages, pages), { move: true });
          return revision.id;
        } catch (err) {
          if (!(err instanceof ConflictError) || attempt >= COMMIT_ATTEMPTS) throw err;
        }
      }
    },
  },

  created() {
    this.importSettings = configFor(this.broker).contentImport;
  },
};
