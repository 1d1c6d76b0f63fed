// Every operation of the interface (the 135 of GitBook's API it implements), and those the sweeps took in
// since, with one valid request each, against the sweep world; mutating operations also say how to make
// a fresh target for one caller.
import { addMember, createSpace, createUser } from "@docshelf/testkit";
import { adaptiveSchema, ok, openapiText, type Resources, type World } from "./sweep-world";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation {
  /** GitBook's operation id. */
  id: string;
  method: Method;
  /** The path with `{name}` parameters, as GitBook's (parameter names are ours). */
  template: string;
  /** The status of a successful answer. */
  success: number;
  /** Path parameters filled from another resource than the one named alike. */
  alias?: Partial<Record<keyof Resources, keyof Resources>>;
  query?: (w: World) => Record<string, string>;
  /** The valid body; `n` numbers the calls, for values that must be unique. */
  body?: (w: World, n: number) => Record<string, unknown>;
  /** Makes a fresh target in organization A for one caller (a DELETE must not break the next caller). */
  fresh?: (w: World) => Promise<Partial<Resources>>;
}

const admin = (w: World) => w.a.admin.api;
const idOf = (body: unknown) => (body as { id: string }).id;
const sites = (w: World) => `/v1/orgs/${w.a.ids.organizationId}/sites/${w.a.ids.siteId}`;

// Fresh targets, all made by A's admin.
const space = async (w: World) => ({ spaceId: (await createSpace(admin(w), w.a.ids.organizationId, { title: "Fresh" })).id });
const comment = async (w: World) => ({
  commentId: idOf(ok(await admin(w).post(`/v1/spaces/${w.a.ids.spaceId}/comments`, { body: { markdown: "Fresh" } }), "comment")),
});
const reply = async (w: World) => ({
  commentReplyId: idOf(ok(await admin(w).post(`/v1/spaces/${w.a.ids.spaceId}/comments/${w.a.ids.commentId}/replies`, { body: { markdown: "Fresh" } }), "reply")),
});
const crThread = (w: World) => `/v1/spaces/${w.a.ids.spaceId}/change-requests/${w.a.ids.changeRequestId}/comments`;
const crComment = async (w: World) => ({ crCommentId: idOf(ok(await admin(w).post(crThread(w), { body: { markdown: "Fresh" } }), "cr comment")) });
const changeRequest = async (w: World) => ({
  changeRequestId: idOf(ok(await admin(w).post(`/v1/spaces/${w.a.ids.spaceId}/change-requests`, { subject: "Fresh" }), "change request")),
});
const member = async (w: World) => {
  const user = await createUser(w.sys.admin);
  await addMember(admin(w), w.a.ids.organizationId, user.email, "read");
  return { userId: user.id };
};
const invite = async (w: World) => ({ inviteId: idOf(ok(await admin(w).post(`/v1/orgs/${w.a.ids.organizationId}/link-invites`, { role: "read" }), "invite")) });
const team = async (w: World) => ({ teamId: idOf(ok(await admin(w).put(`/v1/orgs/${w.a.ids.organizationId}/teams`, { title: "Fresh" }), "team")) });
const collection = async (w: World) => ({
  collectionId: idOf(ok(await admin(w).post(`/v1/orgs/${w.a.ids.organizationId}/collections`, { title: "Fresh" }), "collection")),
});
const site = async (w: World) => ({ siteId: idOf(ok(await admin(w).post(`/v1/orgs/${w.a.ids.organizationId}/sites`, { title: "Fresh" }), "site")) });
const section = async (w: World) => {
  const { spaceId } = await space(w);
  return { siteSectionId: idOf(ok(await admin(w).post(`${sites(w)}/sections`, { spaceId, title: "Fresh section" }), "section")) };
};
const group = async (w: World) => ({ siteSectionGroupId: idOf(ok(await admin(w).post(`${sites(w)}/section-groups`, { title: "Fresh" }), "group")) });
const siteSpace = async (w: World) => {
  const { spaceId } = await space(w);
  return { siteSpaceId: idOf(ok(await admin(w).post(`${sites(w)}/site-spaces`, { spaceId, sectionId: w.a.ids.siteSectionId }), "site space")) };
};
const shareLink = async (w: World) => ({ shareLinkId: idOf(ok(await admin(w).post(`${sites(w)}/share-links`, { name: "Fresh" }), "share link")) });
let specs = 0;
const spec = async (w: World) => {
  const specSlug = `fresh-${++specs}`;
  ok(await admin(w).post(`/v1/orgs/${w.a.ids.organizationId}/openapi`, { slug: specSlug, source: { text: openapiText } }), "spec");
  return { specSlug };
};
const translation = async (w: World) => ({
  translationSettingsId: idOf(ok(await admin(w).post(`/v1/orgs/${w.a.ids.organizationId}/translations`, { title: "Fresh" }), "translation")),
});
const saml = async (w: World) => ({
  samlProviderId: idOf(
    ok(await admin(w).post(`/v1/orgs/${w.a.ids.organizationId}/saml`, { label: "Fresh", entityID: w.idp.entityID, certificate: w.idp.certificate, ssoURL: w.idp.ssoURL }), "saml"),
  ),
});
const deletedSpace = async (w: World) => {
  const made = await space(w);
  ok(await admin(w).delete(`/v1/spaces/${made.spaceId}`), "delete space");
  return made;
};

// An import run in progress (over a page that never answers), for one caller to cancel.
const activeImportRun = async (w: World) => ({
  importRunId: idOf(
    ok(await admin(w).post(`/v1/org/${w.a.ids.organizationId}/imports`, { source: { type: "website", url: w.hangingUrl }, target: { space: w.a.ids.importSpaceId } }), "import run"),
  ),
});

const CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}";
const CR_COMMENTS = { commentId: "crCommentId", commentReplyId: "crCommentReplyId" } as const;
const ORG = "/v1/orgs/{organizationId}";
const SITE = `${ORG}/sites/{siteId}`;
const markdown = (text: string) => ({ body: { markdown: text } });
const gitBody = { url: "https://127.0.0.1:1/repo.git", ref: "refs/heads/main" };

export const OPERATIONS: Operation[] = [
  // Space comments
  { id: "listCommentsInSpace", method: "GET", template: "/v1/spaces/{spaceId}/comments", success: 200 },
  { id: "postCommentInSpace", method: "POST", template: "/v1/spaces/{spaceId}/comments", success: 200, body: () => markdown("Posted") },
  { id: "getCommentInSpace", method: "GET", template: "/v1/spaces/{spaceId}/comments/{commentId}", success: 200 },
  { id: "updateCommentInSpace", method: "PUT", template: "/v1/spaces/{spaceId}/comments/{commentId}", success: 200, body: () => ({ resolved: true }), fresh: comment },
  { id: "deleteCommentInSpace", method: "DELETE", template: "/v1/spaces/{spaceId}/comments/{commentId}", success: 204, fresh: comment },
  { id: "postCommentReplyInSpace", method: "POST", template: "/v1/spaces/{spaceId}/comments/{commentId}/replies", success: 200, body: () => markdown("Replied") },
  { id: "getCommentReplyInSpace", method: "GET", template: "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", success: 200 },
  {
    id: "updateCommentReplyInSpace",
    method: "PUT",
    template: "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}",
    success: 200,
    body: () => ({ addedReactions: ["👍"] }),
    fresh: reply,
  },
  { id: "deleteCommentReplyInSpace", method: "DELETE", template: "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", success: 204, fresh: reply },
  // Change request comments
  { id: "listCommentsInChangeRequest", method: "GET", template: `${CR}/comments`, success: 200 },
  { id: "postCommentInChangeRequest", method: "POST", template: `${CR}/comments`, success: 200, body: () => markdown("Posted") },
  { id: "getCommentInChangeRequest", method: "GET", template: `${CR}/comments/{commentId}`, success: 200, alias: CR_COMMENTS },
  {
    id: "updateCommentInChangeRequest",
    method: "PUT",
    template: `${CR}/comments/{commentId}`,
    success: 200,
    alias: CR_COMMENTS,
    body: () => ({ resolved: true }),
    fresh: crComment,
  },
  { id: "deleteCommentInChangeRequest", method: "DELETE", template: `${CR}/comments/{commentId}`, success: 204, alias: CR_COMMENTS, fresh: crComment },
  { id: "listCommentRepliesInChangeRequest", method: "GET", template: `${CR}/comments/{commentId}/replies`, success: 200, alias: CR_COMMENTS },
  { id: "postCommentReplyInChangeRequest", method: "POST", template: `${CR}/comments/{commentId}/replies`, success: 200, alias: CR_COMMENTS, body: () => markdown("Replied") },
  { id: "getCommentReplyInChangeRequest", method: "GET", template: `${CR}/comments/{commentId}/replies/{commentReplyId}`, success: 200, alias: CR_COMMENTS },
  // Spaces
  { id: "getSpaceById", method: "GET", template: "/v1/spaces/{spaceId}", success: 200 },
  { id: "deleteSpaceById", method: "DELETE", template: "/v1/spaces/{spaceId}", success: 204, fresh: space },
  { id: "updateSpaceById", method: "PATCH", template: "/v1/spaces/{spaceId}", success: 200, body: () => ({ title: "Renamed" }) },
  { id: "duplicateSpace", method: "POST", template: "/v1/spaces/{spaceId}/duplicate", success: 201 },
  { id: "restoreSpace", method: "POST", template: "/v1/spaces/{spaceId}/restore", success: 200, fresh: deletedSpace },
  { id: "moveSpace", method: "POST", template: "/v1/spaces/{spaceId}/move", success: 200, body: (w) => ({ parent: w.a.ids.collectionId }), fresh: space },
  { id: "transferSpace", method: "POST", template: "/v1/spaces/{spaceId}/transfer", success: 200, body: (w) => ({ organization: w.transferOrgId }), fresh: space },
  { id: "listSpaceLinks", method: "GET", template: "/v1/spaces/{spaceId}/links", success: 200 },
  { id: "searchSpaceContent", method: "GET", template: "/v1/spaces/{spaceId}/search", success: 200, query: () => ({ query: "hello" }) },
  // Space content
  { id: "getCurrentRevision", method: "GET", template: "/v1/spaces/{spaceId}/content", success: 200 },
  { id: "getSpacePDF", method: "GET", template: "/v1/spaces/{spaceId}/pdf", success: 200 },
  { id: "importContent", method: "POST", template: "/v1/spaces/{spaceId}/content/import", success: 201, body: (w) => ({ source: "website", url: w.websiteUrl }), fresh: space },
  { id: "applyTemplateToSpace", method: "POST", template: "/v1/spaces/{spaceId}/content/template", success: 201, body: () => ({ id: "faq" }), fresh: space },
  { id: "listPages", method: "GET", template: "/v1/spaces/{spaceId}/content/pages", success: 200 },
  { id: "listFiles", method: "GET", template: "/v1/spaces/{spaceId}/content/files", success: 200 },
  { id: "getFileById", method: "GET", template: "/v1/spaces/{spaceId}/content/files/{fileId}", success: 200 },
  { id: "listSpaceFileBacklinks", method: "GET", template: "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks", success: 200 },
  { id: "getPageById", method: "GET", template: "/v1/spaces/{spaceId}/content/page/{pageId}", success: 200 },
  { id: "listPageLinksInSpace", method: "GET", template: "/v1/spaces/{spaceId}/content/page/{pageId}/links", success: 200 },
  // Change requests
  { id: "listChangeRequestsForSpace", method: "GET", template: "/v1/spaces/{spaceId}/change-requests", success: 200 },
  { id: "createChangeRequest", method: "POST", template: "/v1/spaces/{spaceId}/change-requests", success: 201, body: () => ({ subject: "Created" }) },
  { id: "getChangeRequestById", method: "GET", template: CR, success: 200 },
  { id: "updateChangeRequestById", method: "PATCH", template: CR, success: 200, body: () => ({ subject: "Renamed" }), fresh: changeRequest },
  { id: "mergeChangeRequest", method: "POST", template: `${CR}/merge`, success: 200, fresh: changeRequest },
  { id: "updateChangeRequest", method: "POST", template: `${CR}/update`, success: 200, fresh: changeRequest },
  { id: "getChangeRequestPDF", method: "GET", template: `${CR}/pdf`, success: 200 },
  { id: "getChangeRequestChanges", method: "GET", template: `${CR}/changes`, success: 200 },
  // Organizations
  { id: "listOrganizationsForAuthenticatedUser", method: "GET", template: "/v1/orgs", success: 200 },
  { id: "getOrganizationById", method: "GET", template: ORG, success: 200 },
  { id: "updateOrganizationById", method: "PATCH", template: ORG, success: 200, body: () => ({ title: "Organization A" }) },
  { id: "updateOrganizationInviteById", method: "PATCH", template: `${ORG}/link-invites/{inviteId}`, success: 200, body: () => ({ role: "edit" }), fresh: invite },
  { id: "deleteOrganizationInviteById", method: "DELETE", template: `${ORG}/link-invites/{inviteId}`, success: 204, fresh: invite },
  { id: "searchOrganizationContent", method: "GET", template: `${ORG}/search`, success: 200, query: () => ({ query: "hello" }) },
  { id: "getOrganizationsForEmailDomain", method: "GET", template: "/v1/email-domains/{emailDomain}/orgs", success: 200 },
  // Members
  { id: "listMembersInOrganizationById", method: "GET", template: `${ORG}/members`, success: 200 },
  { id: "getMemberInOrganizationById", method: "GET", template: `${ORG}/members/{userId}`, success: 200 },
  { id: "removeMemberFromOrganizationById", method: "DELETE", template: `${ORG}/members/{userId}`, success: 204, fresh: member },
  { id: "updateMemberInOrganizationById", method: "PATCH", template: `${ORG}/members/{userId}`, success: 200, body: () => ({ role: "comment" }), fresh: member },
  { id: "updateOrganizationMemberLastSeenAt", method: "POST", template: `${ORG}/ping`, success: 200 },
  { id: "setUserAsSSOMemberForOrganization", method: "POST", template: `${ORG}/members/{userId}/sso`, success: 200, fresh: member },
  { id: "listSpacesForOrganizationMember", method: "GET", template: `${ORG}/members/{userId}/spaces`, success: 200 },
  { id: "listTeamsForOrganizationMember", method: "GET", template: `${ORG}/members/{userId}/teams`, success: 200 },
  // Teams
  { id: "listTeamsInOrganizationById", method: "GET", template: `${ORG}/teams`, success: 200 },
  { id: "createOrganizationTeam", method: "PUT", template: `${ORG}/teams`, success: 201, body: () => ({ title: "Created" }) },
  { id: "getTeamInOrganizationById", method: "GET", template: `${ORG}/teams/{teamId}`, success: 200 },
  { id: "updateTeamInOrganizationById", method: "PATCH", template: `${ORG}/teams/{teamId}`, success: 200, body: () => ({ title: "Renamed" }), fresh: team },
  { id: "removeTeamFromOrganizationById", method: "DELETE", template: `${ORG}/teams/{teamId}`, success: 204, fresh: team },
  // Collections
  { id: "getCollectionById", method: "GET", template: "/v1/collections/{collectionId}", success: 200 },
  { id: "deleteCollectionById", method: "DELETE", template: "/v1/collections/{collectionId}", success: 204, fresh: collection },
  { id: "updateCollectionById", method: "PATCH", template: "/v1/collections/{collectionId}", success: 200, body: () => ({ title: "Renamed" }), fresh: collection },
  { id: "listSpacesInCollectionById", method: "GET", template: "/v1/collections/{collectionId}/spaces", success: 200 },
  { id: "moveCollection", method: "POST", template: "/v1/collections/{collectionId}/move", success: 200, body: (w) => ({ parent: w.a.ids.collectionId }), fresh: collection },
  { id: "transferCollection", method: "POST", template: "/v1/collections/{collectionId}/transfer", success: 200, body: (w) => ({ organization: w.transferOrgId }), fresh: collection },
  { id: "listCollectionsInOrganizationById", method: "GET", template: `${ORG}/collections`, success: 200 },
  { id: "createCollection", method: "POST", template: `${ORG}/collections`, success: 201, body: () => ({ title: "Created" }) },
  // Sites
  { id: "listSites", method: "GET", template: `${ORG}/sites`, success: 200 },
  { id: "createSite", method: "POST", template: `${ORG}/sites`, success: 201, body: () => ({ title: "Created" }) },
  { id: "getSiteById", method: "GET", template: SITE, success: 200 },
  { id: "deleteSiteById", method: "DELETE", template: SITE, success: 204, fresh: site },
  { id: "updateSiteById", method: "PATCH", template: SITE, success: 200, body: () => ({ title: "Renamed" }), fresh: site },
  { id: "getSiteAdaptiveSchema", method: "GET", template: `${SITE}/adaptive-schema`, success: 200 },
  { id: "updateSiteAdaptiveSchema", method: "PUT", template: `${SITE}/adaptive-schema`, success: 200, body: () => ({ jsonSchema: adaptiveSchema }), fresh: site },
  { id: "listSiteAdaptiveTemplateConditions", method: "GET", template: `${SITE}/adaptive-schema/template-conditions`, success: 200 },
  { id: "getPublishedContentSite", method: "GET", template: `${SITE}/published`, success: 200 },
  { id: "publishSite", method: "POST", template: `${SITE}/publish`, success: 200, fresh: site },
  { id: "unpublishSite", method: "POST", template: `${SITE}/unpublish`, success: 200, fresh: site },
  // Site sections
  { id: "listSiteSections", method: "GET", template: `${SITE}/sections`, success: 200 },
  { id: "addSectionToSite", method: "POST", template: `${SITE}/sections`, success: 201, body: (w) => ({ spaceId: w.a.ids.spaceId, title: "Added" }), fresh: site },
  { id: "deleteSiteSectionById", method: "DELETE", template: `${SITE}/sections/{siteSectionId}`, success: 204, fresh: section },
  { id: "updateSiteSectionById", method: "PATCH", template: `${SITE}/sections/{siteSectionId}`, success: 200, body: () => ({ description: "Changed" }), fresh: section },
  { id: "moveSiteSection", method: "POST", template: `${SITE}/sections/{siteSectionId}/move`, success: 200, body: () => ({}), fresh: section },
  // Site section groups
  { id: "listSiteSectionGroups", method: "GET", template: `${SITE}/section-groups`, success: 200 },
  { id: "addSectionGroupToSite", method: "POST", template: `${SITE}/section-groups`, success: 201, body: () => ({ title: "Added" }) },
  { id: "deleteSiteSectionGroupById", method: "DELETE", template: `${SITE}/section-groups/{siteSectionGroupId}`, success: 204, fresh: group },
  { id: "updateSiteSectionGroupById", method: "PATCH", template: `${SITE}/section-groups/{siteSectionGroupId}`, success: 200, body: () => ({ title: "Renamed" }), fresh: group },
  {
    id: "addSectionToGroup",
    method: "POST",
    template: `${SITE}/section-groups/{siteSectionGroupId}/sections`,
    success: 201,
    body: (w) => ({ sectionId: w.a.ids.siteSectionId }),
    fresh: group,
  },
  { id: "removeSectionFromGroup", method: "DELETE", template: `${SITE}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}`, success: 204, fresh: group },
  { id: "moveSiteSectionGroup", method: "POST", template: `${SITE}/section-groups/{siteSectionGroupId}/move`, success: 200, body: () => ({}), fresh: group },
  // Site spaces
  { id: "listSiteSpaces", method: "GET", template: `${SITE}/site-spaces`, success: 200 },
  { id: "addSpaceToSite", method: "POST", template: `${SITE}/site-spaces`, success: 201, body: (w) => ({ spaceId: w.a.ids.spaceId, sectionId: w.a.ids.siteSectionId }), fresh: space },
  { id: "deleteSiteSpaceById", method: "DELETE", template: `${SITE}/site-spaces/{siteSpaceId}`, success: 204, fresh: siteSpace },
  { id: "updateSiteSpaceById", method: "PATCH", template: `${SITE}/site-spaces/{siteSpaceId}`, success: 200, body: (_w, n) => ({ path: `renamed-${n}` }), fresh: siteSpace },
  { id: "moveSiteSpace", method: "POST", template: `${SITE}/site-spaces/{siteSpaceId}/move`, success: 200, body: () => ({}), fresh: siteSpace },
  {
    id: "sortSiteStructure",
    method: "PATCH",
    template: `${SITE}/structure/sort`,
    success: 200,
    body: (w) => ({ item: { type: "site-section", id: w.a.ids.siteSectionId }, position: {} }),
  },
  { id: "searchSiteContent", method: "POST", template: `${SITE}/search`, success: 200, body: () => ({ query: "hello" }) },
  // Share links
  { id: "listSiteShareLinks", method: "GET", template: `${SITE}/share-links`, success: 200 },
  { id: "createSiteShareLink", method: "POST", template: `${SITE}/share-links`, success: 201, body: () => ({ name: "Created" }) },
  { id: "deleteSiteShareLinkById", method: "DELETE", template: `${SITE}/share-links/{shareLinkId}`, success: 204, fresh: shareLink },
  { id: "updateSiteShareLinkById", method: "PATCH", template: `${SITE}/share-links/{shareLinkId}`, success: 200, body: () => ({ active: false }), fresh: shareLink },
  // API-description specs
  { id: "listOpenAPISpecs", method: "GET", template: `${ORG}/openapi`, success: 200 },
  { id: "createOpenAPISpec", method: "POST", template: `${ORG}/openapi`, success: 201, body: (_w, n) => ({ slug: `created-${n}`, source: { text: openapiText } }) },
  { id: "getOpenAPISpecBySlug", method: "GET", template: `${ORG}/openapi/{specSlug}`, success: 200 },
  { id: "createOrUpdateOpenAPISpecBySlug", method: "PUT", template: `${ORG}/openapi/{specSlug}`, success: 200, body: () => ({ source: { text: openapiText } }), fresh: spec },
  { id: "deleteOpenAPISpecBySlug", method: "DELETE", template: `${ORG}/openapi/{specSlug}`, success: 204, fresh: spec },
  { id: "updateOpenAPISpecBySlug", method: "PATCH", template: `${ORG}/openapi/{specSlug}`, success: 200, body: () => ({ visibility: "public" }), fresh: spec },
  { id: "listOpenAPISpecVersions", method: "GET", template: `${ORG}/openapi/{specSlug}/versions`, success: 200 },
  { id: "getLatestOpenAPISpecVersion", method: "GET", template: `${ORG}/openapi/{specSlug}/versions/latest`, success: 200 },
  { id: "getLatestOpenAPISpecVersionContent", method: "GET", template: `${ORG}/openapi/{specSlug}/versions/latest/content`, success: 200 },
  { id: "getOpenAPISpecVersionById", method: "GET", template: `${ORG}/openapi/{specSlug}/versions/{versionId}`, success: 200 },
  { id: "getOpenAPISpecVersionContentById", method: "GET", template: `${ORG}/openapi/{specSlug}/versions/{versionId}/content`, success: 200 },
  // Translation settings
  { id: "listTranslations", method: "GET", template: `${ORG}/translations`, success: 200 },
  { id: "createTranslation", method: "POST", template: `${ORG}/translations`, success: 201, body: () => ({ title: "Created" }) },
  { id: "getTranslation", method: "GET", template: `${ORG}/translations/{translationSettingsId}`, success: 200 },
  { id: "updateTranslation", method: "PUT", template: `${ORG}/translations/{translationSettingsId}`, success: 200, body: () => ({ title: "Renamed" }), fresh: translation },
  { id: "deleteTranslation", method: "DELETE", template: `${ORG}/translations/{translationSettingsId}`, success: 204, fresh: translation },
  // Single sign-on
  { id: "listSAMLProvidersInOrganizationById", method: "GET", template: `${ORG}/saml`, success: 200 },
  {
    id: "createOrganizationSAMLProvider",
    method: "POST",
    template: `${ORG}/saml`,
    success: 201,
    body: (w) => ({ label: "Created", entityID: w.idp.entityID, certificate: w.idp.certificate, ssoURL: w.idp.ssoURL }),
  },
  { id: "getOrganizationSAMLProviderById", method: "GET", template: `${ORG}/saml/{samlProviderId}`, success: 200 },
  { id: "deleteOrganizationSAMLProvider", method: "DELETE", template: `${ORG}/saml/{samlProviderId}`, success: 204, fresh: saml },
  { id: "updateOrganizationSAMLProvider", method: "PATCH", template: `${ORG}/saml/{samlProviderId}`, success: 200, body: () => ({ label: "Renamed" }), fresh: saml },
  { id: "listSSOProviderLoginsInOrganization", method: "GET", template: `${ORG}/sso`, success: 200 },
  // Git sync
  { id: "importGitRepository", method: "POST", template: "/v1/spaces/{spaceId}/git/import", success: 204, body: () => gitBody, fresh: space },
  { id: "exportToGitRepository", method: "POST", template: "/v1/spaces/{spaceId}/git/export", success: 204, body: () => ({ ...gitBody, commitMessage: "Export" }), fresh: space },
  { id: "getSpaceGitInfo", method: "GET", template: "/v1/spaces/{spaceId}/git/info", success: 200 },
  { id: "deleteLegacyGitInstallation", method: "DELETE", template: "/v1/spaces/{spaceId}/git/legacy-installation", success: 204, fresh: space },
  // Change request content
  { id: "getRevisionOfChangeRequestById", method: "GET", template: `${CR}/content`, success: 200 },
  { id: "importContentInChangeRequest", method: "POST", template: `${CR}/content/import`, success: 201, body: (w) => ({ source: "website", url: w.websiteUrl }), fresh: changeRequest },
  { id: "listPagesInChangeRequest", method: "GET", template: `${CR}/content/pages`, success: 200 },
  { id: "listFilesInChangeRequestById", method: "GET", template: `${CR}/content/files`, success: 200 },
  { id: "getFileInChangeRequestById", method: "GET", template: `${CR}/content/files/{fileId}`, success: 200 },
  { id: "listChangeRequestFileBacklinks", method: "GET", template: `${CR}/content/files/{fileId}/backlinks`, success: 200 },
  { id: "getPageInChangeRequestById", method: "GET", template: `${CR}/content/page/{pageId}`, success: 200 },
  { id: "listPageLinksInChangeRequest", method: "GET", template: `${CR}/content/page/{pageId}/links`, success: 200 },
  // Import runs (GitBook spells the organization `/org/…` here)
  {
    id: "startImportRun",
    method: "POST",
    template: "/v1/org/{organizationId}/imports",
    success: 201,
    body: (w) => ({ source: { type: "website", url: w.websiteUrl }, target: { space: w.a.ids.importSpaceId } }),
  },
  { id: "listImportRuns", method: "GET", template: "/v1/org/{organizationId}/imports", success: 200 },
  { id: "getImportRun", method: "GET", template: "/v1/org/{organizationId}/imports/{importRunId}", success: 200 },
  { id: "cancelImportRun", method: "POST", template: "/v1/org/{organizationId}/imports/{importRunId}/cancel", success: 200, fresh: activeImportRun },
];

/** The names of an operation's path parameters, in order. */
export function pathParams(op: Operation): Array<keyof Resources> {
  return [...op.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as keyof Resources);
}

/** The resource a path parameter is filled from. */
export function source(op: Operation, name: keyof Resources): keyof Resources {
  return op.alias?.[name] ?? name;
}

/** The path with each parameter replaced: by `values[name]`, else the resource of `ids`. */
export function fillPath(op: Operation, ids: Resources, values: Partial<Record<keyof Resources, string>> = {}): string {
  return op.template.replace(/\{(\w+)\}/g, (_, name: keyof Resources) => {
    const value = values[name] ?? ids[source(op, name)];
    return encodeURIComponent(value);
  });
}

export function queryString(query: Record<string, string> | undefined): string {
  const entries = Object.entries(query ?? {});
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : "";
}
