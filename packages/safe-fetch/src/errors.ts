// The one error every refused or failed fetch throws: a 400 with a stable reason code in `data`.
import { BadRequestError } from "@docshelf/errors";

export type RefusalReason =
  | "bad-url"
  | "scheme"
  | "private-address"
  | "too-large"
  | "timeout"
  | "too-many-redirects"
  | "fetch-failed";

export interface SafeFetchErrorData {
  reason: RefusalReason;
}

export class SafeFetchError extends BadRequestError {
  declare data: SafeFetchErrorData;
  readonly reason: RefusalReason;

  constructor(reason: RefusalReason, message: string) {
    super(message, { reason } satisfies SafeFetchErrorData);
    this.reason = reason;
  }
}

/** Host and port of a URL for messages: never its credentials, path or query. */
export function describeHost(url: URL): string {
  return url.host || "the URL";
}
