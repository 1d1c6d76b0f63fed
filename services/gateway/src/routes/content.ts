// Routes served by the content service.
const routes: Record<string, string> = {
  "POST /orgs/:organizationId/spaces": "content.createSpace",
  "GET /orgs/:organizationId/spaces": "content.listSpaces",
  "GET /orgs/:organizationId/members/:userId/spaces": "content.listMemberSpaces",
  "GET /collections/:collectionId/spaces": "content.listSpacesInCollection",
  "GET /spaces/:spaceId": "content.getSpace",
  "PATCH /spaces/:spaceId": "content.updateSpace",
  "DELETE /spaces/:spaceId": "content.deleteSpace",
  // GitBook's space permissions (beyond the interface: they give team and member grants a way in).
  "POST /spaces/:spaceId/permissions": "content.inviteToSpace",
  "GET /spaces/:spaceId/permissions/teams": "content.listTeamPermissionsInSpace",
  "PATCH /spaces/:spaceId/permissions/teams/:teamId": "content.updateTeamPermissionInSpace",
  "DELETE /spaces/:spaceId/permissions/teams/:teamId": "content.removeTeamFromSpace",
  "GET /spaces/:spaceId/permissions/users": "content.listUserPermissionsInSpace",
  "PATCH /spaces/:spaceId/permissions/users/:userId": "content.updateUserPermissionInSpace",
  "DELETE /spaces/:spaceId/permissions/users/:userId": "content.removeUserFromSpace",
  "POST /spaces/:spaceId/duplicate": "content.duplicateSpace",
  "POST /spaces/:spaceId/restore": "content.restoreSpace",
  "POST /spaces/:spaceId/move": "content.moveSpace",
  "POST /spaces/:spaceId/transfer": "content.transferSpace",
  "GET /spaces/:spaceId/links": "content.listSpaceLinks",
  "GET /spaces/:spaceId/content": "content.getCurrentRevision",
  "GET /spaces/:spaceId/revisions/:revisionId": "content.getRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/pages": "content.listPagesInRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/page/:pageId": "content.getPageInRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/page/:pageId/document": "content.getPageDocumentInRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/files": "content.listFilesInRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/files/:fileId": "content.getFileInRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/changes": "content.getRevisionSemanticChanges",
  "GET /spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId": "content.getReusableContentInRevision",
  "GET /spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document": "content.getReusableContentDocumentInRevision",
  "GET /spaces/:spaceId/documents/:documentId": "content.getDocument",
  "POST /spaces/:spaceId/content/template": "content.applyTemplate",
  "GET /spaces/:spaceId/content/pages": "content.listPages",
  "GET /spaces/:spaceId/content/page/:pageId": "content.getPage",
  "GET /spaces/:spaceId/content/page/:pageId/links": "content.listPageLinks",
  "GET /spaces/:spaceId/content/path/*pagePath": "content.getPageByPath",
  "GET /spaces/:spaceId/content/files": "content.listFiles",
  "GET /spaces/:spaceId/content/reusable-contents/:reusableContentId": "content.getReusableContent",
  "POST /spaces/:spaceId/content/import": "content.importContent",
  "GET /spaces/:spaceId/search": "content.searchSpaceContent",
  "GET /orgs/:organizationId/search": "content.searchOrganizationContent",
  "GET /spaces/:spaceId/content/files/:fileId": "content.getFile",
  "GET /spaces/:spaceId/content/files/:fileId/backlinks": "content.listFileBacklinks",
  // A file's bytes: fileDownloadRoutes below (no bearer token; the signed token in the URL is the permission).
};

// Test-only hooks, present only when NODE_ENV=test (the actions exist only then too).
if (process.env.NODE_ENV === "test") {
  routes["POST /_test/spaces/:spaceId/changes"] = "content.testApplyChanges";
  routes["POST /_test/content/clock"] = "content.advanceClock";
}

export const contentRoutes: Record<string, string> = routes;

/**
 * File downloads: the signed token in the path is the capability, so these need no bearer token
 * (a browser can follow `downloadURL` as it is). Served by a route of their own, before /v1.
 */
export const fileDownloadRoutes = {
  name: "file-downloads",
  path: "/v1/files",
  mappingPolicy: "restrict",
  authentication: false,
  aliases: { "GET :token": "content.downloadFile" },
  bodyParsers: { json: false, urlencoded: false },
} as const;
