// The API shapes of spaces, revisions, pages, files and link report items.
import { spacePermissions, type RoleOrGuest, type SpacePermissions } from "@docshelf/access";
import type { GitSyncState, RevisionDoc, SpaceDoc } from "./models";
import { DEFAULT_LAYOUT, type FileMeta, type PageNode, type ReusableContentMeta } from "./revisions/tree";
import type { SpacePublishedUrl } from "@docshelf/contracts/sites";

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
  gitSync?: GitSyncState;
  revision: string;
  defaultLevel: SpaceDoc["defaultLevel"];
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions: SpacePermissions;
}

/** `published`: where the space is published, when the caller asked for it (GET of one space). */
export function presentSpace(space: SpaceDoc, role: RoleOrGuest, publicUrl: string, published?: SpacePublishedUrl | null): SpaceResource {
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
  if (space.gitSync) resource.gitSync = { ...space.gitSync };
  if (space.deletedAt) resource.deletedAt = space.deletedAt;
  // Spaces are published through sites: the URL of the space's site space (with `?share=` on a
  // share-link site opened by the request's shareKey); a public site's is also the public URL.
  if (published) {
    resource.urls.published = published.url;
    if (published.visibility === "public") resource.urls.public = published.url;
  }
  return resource;
}

export interface PresentOptions {
  spaceId: string;
  publicUrl: string;
  /** false omits mutable Git metadata. */
  metadata: boolean;
}

export interface PageResource {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  createdAt: string;
  updatedAt: string;
  kind: "sheet" | "group";
  /** `computed` for a computed page read without evaluation (`computed=false`, or an internal read); `group` for a page group. */
  type: "document" | "computed" | "group";
  urls?: { app: string };
  slug: string;
  path: string;
  description?: string;
  documentId?: string;
  pages: PageResource[];
  layout?: PageNode["layout"];
  cover?: PageNode["cover"];
  variables?: Record<string, string>;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  git?: { oid: string; path: string };
  computed?: PageNode["computed"];
  markdown?: string;
  document?: unknown;
}

/** A page as GitBook's RevisionPageDocument (or RevisionPageGroup); `depth` 0 leaves out the children. */
export function presentPage(page: PageNode, opts: PresentOptions, depth = Infinity): PageResource {
  if (page.type === "group") {
    const group: PageResource = {
      id: page.id,
      title: page.title,
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      kind: "group",
      type: "group",
      slug: page.slug,
      path: page.path,
      pages: depth > 0 ? page.pages.map((child) => presentPage(child, opts, depth - 1)) : [],
      hidden: page.hidden ?? false,
      noIndex: page.noIndex ?? false,
      noRobotsIndex: page.noRobotsIndex ?? false,
    };
    if (page.emoji) group.emoji = page.emoji;
    if (page.icon) group.icon = page.icon;
    return group;
  }
  const resource: PageResource = {
    id: page.id,
    title: page.title,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    kind: "sheet",
    type: "document",
    urls: { app: `${opts.publicUrl}/s/${opts.spaceId}/${page.path}` },
    slug: page.slug,
    path: page.path,
    pages: depth > 0 ? page.pages.map((child) => presentPage(child, opts, depth - 1)) : [],
    layout: page.layout ?? DEFAULT_LAYOUT,
    hidden: page.hidden ?? false,
    noIndex: page.noIndex ?? false,
    noRobotsIndex: page.noRobotsIndex ?? false,
  };
  if (page.emoji) resource.emoji = page.emoji;
  if (page.icon) resource.icon = page.icon;
  if (page.description !== undefined) resource.description = page.description;
  if (page.documentId) resource.documentId = page.documentId;
  if (page.cover) resource.cover = page.cover;
  if (page.variables) resource.variables = page.variables;
  if (page.git && opts.metadata) resource.git = page.git;
  if (page.computed) {
    // Evaluated trees (src/computed.ts) carry no `computed`: this is the page as stored.
    resource.type = "computed";
    resource.computed = page.computed;
  }
  return resource;
}

export interface FileResource {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: { oid: string; path: string };
}

export function presentFile(file: FileMeta, downloadURL: string, metadata = true): FileResource {
  const resource: FileResource = { id: file.id, name: file.name, contentType: file.contentType, downloadURL, size: file.size };
  if (file.dimensions) resource.dimensions = file.dimensions;
  if (file.git && metadata) resource.git = file.git;
  return resource;
}

/** GitBook's RevisionReusableContent: `git` (mutable metadata) only when `metadata` is asked. */
export function presentReusableContent(r: ReusableContentMeta, metadata: boolean): { id: string; title: string; document?: string; git?: { oid: string; path: string } } {
  const item: { id: string; title: string; document?: string; git?: { oid: string; path: string } } = { id: r.id, title: r.title };
  if (r.documentId) item.document = r.documentId;
  if (r.git && metadata) item.git = r.git;
  return item;
}

export function presentRevision(revision: RevisionDoc, space: SpaceDoc, opts: PresentOptions, downloadURL: (file: FileMeta) => string) {
  const urls: { app: string; published?: string; public?: string } = { app: `${opts.publicUrl}/s/${space.id}/~/revisions/${revision.id}` };
  if (space.visibility !== "private" && space.visibility !== "in-collection" && space.visibility !== "share-link") {
    urls.published = `${opts.publicUrl}/s/${space.id}/published`;
  }
  if (space.visibility === "public") urls.public = `${opts.publicUrl}/s/${space.id}/published`;
  return {
    object: "revision" as const,
    id: revision.id,
    parents: revision.parents,
    type: revision.type,
    pages: revision.pages.map((page) => presentPage(page, opts)),
    files: revision.files.map((file) => presentFile(file, downloadURL(file), opts.metadata)),
    reusableContents: revision.reusableContents.map((r) => presentReusableContent(r, opts.metadata)),
    variables: revision.variables,
    createdAt: revision.createdAt,
    ...(revision.git && opts.metadata ? { git: revision.git } : {}),
    urls,
  };
}
