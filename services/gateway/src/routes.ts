// Every /v1 route and the one action it calls. Nothing else is reachable (mappingPolicy "restrict").
export const V1_ROUTES: Record<string, string> = {
  // identity
  "GET /user": "identity.me",
  "GET /users/:userId": "identity.getUser",
  "POST /users": "identity.createUser",
  "POST /users/:userId/tokens": "identity.createToken",
  "DELETE /users/:userId/tokens/:tokenId": "identity.revokeToken",

  // orgs
  "POST /orgs": "orgs.create",
  "GET /orgs": "orgs.list",
  "GET /orgs/:organizationId": "orgs.get",
  "PATCH /orgs/:organizationId": "orgs.update",
  "POST /orgs/:organizationId/invites": "orgs.invite",

  // content
  "POST /orgs/:organizationId/spaces": "content.createSpace",
  "GET /orgs/:organizationId/spaces": "content.listSpaces",
  "GET /spaces/:spaceId": "content.getSpace",
  "GET /spaces/:spaceId/content": "content.getCurrentRevision",
};
