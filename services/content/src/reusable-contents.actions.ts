// GitBook's reads of a space's reusable contents (`getReusableContentById`, `…InRevisionById`, the document of
// one in a revision) and the internal read change-requests answers `…InChangeRequestById` with.
import { markdownToDocument } from "@docshelf/document";
import { NotFoundError } from "@docshelf/errors";
import { idRule, contentReadFlags as flags } from "@docshelf/validation";
import type { RevisionDoc } from "./models";
import { presentReusableContent } from "./present";
import { documentResolver, refIndex } from "./revisions/document-refs";
import { evaluateMarkdown } from "./revisions/markdown";
import type { ContentActions, ContentService, Ctx } from "./service-types";

const reusableContentId = idRule;

interface Read {
  spaceId: string;
  reusableContentId: string;
  metadata?: boolean;
  computed?: boolean;
}

/** `evaluated` and `dereferenced` of GitBook's document reads: a boolean or their partial mode, from a query string. */
const documentFlags = {
  evaluated: { type: "enum", values: [true, false, "true", "false", "deterministic-only"], optional: true },
  dereferenced: { type: "enum", values: [true, false, "true", "false", "reusable-contents"], optional: true },
} as const;

function find(revision: RevisionDoc, id: string, where: string) {
  const found = revision.reusableContents.find((r) => r.id === id);
  if (!found) throw new NotFoundError(`Reusable content ${id} was not found in ${where}.`);
  return found;
}

/** One reusable content of a revision, as GitBook's RevisionReusableContent. */
export function serveReusableContent(revision: RevisionDoc, id: string, metadata: boolean | undefined, where: string) {
  return presentReusableContent(find(revision, id, where), metadata ?? true);
}

/** Its body as GitBook's JSON document; evaluated: the space's variables substituted (a reusable content has no page). */
export async function serveReusableDocument(service: ContentService, revision: RevisionDoc, id: string, evaluated: boolean, where: string) {
  const reusable = find(revision, id, where);
  let markdown = reusable.documentId ? await service.markdownOf(reusable.documentId) : "";
  if (evaluated) markdown = evaluateMarkdown(markdown, revision.variables, {});
  return markdownToDocument(markdown, documentResolver(refIndex(revision.pages, revision.files, revision.reusableContents), ""));
}

export const reusableContentActions: ContentActions = {
  /** GET /spaces/:spaceId/content/reusable-contents/:reusableContentId — read role; the space's current revision. */
  getReusableContent: {
    params: { spaceId: idRule, reusableContentId, ...flags },
    async handler(ctx: Ctx<Read>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, space.revision);
      return serveReusableContent(revision, ctx.params.reusableContentId, ctx.params.metadata, "the space");
    },
  },

  /** GET /spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId — read role. */
  getReusableContentInRevision: {
    params: { spaceId: idRule, revisionId: idRule, reusableContentId, ...flags },
    async handler(ctx: Ctx<Read & { revisionId: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveReusableContent(revision, ctx.params.reusableContentId, ctx.params.metadata, `revision ${revision.id}`);
    },
  },

  /** GET /spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document — read role. */
  getReusableContentDocumentInRevision: {
    params: { spaceId: idRule, revisionId: idRule, reusableContentId, ...documentFlags },
    async handler(ctx: Ctx<Read & { revisionId: string; evaluated?: boolean | string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      const evaluated = ctx.params.evaluated !== undefined && ctx.params.evaluated !== false && ctx.params.evaluated !== "false";
      return serveReusableDocument(this, revision, ctx.params.reusableContentId, evaluated, `revision ${revision.id}`);
    },
  },

  /** Internal (change-requests): one reusable content of a given revision, the caller's access checked as above. */
  readReusableContent: {
    visibility: "public",
    params: { spaceId: idRule, revisionId: idRule, reusableContentId, ...flags },
    async handler(ctx: Ctx<Read & { revisionId: string }>) {
      const { space } = await this.loadSpace(ctx, ctx.params.spaceId);
      const revision = await this.loadRevision(space.id, ctx.params.revisionId);
      return serveReusableContent(revision, ctx.params.reusableContentId, ctx.params.metadata, "the change request");
    },
  },
};
