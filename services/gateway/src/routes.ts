// Every /v1 route and the one action it calls. Nothing else is reachable (mappingPolicy "restrict").
// Each service's routes live in routes/<service>.ts.
import { changeRequestsRoutes } from "./routes/change-requests";
import { commentsRoutes } from "./routes/comments";
import { contentRoutes } from "./routes/content";
import { gitSyncRoutes } from "./routes/git-sync";
import { identityRoutes } from "./routes/identity";
import { importsRoutes } from "./routes/imports";
import { openapiRoutes } from "./routes/openapi";
import { orgsRoutes } from "./routes/orgs";
import { sitesRoutes } from "./routes/sites";

export const V1_ROUTES: Record<string, string> = {
  ...identityRoutes,
  ...orgsRoutes,
  ...contentRoutes,
  ...importsRoutes,
  ...openapiRoutes,
  ...commentsRoutes,
  ...sitesRoutes,
  ...changeRequestsRoutes,
  ...gitSyncRoutes,
};
