// The API shape of a change request: its author embedded, `outdated` against main's current revision.
import type { ChangeRequestDoc } from "./models";

import type { User } from "@docshelf/contracts/identity";

/** GitBook's embedded User, as `identity.getMany` gives it. */
export type { User };

export interface ChangeRequestResource {
  object: "change-request";
  id: string;
  number: number;
  status: ChangeRequestDoc["status"];
  subject: string;
  createdBy: User;
  createdAt: string;
  updatedAt: string;
  space: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  comments: number;
  outdated: boolean;
  urls: { app: string; location: string };
}

export interface PresentContext {
  publicUrl: string;
  users: Record<string, User>;
  /** Main's current revision. */
  mainRevision: string | null;
}

/** The main revision the change request last took in: its update from main, else the one it started from. */
export function ancestorOf(cr: ChangeRequestDoc): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

/** True when main moved since the change request last took it in (never for a merged or archived one). */
export function isOutdated(cr: ChangeRequestDoc, mainRevision: string | null): boolean {
  if (cr.status === "merged" || cr.status === "archived" || !mainRevision) return false;
  return ancestorOf(cr) !== mainRevision;
}

export function presentChangeRequest(cr: ChangeRequestDoc, ctx: PresentContext): ChangeRequestResource {
  const location = `${ctx.publicUrl}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}`;
  const out: ChangeRequestResource = {
    object: "change-request",
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: ctx.users[cr.createdBy] ?? { object: "user", id: cr.createdBy, displayName: "Deleted user", urls: { location: `${ctx.publicUrl}/v1/users/${cr.createdBy}` } },
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    space: cr.spaceId,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    comments: cr.comments,
    outdated: isOutdated(cr, ctx.mainRevision),
    urls: { app: `${ctx.publicUrl}/s/${cr.spaceId}/~/changes/${cr.number}`, location },
  };
  if (cr.revisionMergedAncestor) out.revisionMergedAncestor = cr.revisionMergedAncestor;
  if (cr.revisionMerged) out.revisionMerged = cr.revisionMerged;
  return out;
}
