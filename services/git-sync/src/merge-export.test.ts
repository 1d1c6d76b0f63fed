import { exportTargetOf, mergeCommitMessage, mergeExportJob } from "./merge-export";
import type { LinkDoc } from "./models";

const link = (extra: Partial<LinkDoc> = {}): LinkDoc => ({
  id: "space1",
  organizationId: "org1",
  url: "https://git.example.com/acme/docs.git",
  ref: "refs/heads/main",
  repoName: "docs",
  lastTimestamp: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const merged = { spaceId: "space1", changeRequestId: "cr1", number: 7, subject: "Fix the  install\nsteps", revision: "rev1" };

describe("exports of merged change requests", () => {
  test("the default message is GITBOOK-<number>: <subject> on one line, 'No subject' when empty", () => {
    expect(mergeCommitMessage(7, "Fix the  install\nsteps")).toBe("GITBOOK-7: Fix the install steps");
    expect(mergeCommitMessage(3, "   ")).toBe("GITBOOK-3: No subject");
    expect(mergeCommitMessage(undefined, "Old node")).toBe("GITBOOK: Old node");
  });

  test("a space without an export target queues nothing (import-only, or never synced)", () => {
    expect(mergeExportJob(null, merged, new Date())).toBeNull();
    expect(mergeExportJob(link(), merged, new Date())).toBeNull();
  });

  test("the job goes to the export target with its options and sealed credentials, never forced", () => {
    const target = exportTargetOf({ url: "https://git.example.com/acme/docs.git", ref: "refs/heads/docs", force: true, standalone: false, repoProjectDirectory: "docs", repoCacheID: "c1" }, "sealed");
    const job = mergeExportJob(link({ exportTarget: target }), merged, new Date(Date.UTC(2026, 0, 2)));
    expect(job).toMatchObject({
      id: "merge-cr1",
      kind: "export",
      status: "pending",
      organizationId: "org1",
      timestamp: Date.UTC(2026, 0, 2),
      sealedCredentials: "sealed",
      changeRequest: { id: "cr1", number: 7 },
      params: { url: "https://git.example.com/acme/docs.git", ref: "refs/heads/docs", force: false, standalone: false, repoProjectDirectory: "docs", repoCacheID: "c1", commitMessage: "GITBOOK-7: Fix the install steps" },
    });
  });
});
