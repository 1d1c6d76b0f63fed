// Internal actions (visibility public) content calls for `builtin:openapi` pages: a spec's latest
// good version as its parsed document or as rendered pages. No access check: the caller decides.
import type { SpecPages } from "@docshelf/contracts/openapi";
import { idRule } from "@docshelf/validation";
import type { SpecDoc } from "./models";
import type { OpenAPIDocument } from "./parse-spec";
import { withoutCredentials } from "./present";
import { slugRule } from "./params";
import { renderSpecPages } from "./render-pages";
import type { Ctx, OpenAPIActions, Vars } from "./service-types";

/** What `openapi.getSpecContent` answers: the latest good version's parsed document, or null. */
export interface SpecContent {
  id: string;
  slug: string;
  lastVersion: string;
  document: OpenAPIDocument;
  /** Where the latest version was fetched from (credentials left out); absent for a spec sent as text. */
  sourceURL?: string;
}

/** At most this many specs of one organization registered with the same URL are looked at. */
const SAME_SOURCE_KEPT = 20;

/** A spec's latest good version as SpecContent, or null before there is one. */
async function contentOf(service: Pick<Vars, "documents" | "versions">, spec: SpecDoc | null): Promise<SpecContent | null> {
  if (!spec?.lastVersion) return null;
  const [document, version] = await Promise.all([service.documents.findOne({ id: spec.lastVersion }), service.versions.findOne({ id: spec.lastVersion })]);
  if (!document) return null;
  const content: SpecContent = { id: spec.id, slug: spec.slug, lastVersion: spec.lastVersion, document: JSON.parse(document.json) as OpenAPIDocument };
  if (version?.sourceURL) content.sourceURL = withoutCredentials(version.sourceURL);
  return content;
}

/** What `openapi.renderSpecPages` answers: the spec it rendered and its pages, or null. */
/** What `openapi.renderSpecPages` answers. */
export type { SpecPages };

/** Rendered versions kept in memory (versions never change, so an entry never goes stale). */
const RENDERED_KEPT = 32;

export const internalActions: OpenAPIActions = {
  /** Internal: the parsed document of a spec's latest good version, for `builtin:openapi` pages. */
  getSpecContent: {
    visibility: "public",
    params: { organizationId: idRule, slug: slugRule },
    async handler(ctx: Ctx<{ organizationId: string; slug: string }>): Promise<SpecContent | null> {
      return contentOf(this, await this.specs.findOne({ organizationId: ctx.params.organizationId, slug: ctx.params.slug }));
    },
  },

  /**
   * Internal: the same for the spec the organization registered with this source URL (GitBook's `{% openapi
   * src="…" %}` blocks name a spec by its URL), or null. Nothing is fetched here: only a spec the service
   * already fetched (its address, timeout and size rules) answers. The oldest such spec with a version wins.
   */
  getSpecContentBySource: {
    visibility: "public",
    params: { organizationId: idRule, url: { type: "string", min: 1, max: 2048 } },
    async handler(ctx: Ctx<{ organizationId: string; url: string }>): Promise<SpecContent | null> {
      const specs = await this.specs.find({ organizationId: ctx.params.organizationId, "source.url": ctx.params.url }, { limit: SAME_SOURCE_KEPT });
      const spec = specs.filter((s) => s.lastVersion).sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0] ?? null;
      return contentOf(this, spec);
    },
  },

  /**
   * Internal: the latest good version of a spec as pages (render-pages.ts), for content's
   * `builtin:openapi` computed pages; null when the spec is missing or has no version yet. No access
   * check: the caller decides. Small answers: markdown, never the document.
   */
  renderSpecPages: {
    visibility: "public",
    params: { organizationId: idRule, slug: slugRule, models: { type: "boolean", optional: true } },
    async handler(ctx: Ctx<{ organizationId: string; slug: string; models?: boolean }>): Promise<SpecPages | null> {
      const spec = await this.specs.findOne({ organizationId: ctx.params.organizationId, slug: ctx.params.slug });
      if (!spec?.lastVersion) return null;
      const key = `${spec.lastVersion}:${ctx.params.models === true}`;
      let rendered = this.renderedVersions.get(key);
      if (!rendered) {
        const document = await this.documents.findOne({ id: spec.lastVersion });
        if (!document) return null;
        rendered = renderSpecPages(JSON.parse(document.json) as OpenAPIDocument, { models: ctx.params.models === true });
        this.renderedVersions.set(key, rendered);
        while (this.renderedVersions.size > RENDERED_KEPT) this.renderedVersions.delete(this.renderedVersions.keys().next().value as string);
      }
      return { spec: { object: "openapi-spec", id: spec.id, slug: spec.slug, lastVersion: spec.lastVersion }, ...rendered };
    },
  },
};
