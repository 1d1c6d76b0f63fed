// GitBook's import runs (served by the content service, import-runs.actions.ts). GitBook spells these
// paths `/org/…`, singular, unlike the rest of its organization routes.
const routes: Record<string, string> = {
  "POST /org/:organizationId/imports": "content.startImportRun",
  "GET /org/:organizationId/imports": "content.listImportRuns",
  "GET /org/:organizationId/imports/:importRunId": "content.getImportRun",
  "POST /org/:organizationId/imports/:importRunId/cancel": "content.cancelImportRun",
};

export const importsRoutes = routes;
