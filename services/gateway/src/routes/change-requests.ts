// Routes served by the change-requests service.
const prefix = "/spaces/:spaceId/change-requests";
const one = `${prefix}/:changeRequestId`;

const routes: Record<string, string> = {
  [`GET ${prefix}`]: "change-requests.list",
  "GET /orgs/:organizationId/change-requests": "change-requests.listForOrganization",
  [`POST ${prefix}`]: "change-requests.create",
  [`GET ${one}`]: "change-requests.get",
  [`PATCH ${one}`]: "change-requests.update",
  [`POST ${one}/merge`]: "change-requests.merge",
  [`POST ${one}/update`]: "change-requests.updateFromMain",
  [`GET ${one}/pdf`]: "change-requests.getPdf",
  [`GET ${one}/changes`]: "change-requests.listChanges",
  "GET /spaces/:spaceId/pdf": "change-requests.getSpacePdf",
  [`GET ${one}/reviews`]: "change-requests.listReviews",
  [`POST ${one}/reviews`]: "change-requests.submitReview",
  [`GET ${one}/reviews/:reviewId`]: "change-requests.getReview",
  [`GET ${one}/requested-reviewers`]: "change-requests.listRequestedReviewers",
  [`POST ${one}/requested-reviewers`]: "change-requests.requestReviewers",
  [`DELETE ${one}/requested-reviewers/:userId`]: "change-requests.removeRequestedReviewer",
  [`GET ${one}/content`]: "change-requests.getRevision",
  [`POST ${one}/content`]: "change-requests.updateContent",
  [`POST ${one}/content/import`]: "change-requests.importContent",
  [`GET ${one}/content/pages`]: "change-requests.listPages",
  [`GET ${one}/content/page/:pageId`]: "change-requests.getPage",
  [`GET ${one}/content/page/:pageId/links`]: "change-requests.listPageLinks",
  [`GET ${one}/content/reusable-contents/:reusableContentId`]: "change-requests.getReusableContent",
  [`GET ${one}/content/path/*pagePath`]: "change-requests.getPageByPath",
  [`GET ${one}/content/files`]: "change-requests.listFiles",
  [`GET ${one}/content/files/:fileId`]: "change-requests.getFile",
  [`GET ${one}/content/files/:fileId/backlinks`]: "change-requests.listFileBacklinks",
};

// Test-only hook, present only when NODE_ENV=test (the action exists only then too).
if (process.env.NODE_ENV === "test") routes["POST /_test/change-requests/clock"] = "change-requests.advanceClock";

export const changeRequestsRoutes: Record<string, string> = routes;

/**
 * The temporary PDF URL getPdf hands out: the signed, expiring token in the path is the permission, so
 * it needs no bearer token (a browser can follow it as it is). A route of its own, listed after /v1: the
 * alias is matched first, while any other /v1/spaces URL still falls to /v1 and its authentication.
 */
export const changeRequestPdfRoutes = {
  name: "change-request-pdfs",
  path: "/v1/spaces",
  mappingPolicy: "restrict",
  autoAliases: false,
  authentication: false,
  mergeParams: true,
  aliases: {
    "GET :spaceId/change-requests/:changeRequestId/pdf/:token": "change-requests.downloadPdf",
    "GET :spaceId/pdf/:token": "change-requests.downloadSpacePdf",
  },
  bodyParsers: { json: false, urlencoded: false },
} as const;
