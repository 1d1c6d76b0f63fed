// Import runs (GitBook's startImportRun and friends): uploads, ZIP reading, file pages, the background runner.
export { parseUpload, type Upload } from "./uploads";
export { listZip, readZip, safeEntryPath, type ZipLimits } from "./zip";
export { filePages, pagePathOf, sourceFiles } from "./file-pages";
export { executeRun, failAbandoned, ACTIVE_STATUSES } from "./runner";
export { presentImportRun, type ContentImportRun } from "./present";
