// Routes served by the sites service.
const SITE = "/orgs/:organizationId/sites/:siteId";

export const sitesRoutes: Record<string, string> = {
  "GET /orgs/:organizationId/sites": "sites.list",
  "POST /orgs/:organizationId/sites": "sites.create",
  [`GET ${SITE}`]: "sites.get",
  [`PATCH ${SITE}`]: "sites.update",
  [`DELETE ${SITE}`]: "sites.remove",
  [`POST ${SITE}/publish`]: "sites.publish",
  [`POST ${SITE}/unpublish`]: "sites.unpublish",
  [`GET ${SITE}/published`]: "sites.getPublished",
  [`GET ${SITE}/adaptive-schema`]: "sites.getAdaptiveSchema",
  [`PUT ${SITE}/adaptive-schema`]: "sites.putAdaptiveSchema",
  [`GET ${SITE}/adaptive-schema/template-conditions`]: "sites.listTemplateConditions",
  [`GET ${SITE}/customization`]: "sites.getCustomization",
  [`PUT ${SITE}/customization`]: "sites.updateCustomization",
  [`GET ${SITE}/publishing/auth`]: "sites.getPublishingAuth",
  [`POST ${SITE}/publishing/auth/regenerate`]: "sites.regeneratePublishingAuth",

  [`GET ${SITE}/sections`]: "sites.listSections",
  [`POST ${SITE}/sections`]: "sites.addSection",
  [`PATCH ${SITE}/sections/:siteSectionId`]: "sites.updateSection",
  [`DELETE ${SITE}/sections/:siteSectionId`]: "sites.removeSection",
  [`POST ${SITE}/sections/:siteSectionId/move`]: "sites.moveSection",

  [`GET ${SITE}/section-groups`]: "sites.listGroups",
  [`POST ${SITE}/section-groups`]: "sites.addGroup",
  [`PATCH ${SITE}/section-groups/:siteSectionGroupId`]: "sites.updateGroup",
  [`DELETE ${SITE}/section-groups/:siteSectionGroupId`]: "sites.removeGroup",
  [`POST ${SITE}/section-groups/:siteSectionGroupId/sections`]: "sites.addSectionToGroup",
  [`DELETE ${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`]: "sites.removeSectionFromGroup",
  [`POST ${SITE}/section-groups/:siteSectionGroupId/move`]: "sites.moveGroup",

  [`GET ${SITE}/site-spaces`]: "sites.listSiteSpaces",
  [`POST ${SITE}/site-spaces`]: "sites.addSiteSpace",
  [`PATCH ${SITE}/site-spaces/:siteSpaceId`]: "sites.updateSiteSpace",
  [`DELETE ${SITE}/site-spaces/:siteSpaceId`]: "sites.removeSiteSpace",
  [`POST ${SITE}/site-spaces/:siteSpaceId/move`]: "sites.moveSiteSpace",

  [`GET ${SITE}/structure`]: "sites.getStructure",
  [`PATCH ${SITE}/structure/sort`]: "sites.sortStructure",
  [`POST ${SITE}/search`]: "sites.searchContent",

  [`GET ${SITE}/redirects`]: "sites.listRedirects",
  [`POST ${SITE}/redirects`]: "sites.createRedirect",
  [`PUT ${SITE}/redirects`]: "sites.bulkUpsertRedirects",
  [`PATCH ${SITE}/redirects/:siteRedirectId`]: "sites.updateRedirect",
  [`DELETE ${SITE}/redirects/:siteRedirectId`]: "sites.deleteRedirect",
  [`GET ${SITE}/redirect`]: "sites.getRedirectBySource",

  [`GET ${SITE}/share-links`]: "sites.listShareLinks",
  [`POST ${SITE}/share-links`]: "sites.createShareLink",
  [`PATCH ${SITE}/share-links/:shareLinkId`]: "sites.updateShareLink",
  [`DELETE ${SITE}/share-links/:shareLinkId`]: "sites.removeShareLink",
};
