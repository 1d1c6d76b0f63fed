// What a diff of two revisions reads of a page, shared by a change request's diff page (serve.actions.ts) and the
// history's compare page (history.ts): whether a page's content changed, and its Markdown on each side.
import * as contentApi from "@docshelf/contracts/content";
import type { As } from "./admin";
import type { PageChanges } from "./conflicts";

/** A page's Markdown in a revision; "" when it is not there (added or removed on that side). */
export async function markdownIn(as: As, spaceId: string, revisionId: string, pageId: string): Promise<string> {
  try {
    return (await as(contentApi.getPageInRevision, { spaceId, revisionId, pageId, format: "markdown" })).markdown ?? "";
  } catch (err) {
    if ((err as { code?: unknown }).code === 404) return "";
    throw err;
  }
}

/** Whether a page's content changed (a document added, removed or with a new body). */
export function contentChanged(p: PageChanges): boolean {
  return p.type === "document" && (p.kinds.includes("added") || p.kinds.includes("removed") || "document" in p.attributes);
}
