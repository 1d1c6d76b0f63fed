// Routes served by the content service.
export const contentRoutes: Record<string, string> = {
  "POST /orgs/:organizationId/spaces": "content.createSpace",
  "GET /orgs/:organizationId/spaces": "content.listSpaces",
  "GET /spaces/:spaceId": "content.getSpace",
  "GET /spaces/:spaceId/content": "content.getCurrentRevision",
};
