// Importing content into a space: a website's pages become new pages of the space's current revision.
import { configFor } from "@docshelf/config";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { isPublicAddress, safeFetch, type AddressPolicy } from "@docshelf/safe-fetch";
import { op } from "@docshelf/store";
import { idRule, urlRule } from "@docshelf/validation";
import { commitChanges } from "../revisions/commit";
import { changesForPaths } from "../revisions/tree";
import type { ContentPart, Ctx } from "../service-types";
import { IMPORT_DEFAULTS, importWebsite, type ImportedPage, type ImportFetch } from "../website-import";

/** GitBook's ImportContentSource values; only `website` is implemented. */
export const IMPORT_SOURCES = ["website", "docx", "markdown", "html", "zip", "confluence", "github-wiki", "notion", "google-docs"] as const;

export interface ImportSettings {
  /** Pages imported at most per import. */
  maxPages: number;
  /** Bytes downloaded at most per import, all responses together. */
  maxBytesTotal: number;
  /** Time for the whole crawl. */
  timeoutMs: number;
  /**
   * `address:port` pairs the fetch may reach although they are private (loopback test servers).
   * Empty in production: only public addresses are ever fetched.
   */
  allowedPrivateTargets: string[];
}

/** Largest `CONTENT_IMPORT_MAX_PAGES`: one import is one revision, and a batch holds at most 10,000 changes. */
export const MAX_IMPORT_PAGES = 2000;

const TARGET = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]):\d{1,5}$/i;

/** Commits retried when the space moved while the site was fetched (the import only adds pages). */
const COMMIT_ATTEMPTS = 3;

export class ImportSettingsError extends Error {}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > max) throw new ImportSettingsError(`${name} must be a positive integer up to ${max}, not "${raw}".`);
  return value;
}

/**
 * Reads and validates the import variables; a bad value throws, naming the variable. The crawl's time
 * is capped at 80 % of the request timeout, so the answer (and the commit) come before the caller gives up.
 */
export function readImportSettings(env: NodeJS.ProcessEnv, requestTimeoutMs: number): ImportSettings {
  const allowed = (env.CONTENT_IMPORT_ALLOW_PRIVATE ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  for (const target of allowed) {
    if (!TARGET.test(target)) throw new ImportSettingsError(`CONTENT_IMPORT_ALLOW_PRIVATE holds "${target}"; give IP:port pairs such as 127.0.0.1:8081.`);
  }
  const cap = Math.max(1000, Math.floor(requestTimeoutMs * 0.8));
  return {
    maxPages: positiveInt(env, "CONTENT_IMPORT_MAX_PAGES", IMPORT_DEFAULTS.maxPages, MAX_IMPORT_PAGES),
    maxBytesTotal: positiveInt(env, "CONTENT_IMPORT_MAX_BYTES", IMPORT_DEFAULTS.maxBytesTotal),
    timeoutMs: Math.min(positiveInt(env, "CONTENT_IMPORT_TIMEOUT_MS", IMPORT_DEFAULTS.timeoutMs), cap),
    allowedPrivateTargets: allowed.map((t) => t.toLowerCase()),
  };
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** Public addresses, plus exactly the allowed private `address:port` pairs for this hop's port. */
export function addressPolicyFor(url: URL, allowedPrivateTargets: string[]): AddressPolicy {
  if (allowedPrivateTargets.length === 0) return isPublicAddress;
  const port = portOf(url);
  return (address) => {
    const target = (address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`).toLowerCase();
    return isPublicAddress(address) || allowedPrivateTargets.includes(target);
  };
}

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
          const { revision } = await commitChanges(this, space, base, changesForPaths(base.pages, pages), { move: true });
          return revision.id;
        } catch (err) {
          if (!(err instanceof ConflictError) || attempt >= COMMIT_ATTEMPTS) throw err;
        }
      }
    },
  },

  created() {
    this.importSettings = readImportSettings(process.env, configFor(this.broker).requestTimeoutMs);
  },
};
