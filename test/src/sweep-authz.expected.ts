// Who may call each operation, written from the access model (README "API conventions": a caller who
// may not see a resource gets 404, one who may see it but not do the operation 403, no token 401;
// packages/access: admin > create > review > edit > comment > read, guests have no role) and each
// service's README. It is the expectation the authorization sweep compares with, not a recording.

/** The weakest caller that succeeds: a role in the organization, a guest (a member without a role), or anyone signed in. */
export type MinRole = "admin" | "create" | "review" | "edit" | "comment" | "read" | "guest" | "anyone";

export interface Access {
  min: MinRole;
  /** What a guest gets when `min` is a role. */
  guest: 403 | 404;
}

/** Content of a private space: members reach it through their role, guests (no role, no default level) cannot see it. */
const space = (min: MinRole): Access => ({ min, guest: 404 });
/** A resource of the organization itself (members, teams, sites, specs, translations, SAML): guests see it and may not use it. */
const org = (min: MinRole): Access => ({ min, guest: 403 });
/** A collection: seen by whoever has a role on it, which guests do not. */
const collection = (min: MinRole): Access => ({ min, guest: 404 });
const anyone: Access = { min: "anyone", guest: 403 };

export const EXPECTED: Record<string, Access> = {
  // comments README: read lists and reads; comment posts, replies, reacts and resolves; only the author
  // or a space admin deletes (the targets are the admin's own, so below admin is 403).
  listCommentsInSpace: space("read"),
  postCommentInSpace: space("comment"),
  getCommentInSpace: space("read"),
  updateCommentInSpace: space("comment"),
  deleteCommentInSpace: space("admin"),
  postCommentReplyInSpace: space("comment"),
  getCommentReplyInSpace: space("read"),
  updateCommentReplyInSpace: space("comment"),
  deleteCommentReplyInSpace: space("admin"),
  listCommentsInChangeRequest: space("read"),
  postCommentInChangeRequest: space("comment"),
  getCommentInChangeRequest: space("read"),
  updateCommentInChangeRequest: space("comment"),
  deleteCommentInChangeRequest: space("admin"),
  listCommentRepliesInChangeRequest: space("read"),
  postCommentReplyInChangeRequest: space("comment"),
  getCommentReplyInChangeRequest: space("read"),
  // content README.
  getSpaceById: space("read"),
  deleteSpaceById: space("admin"),
  updateSpaceById: space("edit"),
  duplicateSpace: space("create"),
  // Debatable: a deleted space is hidden from every read, yet members keep their role on it while it can be
  // restored, so below admin is 403 (as for deleting it), not 404.
  restoreSpace: space("admin"),
  moveSpace: space("admin"),
  transferSpace: space("admin"),
  listSpaceLinks: space("read"),
  searchSpaceContent: space("read"),
  getCurrentRevision: space("read"),
  getSpacePDF: space("read"),
  importContent: space("edit"),
  applyTemplateToSpace: space("edit"),
  listPages: space("read"),
  listFiles: space("read"),
  getFileById: space("read"),
  listSpaceFileBacklinks: space("read"),
  getPageById: space("read"),
  listPageLinksInSpace: space("read"),
  // change-requests README: read lists and reads, edit creates, changes, imports and updates, review merges.
  listChangeRequestsForSpace: space("read"),
  createChangeRequest: space("edit"),
  getChangeRequestById: space("read"),
  updateChangeRequestById: space("edit"),
  mergeChangeRequest: space("review"),
  updateChangeRequest: space("edit"),
  getChangeRequestPDF: space("read"),
  getChangeRequestChanges: space("read"),
  getRevisionOfChangeRequestById: space("read"),
  importContentInChangeRequest: space("edit"),
  listPagesInChangeRequest: space("read"),
  listFilesInChangeRequestById: space("read"),
  getFileInChangeRequestById: space("read"),
  listChangeRequestFileBacklinks: space("read"),
  getPageInChangeRequestById: space("read"),
  listPageLinksInChangeRequest: space("read"),
  // orgs README.
  listOrganizationsForAuthenticatedUser: anyone,
  getOrganizationById: org("guest"),
  updateOrganizationById: org("admin"),
  updateOrganizationInviteById: org("admin"),
  deleteOrganizationInviteById: org("admin"),
  // content README: members search the spaces they can read (guests: public and unlisted ones).
  searchOrganizationContent: org("guest"),
  getOrganizationsForEmailDomain: anyone,
  listMembersInOrganizationById: org("read"),
  getMemberInOrganizationById: org("read"),
  removeMemberFromOrganizationById: org("admin"),
  updateMemberInOrganizationById: org("admin"),
  updateOrganizationMemberLastSeenAt: org("guest"),
  setUserAsSSOMemberForOrganization: org("admin"),
  // content README: members list the spaces a member can see that they can see too.
  listSpacesForOrganizationMember: org("guest"),
  listTeamsForOrganizationMember: org("read"),
  listTeamsInOrganizationById: org("read"),
  createOrganizationTeam: org("admin"),
  getTeamInOrganizationById: org("read"),
  updateTeamInOrganizationById: org("admin"),
  removeTeamFromOrganizationById: org("admin"),
  getCollectionById: collection("read"),
  deleteCollectionById: collection("admin"),
  updateCollectionById: collection("admin"),
  // As GET /orgs/{id}/spaces: guests list only the public and unlisted spaces of it, which is still a 200.
  listSpacesInCollectionById: { min: "guest", guest: 404 },
  moveCollection: collection("admin"),
  transferCollection: collection("admin"),
  // Members list collections; guests see none, which is still a 200.
  listCollectionsInOrganizationById: org("guest"),
  createCollection: org("create"),
  // sites README: members with a role read; create or admin changes.
  listSites: org("read"),
  createSite: org("create"),
  getSiteById: org("read"),
  deleteSiteById: org("create"),
  updateSiteById: org("create"),
  getSiteAdaptiveSchema: org("read"),
  updateSiteAdaptiveSchema: org("create"),
  listSiteAdaptiveTemplateConditions: org("read"),
  getPublishedContentSite: org("read"),
  publishSite: org("create"),
  unpublishSite: org("create"),
  listSiteSections: org("read"),
  addSectionToSite: org("create"),
  deleteSiteSectionById: org("create"),
  updateSiteSectionById: org("create"),
  moveSiteSection: org("create"),
  listSiteSectionGroups: org("read"),
  addSectionGroupToSite: org("create"),
  deleteSiteSectionGroupById: org("create"),
  updateSiteSectionGroupById: org("create"),
  addSectionToGroup: org("create"),
  removeSectionFromGroup: org("create"),
  moveSiteSectionGroup: org("create"),
  listSiteSpaces: org("read"),
  addSpaceToSite: org("create"),
  deleteSiteSpaceById: org("create"),
  updateSiteSpaceById: org("create"),
  moveSiteSpace: org("create"),
  sortSiteStructure: org("create"),
  searchSiteContent: org("read"),
  listSiteShareLinks: org("read"),
  createSiteShareLink: org("create"),
  deleteSiteShareLinkById: org("create"),
  updateSiteShareLinkById: org("create"),
  // openapi README: members with a role read; create or better writes.
  listOpenAPISpecs: org("read"),
  createOpenAPISpec: org("create"),
  getOpenAPISpecBySlug: org("read"),
  createOrUpdateOpenAPISpecBySlug: org("create"),
  deleteOpenAPISpecBySlug: org("create"),
  updateOpenAPISpecBySlug: org("create"),
  listOpenAPISpecVersions: org("read"),
  getLatestOpenAPISpecVersion: org("read"),
  getLatestOpenAPISpecVersionContent: org("read"),
  getOpenAPISpecVersionById: org("read"),
  getOpenAPISpecVersionContentById: org("read"),
  // orgs README: members with a role read translation settings; admins change them.
  listTranslations: org("read"),
  createTranslation: org("admin"),
  getTranslation: org("read"),
  updateTranslation: org("admin"),
  deleteTranslation: org("admin"),
  // identity README: SAML providers are the organization admins' (members 403, others 404); the sign-in list is anyone's.
  listSAMLProvidersInOrganizationById: org("admin"),
  createOrganizationSAMLProvider: org("admin"),
  getOrganizationSAMLProviderById: org("admin"),
  deleteOrganizationSAMLProvider: org("admin"),
  updateOrganizationSAMLProvider: org("admin"),
  listSSOProviderLoginsInOrganization: anyone,
  // git-sync README: edit starts jobs, read sees the info, admin removes the legacy installation.
  importGitRepository: space("edit"),
  exportToGitRepository: space("edit"),
  getSpaceGitInfo: space("read"),
  deleteLegacyGitInstallation: space("admin"),
  // content README (Import runs): edit on the target space starts one; whoever can read the run's space reads it;
  // any member lists (the runs of the spaces they can read, so a guest gets an empty list); edit on the
  // space (or having started it) cancels.
  startImportRun: space("edit"),
  getImportRun: space("read"),
  listImportRuns: org("guest"),
  cancelImportRun: space("edit"),
};
