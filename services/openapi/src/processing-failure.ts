// Why processing a spec failed, as GitBook's `lastProcessErrorCode` enum names it.
import { SafeFetchError } from "@docshelf/safe-fetch";

export const PROCESS_ERROR_CODES = ["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

/** A failure the spec's owner can act on: it is recorded on the spec, never thrown to an HTTP caller. */
export class ProcessingFailure extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Maps anything a fetch threw: safe-fetch's timeout is FETCH_TIMEOUT, every other refusal FETCH_ERROR. */
export function failureFromFetch(err: unknown): ProcessingFailure {
  if (err instanceof ProcessingFailure) return err;
  if (err instanceof SafeFetchError) return new ProcessingFailure(err.reason === "timeout" ? "FETCH_TIMEOUT" : "FETCH_ERROR", err.message);
  return new ProcessingFailure("FETCH_ERROR", "The specification could not be fetched.");
}
