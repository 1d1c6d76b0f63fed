// The purge job: spaces deleted longer ago than the retention window go for good, with their revisions
// and the page bodies and file bytes no remaining revision uses. It keeps no state (it queries
// `deletedAt`), so restarts lose nothing; content.service.ts runs it on start and every hour.
import { broadcast } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { ConflictError } from "@docshelf/errors";
import { op } from "@docshelf/store";
import { walk, type PageNode } from "./revisions/tree";
import { RETENTION_MS, type ContentService } from "./service-types";

/** How long a purged space is announced again by every purge sweep (so for a day, once an hour). */
const PURGE_REPLAY_MS = 24 * 60 * 60 * 1000;

/** Runs one sweep; the number of spaces it purged. */
export async function purgeDeleted(service: ContentService): Promise<number> {
  const now = service.now();
  const cutoff = new Date(now.getTime() - RETENTION_MS).toISOString();
  // Spaces purged by earlier sweeps are announced again while their tombstone lasts (models.ts).
  const replayFrom = new Date(now.getTime() - PURGE_REPLAY_MS).toISOString();
  for (const gone of await service.purgedSpaces.find({ purgedAt: op.gte(replayFrom) })) {
    await broadcast(service.broker, events.contentSpacePurged, { spaceId: gone.id, organizationId: gone.organizationId });
  }
  await service.purgedSpaces.deleteMany({ purgedAt: op.lt(replayFrom) });
  const expired = await service.spaces.find({ deletedAt: op.lt(cutoff) });
  if (!expired.length) return 0;
  const removedDocuments = new Set<string>();
  const removedFiles = new Set<string>();
  for (const space of expired) {
    for (const revision of await service.revisions.find({ spaceId: space.id })) {
      for (const { page } of walk(revision.pages)) if (page.documentId) removedDocuments.add(page.documentId);
      for (const r of revision.reusableContents) if (r.documentId) removedDocuments.add(r.documentId);
      for (const f of revision.files) removedFiles.add(f.sha256);
      service.revisionCache.delete(revision.id);
    }
    // The tombstone first: a purge that stops half-way is announced by the next sweep all the same.
    await service.purgedSpaces.insert({ id: space.id, organizationId: space.organizationId, purgedAt: now.toISOString() }).catch((err: unknown) => {
      if (!(err instanceof ConflictError)) throw err;
    });
    await service.revisions.deleteMany({ spaceId: space.id });
    await service.spaces.deleteOne({ id: space.id });
    await broadcast(service.broker, events.contentSpacePurged, { spaceId: space.id, organizationId: space.organizationId });
  }
  // A document or file goes only when no remaining revision (of any space) still uses it.
  if (removedDocuments.size || removedFiles.size) {
    for (const revision of await service.revisions.find({})) {
      for (const { page } of walk(revision.pages as PageNode[])) removedDocuments.delete(page.documentId ?? "");
      for (const r of revision.reusableContents) removedDocuments.delete(r.documentId ?? "");
      for (const f of revision.files) removedFiles.delete(f.sha256);
    }
    for (const id of removedDocuments) await service.documents.deleteOne({ id });
    for (const sha256 of removedFiles) await service.files.remove(sha256);
  }
  return expired.length;
}
