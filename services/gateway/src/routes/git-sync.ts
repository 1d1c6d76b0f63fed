// Routes served by the git-sync service.
export const gitSyncRoutes: Record<string, string> = {
  "POST /spaces/:spaceId/git/import": "git-sync.import",
  "POST /spaces/:spaceId/git/export": "git-sync.export",
  "GET /spaces/:spaceId/git/info": "git-sync.info",
  "DELETE /spaces/:spaceId/git/legacy-installation": "git-sync.deleteLegacyInstallation",
  "GET /spaces/:spaceId/git/jobs/:jobId": "git-sync.getJob",
};
