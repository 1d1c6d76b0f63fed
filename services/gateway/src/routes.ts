// Every /v1 route and the one action it calls. Nothing else is reachable (mappingPolicy "restrict").
// Each service's routes live in routes/<service>.ts.
import { contentRoutes } from "./routes/content";
import { identityRoutes } from "./routes/identity";
import { openapiRoutes } from "./routes/openapi";
import { orgsRoutes } from "./routes/orgs";

export const V1_ROUTES: Record<string, string> = {
  ...identityRoutes,
  ...orgsRoutes,
  ...contentRoutes,
  ...openapiRoutes,
};
