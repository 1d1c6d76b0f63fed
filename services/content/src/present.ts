// The API shape of a space.
import { spacePermissions, type RoleOrGuest, type SpacePermissions } from "@docshelf/access";
import type { RevisionDoc, SpaceDoc } from "./models";

export interface SpaceResource {
  object: "space";
  id: string;
  title: string;
  emoji: string;
  visibility: SpaceDoc["visibility"];
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  editMode: SpaceDoc["editMode"];
  mergeRules: { type: "inherit" };
  urls: { location: string; app: string; published?: string; public?: string };
  organization: string;
  parent?: string;
  revision: string;
  defaultLevel: SpaceDoc["defaultLevel"];
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions: SpacePermissions;
}

export function presentSpace(space: SpaceDoc, role: RoleOrGuest, publicUrl: string): SpaceResource {
  const resource: SpaceResource = {
    object: "space",
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    editMode: space.editMode,
    mergeRules: { type: "inherit" },
    urls: { location: `${publicUrl}/v1/spaces/${space.id}`, app: `${publicUrl}/s/${space.id}` },
    organization: space.organizationId,
    revision: space.revision,
    defaultLevel: space.defaultLevel,
    comments: space.comments,
    changeRequests: space.changeRequests,
    changeRequestsOpen: space.changeRequestsOpen,
    changeRequestsDraft: space.changeRequestsDraft,
    permissions: spacePermissions(role),
  };
  if (space.parent) resource.parent = space.parent;
  if (space.deletedAt) resource.deletedAt = space.deletedAt;
  if (space.visibility !== "private" && space.visibility !== "in-collection") resource.urls.published = `${publicUrl}/s/${space.id}/published`;
  if (space.visibility === "public") resource.urls.public = `${publicUrl}/s/${space.id}/published`;
  return resource;
}

export function presentRevision(revision: RevisionDoc, space: SpaceDoc, publicUrl: string) {
  return {
    object: "revision" as const,
    id: revision.id,
    parents: revision.parents,
    type: revision.type,
    pages: revision.pages,
    files: revision.files,
    reusableContents: revision.reusableContents,
    variables: revision.variables,
    createdAt: revision.createdAt,
    urls: { app: `${publicUrl}/s/${space.id}/~/revisions/${revision.id}` },
  };
}
