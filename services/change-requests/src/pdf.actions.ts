// Exporting a change request's content, or a space's current revision (getSpacePDF), as PDF: a temporary
// signed URL, and the document behind it.
import { callerOf } from "@docshelf/access";
import { BadRequestError, ForbiddenError, NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import type { TreePage } from "./merge";
import { PDF_LIMITS, renderPdf, type PdfPage } from "./pdf";
import { PDF_URL_TTL_MS, signPdfToken, verifyPdfToken } from "./pdf-links";
import type { ChangeRequestsActions, Ctx, SpaceAccess } from "./service-types";

const at = { spaceId: idRule, changeRequestId: { type: "string", min: 1, max: 64 } } as const;
const UNKNOWN_LINK = "This PDF link is unknown or has expired; ask for a new one.";

function find(pages: TreePage[], id: string): TreePage | undefined {
  for (const page of pages) {
    if (page.id === id) return page;
    const inner = find(page.pages, id);
    if (inner) return inner;
  }
  return undefined;
}

/** Pages in tree order with their depth (0 for the first level given). */
function flatten(pages: TreePage[], depth = 0): PdfPage[] {
  return pages.flatMap((p) => [
    { id: p.id, title: p.title, depth, ...(typeof p.documentId === "string" ? { documentId: p.documentId } : {}) },
    ...flatten(p.pages, depth + 1),
  ]);
}

/** The pages `page`/`only` select from a tree (all of it without `page`); undefined when `page` is not in it. */
function select(pages: TreePage[], page: string | undefined, only: boolean | undefined): PdfPage[] | undefined {
  if (!page) return flatten(pages);
  const start = find(pages, page);
  if (!start) return undefined;
  return only ? flatten([{ ...start, pages: [] }]) : flatten([start]);
}

const pageOptions = { only: { type: "boolean", optional: true, convert: true }, page: { ...idRule, optional: true } } as const;

/** The headers of a PDF download: an attachment no cache keeps and no referrer leaks. */
function pdfHeaders(filename: string): Record<string, string> {
  return {
    "Content-Disposition": `attachment; filename="${filename}"`,
    // The URL is a capability: neither it nor the document should be kept by caches or leak as a referrer.
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
}

export const pdfActions: ChangeRequestsActions = {
  /**
   * GET /v1/spaces/:spaceId/pdf (`only`, `page`) — read role; GitBook's getSpacePDF: `{url}` valid for an
   * hour, of the space's revision as it is now (the change request renderer, on main's revision).
   */
  getSpacePdf: {
    params: { spaceId: idRule, ...pageOptions },
    async handler(ctx: Ctx<{ spaceId: string; only?: boolean; page?: string }>) {
      const space = await this.loadSpace(ctx, ctx.params.spaceId);
      const { only, page } = ctx.params;
      if (only && !page) throw new BadRequestError("Invalid parameters: 'page' is required when 'only' is true.");
      if (page) {
        const [tree] = await this.trees(ctx, space.spaceId, [space.revision]);
        if (!find(tree.pages, page)) throw new NotFoundError(`Page ${page} was not found in the space.`);
      }
      const userId = callerOf(ctx).id;
      const token = signPdfToken(this.pdfKey, { spaceId: space.spaceId, userId, revision: space.revision, page, only, exp: this.now() + PDF_URL_TTL_MS });
      return { url: `${this.publicUrl()}/v1/spaces/${space.spaceId}/pdf/${token}` };
    },
  },

  /**
   * GET /v1/spaces/:spaceId/pdf/:token — no bearer token: the signed, expiring URL is the permission
   * (gateway route `change-request-pdfs`), while the user who asked for it can still read the space.
   */
  downloadSpacePdf: {
    params: { spaceId: idRule, token: { type: "string", min: 10, max: 4096 } },
    async handler(ctx: Ctx<{ spaceId: string; token: string }>) {
      const claims = verifyPdfToken(this.pdfKey, ctx.params.token, this.now());
      if (!claims || claims.changeRequestId !== undefined || !claims.userId || claims.spaceId !== ctx.params.spaceId) throw new NotFoundError(UNKNOWN_LINK);
      const access = await ctx.call<SpaceAccess, { spaceId: string; userId: string }>("content.spaceAccess", { spaceId: claims.spaceId, userId: claims.userId });
      if (!access.exists || !access.role) throw new NotFoundError(UNKNOWN_LINK);
      const [tree] = await this.trees(ctx, claims.spaceId, [claims.revision]);
      const selected = select(tree.pages, claims.page, claims.only);
      if (!selected) throw new NotFoundError(UNKNOWN_LINK);
      const pdf = renderPdf({
        title: access.title || "Space",
        details: [`Revision: ${claims.revision}`, `Exported: ${new Date(this.now()).toISOString()}`, `${selected.length} page(s)`],
        pages: selected.slice(0, PDF_LIMITS.maxPages),
        totalPages: selected.length,
        bodies: (ids) => this.documentBodies(ctx, ids),
      });
      ctx.meta.$responseType = "application/pdf";
      ctx.meta.$responseHeaders = pdfHeaders(`space-${claims.spaceId}.pdf`);
      return pdf;
    },
  },

  /** GET …/:changeRequestId/pdf (`only`, `page`) — read role; `{url}` valid for an hour, of the revision as it is now. */
  getPdf: {
    params: { ...at, ...pageOptions },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; only?: boolean; page?: string }>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const { only, page } = ctx.params;
      if (only && !page) throw new BadRequestError("Invalid parameters: 'page' is required when 'only' is true.");
      if (page) {
        const [tree] = await this.trees(ctx, cr.spaceId, [cr.revision]);
        if (!find(tree.pages, page)) throw new NotFoundError(`Page ${page} was not found in the change request.`);
      }
      const token = signPdfToken(this.pdfKey, { spaceId: cr.spaceId, changeRequestId: cr.id, revision: cr.revision, page, only, exp: this.now() + PDF_URL_TTL_MS });
      return { url: `${this.publicUrl()}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/pdf/${token}` };
    },
  },

  /**
   * GET /v1/spaces/:spaceId/change-requests/:changeRequestId/pdf/:token — no bearer token: the signed,
   * expiring URL is the permission (gateway route `change-request-pdfs`). Streams the PDF as an attachment.
   */
  downloadPdf: {
    params: { ...at, token: { type: "string", min: 10, max: 4096 } },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; token: string }>) {
      const claims = verifyPdfToken(this.pdfKey, ctx.params.token, this.now());
      if (!claims || claims.spaceId !== ctx.params.spaceId || claims.changeRequestId !== ctx.params.changeRequestId) throw new NotFoundError(UNKNOWN_LINK);
      const cr = await this.changeRequests.findOne({ id: claims.changeRequestId, spaceId: claims.spaceId });
      if (!cr) throw new NotFoundError(UNKNOWN_LINK);
      const [tree] = await this.trees(ctx, claims.spaceId, [claims.revision]);
      const selected = select(tree.pages, claims.page, claims.only);
      if (!selected) throw new NotFoundError(UNKNOWN_LINK);
      const title = cr.subject ? `Change request #${cr.number}: ${cr.subject}` : `Change request #${cr.number}`;
      const pdf = renderPdf({
        title,
        details: [`Status: ${cr.status}`, `Revision: ${claims.revision}`, `Exported: ${new Date(this.now()).toISOString()}`, `${selected.length} page(s)`],
        pages: selected.slice(0, PDF_LIMITS.maxPages),
        totalPages: selected.length,
        bodies: (ids) => this.documentBodies(ctx, ids),
      });
      ctx.meta.$responseType = "application/pdf";
      ctx.meta.$responseHeaders = pdfHeaders(`change-request-${cr.number}.pdf`);
      return pdf;
    },
  },

  // Test-only (NODE_ENV=test): moves this service's clock forward, so a test can see a PDF URL expire.
  ...(process.env.NODE_ENV === "test"
    ? {
        advanceClock: {
          params: { ms: { type: "number", integer: true, min: 0, max: 365 * 24 * 3600 * 1000, convert: true } },
          handler(ctx: Ctx<{ ms: number }>) {
            if (!callerOf(ctx).instanceAdmin) throw new ForbiddenError();
            this.clockOffsetMs += ctx.params.ms;
            return { now: new Date(this.now()).toISOString() };
          },
        },
      }
    : {}),
};
