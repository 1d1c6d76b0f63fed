// Routes served by the change-requests service.
const prefix = "/spaces/:spaceId/change-requests";
const one = `${prefix}/:changeRequestId`;

export const changeRequestsRoutes: Record<string, string> = {
  [`GET ${prefix}`]: "change-requests.list",
  [`POST ${prefix}`]: "change-requests.create",
  [`GET ${one}`]: "change-requests.get",
  [`PATCH ${one}`]: "change-requests.update",
  [`POST ${one}/merge`]: "change-requests.merge",
  [`POST ${one}/update`]: "change-requests.updateFromMain",
  [`GET ${one}/pdf`]: "change-requests.getPdf",
  // The temporary URL getPdf hands out (the signed token is the permission; /v1 still asks for a bearer token).
  [`GET ${one}/pdf/:token`]: "change-requests.downloadPdf",
  [`GET ${one}/content`]: "change-requests.getRevision",
  [`POST ${one}/content`]: "change-requests.updateContent",
  [`POST ${one}/content/import`]: "change-requests.importContent",
  [`GET ${one}/content/pages`]: "change-requests.listPages",
  [`GET ${one}/content/page/:pageId`]: "change-requests.getPage",
  [`GET ${one}/content/page/:pageId/links`]: "change-requests.listPageLinks",
  [`GET ${one}/content/path/*pagePath`]: "change-requests.getPageByPath",
  [`GET ${one}/content/files`]: "change-requests.listFiles",
  [`GET ${one}/content/files/:fileId`]: "change-requests.getFile",
  [`GET ${one}/content/files/:fileId/backlinks`]: "change-requests.listFileBacklinks",
};
