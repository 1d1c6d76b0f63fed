// The change-requests service's internal actions other services call, and the answers they give.
import type { RoleOrGuest } from "@docshelf/access";
import { action } from "./action";

/** A change request of a space as the user may see it (for comments on change requests). */
export interface ChangeRequestAccess {
  exists: boolean;
  id: string | null;
  number: number | null;
  status: string | null;
  revision: string | null;
  role: RoleOrGuest;
}

export const access = action<{ spaceId: string; changeRequestId: string; userId: string }, ChangeRequestAccess>("change-requests.access");
/** The open comment count of a change request, sent by the comments service (absolute, so repeats cannot drift). */
export const setComments = action<{ spaceId: string; changeRequestId: string; comments: number }, { updated: boolean }>("change-requests.setComments");

/** What `change-requests.merged` (the broadcast, and the channel) carries. */
export interface ChangeRequestMerged {
  spaceId: string;
  changeRequestId: string;
  number: number;
  subject: string;
  revision: string;
}
