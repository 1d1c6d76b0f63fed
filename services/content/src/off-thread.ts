// Work of the content service on the process's worker threads (@docshelf/worker-pool): one task of an
// organization at a time (WORKER_ORG_CONCURRENCY), the pool's limits turned into errors its caller
// shows (a 400 naming the limit, a 503 when every thread is taken and the queue is full).
import { join } from "node:path";
import { ApiError, BadRequestError } from "@docshelf/errors";
import { taskModule, WorkerBusyError, WorkerMemoryError, WorkerTimeoutError } from "@docshelf/worker-pool";
import type { ContentService } from "./service-types";

/** website-import/convert-task.ts: crawled pages' HTML to Markdown. */
const CONVERT_TASK = taskModule(join(__dirname, "website-import"), "convert-task");

/**
 * Runs `fn` of the task module at `module` on a worker thread as one of `organizationId`'s tasks. `what`
 * names the work in the errors ("Reading the files").
 */
export async function runOffThread<T>(service: ContentService, organizationId: string, module: string, fn: string, args: unknown[], what: string, advice: string): Promise<T> {
  try {
    return await service.importLimiter.run(organizationId, () => service.workers.run<T>(module, fn, args));
  } catch (err) {
    if (err instanceof WorkerTimeoutError) throw new BadRequestError(`${what} took longer than the limit of ${err.limitMs} ms; ${advice}.`);
    if (err instanceof WorkerMemoryError) throw new BadRequestError(`${what} needed more than the memory limit of ${err.limitMb} MiB; ${advice}.`);
    if (err instanceof WorkerBusyError) throw new ApiError("The instance is busy reading other imports; start the import again later.", 503, "WORKER_BUSY");
    throw err;
  }
}

/** The website import's conversion of HTML to Markdown (importWebsite's `convert`), on a worker thread. */
export function convertOffThread(service: ContentService, organizationId: string): (htmls: string[]) => Promise<string[]> {
  return (htmls) => runOffThread<string[]>(service, organizationId, CONVERT_TASK, "htmlToMarkdownTask", [htmls], "Converting the imported pages", "import fewer or smaller pages");
}
