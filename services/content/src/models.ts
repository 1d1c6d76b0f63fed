// Spaces and revisions as stored.
import type { RoleOrGuest } from "@docshelf/access";
import type { CollectionSpec } from "@docshelf/store";

export const VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export interface SpaceDoc {
  id: string;
  organizationId: string;
  title: string;
  emoji: string;
  visibility: Visibility;
  editMode: "live" | "locked";
  /** A role, null (guests only), or "inherit" from the collection and organization. */
  defaultLevel: RoleOrGuest | "inherit";
  parent?: string;
  /** The active revision; moves only by compare-and-swap. */
  revision: string;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

export interface RevisionDoc {
  id: string;
  spaceId: string;
  parents: string[];
  type: "edits";
  pages: unknown[];
  files: unknown[];
  reusableContents: unknown[];
  variables: Record<string, string>;
  createdAt: string;
}

export const collections: Record<"spaces" | "revisions", CollectionSpec> = {
  spaces: { name: "spaces", indexes: [{ fields: ["organizationId"] }] },
  revisions: { name: "revisions", indexes: [{ fields: ["spaceId"] }] },
};
