// Routes served by the orgs service.
export const orgsRoutes: Record<string, string> = {
  "POST /orgs": "orgs.create",
  "GET /orgs": "orgs.list",
  "GET /orgs/:organizationId": "orgs.get",
  "PATCH /orgs/:organizationId": "orgs.update",
  "POST /orgs/:organizationId/invites": "orgs.invite",
};
