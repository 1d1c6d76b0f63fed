// Routes served by the openapi service. The `latest` aliases come before `:versionId` so that they win.
export const openapiRoutes: Record<string, string> = {
  "GET /orgs/:organizationId/openapi": "openapi.list",
  "POST /orgs/:organizationId/openapi": "openapi.create",
  "GET /orgs/:organizationId/openapi/:specSlug": "openapi.get",
  "PUT /orgs/:organizationId/openapi/:specSlug": "openapi.put",
  "PATCH /orgs/:organizationId/openapi/:specSlug": "openapi.update",
  "DELETE /orgs/:organizationId/openapi/:specSlug": "openapi.remove",
  "GET /orgs/:organizationId/openapi/:specSlug/versions": "openapi.listVersions",
  "GET /orgs/:organizationId/openapi/:specSlug/versions/latest": "openapi.getLatestVersion",
  "GET /orgs/:organizationId/openapi/:specSlug/versions/latest/content": "openapi.getLatestVersionContent",
  "GET /orgs/:organizationId/openapi/:specSlug/versions/:versionId": "openapi.getVersion",
  "GET /orgs/:organizationId/openapi/:specSlug/versions/:versionId/content": "openapi.getVersionContent",
};
