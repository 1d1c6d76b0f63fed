// Exporting a change request's content as PDF: a temporary signed URL, and the document behind it.
import { Readable } from "node:stream";
import { BadRequestError, NotFoundError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import type { TreePage } from "./merge";
import { renderPdf, type PdfSection } from "./pdf";
import { PDF_URL_TTL_MS, signPdfToken, verifyPdfToken } from "./pdf-links";
import type { ChangeRequestsActions, Ctx } from "./service-types";

const at = { spaceId: idRule, changeRequestId: { type: "string", min: 1, max: 64 } } as const;
const CHUNK = 256 * 1024;

function find(pages: TreePage[], id: string): TreePage | undefined {
  for (const page of pages) {
    if (page.id === id) return page;
    const inner = find(page.pages, id);
    if (inner) return inner;
  }
  return undefined;
}

function flatten(pages: TreePage[]): TreePage[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages)]);
}

export const pdfActions: ChangeRequestsActions = {
  /** GET …/:changeRequestId/pdf (`only`, `page`) — read role; `{url}` valid for an hour, of the revision as it is now. */
  getPdf: {
    params: { ...at, only: { type: "boolean", optional: true, convert: true }, page: { ...idRule, optional: true } },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; only?: boolean; page?: string }>) {
      const { cr } = await this.load(ctx, ctx.params.spaceId, ctx.params.changeRequestId);
      const { only, page } = ctx.params;
      if (only && !page) throw new BadRequestError("Invalid parameters: 'page' is required when 'only' is true.");
      if (page) {
        const [tree] = await this.trees(ctx, cr.spaceId, [cr.revision]);
        if (!find(tree.pages, page)) throw new NotFoundError(`Page ${page} was not found in the change request.`);
      }
      const token = signPdfToken(this.pdfKey, { spaceId: cr.spaceId, changeRequestId: cr.id, revision: cr.revision, page, only, exp: Date.now() + PDF_URL_TTL_MS });
      return { url: `${this.publicUrl()}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/pdf/${token}` };
    },
  },

  /** GET …/:changeRequestId/pdf/:token — whoever holds the URL, for an hour: the PDF itself. */
  downloadPdf: {
    params: { ...at, token: { type: "string", min: 10, max: 4096 } },
    async handler(ctx: Ctx<{ spaceId: string; changeRequestId: string; token: string }>) {
      const claims = verifyPdfToken(this.pdfKey, ctx.params.token);
      if (!claims || claims.spaceId !== ctx.params.spaceId || claims.changeRequestId !== ctx.params.changeRequestId) {
        throw new NotFoundError("This PDF link is unknown or has expired; ask for a new one.");
      }
      const cr = await this.changeRequests.findOne({ id: claims.changeRequestId, spaceId: claims.spaceId });
      if (!cr) throw new NotFoundError("This PDF link is unknown or has expired; ask for a new one.");
      const [tree] = await this.trees(ctx, claims.spaceId, [claims.revision]);
      const start = claims.page ? find(tree.pages, claims.page) : undefined;
      const pages = start ? (claims.only ? [start] : flatten([start])) : flatten(tree.pages);
      const ids = [...new Set(pages.flatMap((p) => (typeof p.documentId === "string" ? [p.documentId] : [])))];
      const bodies: Record<string, string> = {};
      for (let i = 0; i < ids.length; i += 1000) {
        Object.assign(bodies, await ctx.call<Record<string, string>, { ids: string[] }>("content.documentBodies", { ids: ids.slice(i, i + 1000) }));
      }
      const sections: PdfSection[] = pages.map((p) => ({ title: p.title, markdown: bodies[(p.documentId as string) ?? ""] ?? "" }));
      const pdf = renderPdf(`Change request #${cr.number}: ${cr.subject}`, sections);
      ctx.meta.$responseType = "application/pdf";
      ctx.meta.$responseHeaders = { "Content-Disposition": `inline; filename="change-request-${cr.number}.pdf"`, "Cache-Control": "private, max-age=3600" };
      // ASCII text in chunks: it fits through the transporter whatever its size.
      const chunks: string[] = [];
      for (let i = 0; i < pdf.length; i += CHUNK) chunks.push(pdf.slice(i, i + CHUNK));
      return Readable.from(chunks, { objectMode: false });
    },
  },
};
