// Internal actions (visibility public) content calls for `builtin:openapi` pages: a spec's latest
// good version as its parsed document or as rendered pages. No access check: the caller decides.
import type { SpecPages } from "@docshelf/contracts/openapi";
import { idRule } from "@docshelf/validation";
import type { OpenAPIDocument } from "./parse-spec";
import { slugRule } from "./params";
import { renderSpecPages } from "./render-pages";
import type { Ctx, OpenAPIActions } from "./service-types";

/** What `openapi.getSpecContent` answers: the latest good version's parsed document, or null. */
export interface SpecContent {
  id: string;
  slug: string;
  lastVersion: string;
  document: OpenAPIDocument;
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
      const spec = await this.specs.findOne({ organizationId: ctx.params.organizationId, slug: ctx.params.slug });
      if (!spec?.lastVersion) return null;
      const document = await this.documents.findOne({ id: spec.lastVersion });
      if (!document) return null;
      return { id: spec.id, slug: spec.slug, lastVersion: spec.lastVersion, document: JSON.parse(document.json) as OpenAPIDocument };
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
