// An import run as GitBook's ContentImportRun.
import type { ContentImportRun } from "@docshelf/contracts/content";
import type { ImportRunDoc } from "../models";

export type { ContentImportRun };

export function presentImportRun(run: ImportRunDoc, publicUrl: string): ContentImportRun {
  return {
    object: "import-run",
    id: run.id,
    status: run.status,
    ...(run.status === "failed" && run.reason ? { reason: run.reason } : {}),
    source: run.source,
    target: { space: run.spaceId, ...(run.changeRequestId ? { changeRequest: run.changeRequestId } : {}), ...(run.pageId ? { page: run.pageId } : {}) },
    ...(run.site ? { site: run.site } : {}),
    createdBy: run.createdBy,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(run.startedAt ? { startedAt: run.startedAt } : {}),
    ...(run.completedAt ? { completedAt: run.completedAt } : {}),
    urls: { location: `${publicUrl}/v1/org/${run.organizationId}/imports/${run.id}` },
    pages: run.pages ?? [],
  };
}
