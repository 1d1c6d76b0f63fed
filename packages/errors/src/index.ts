// Typed errors that carry their HTTP status, and the one error body every answer uses.
import { Errors } from "moleculer";

export type HttpStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 429 | 500 | 503 | 504;

export interface ErrorBody {
  error: { code: number; message: string };
}

/** Base class: `code` is the HTTP status, `type` a stable machine-readable name. */
export class ApiError extends Errors.MoleculerError {
  constructor(message: string, status: HttpStatus, type: string, data?: unknown) {
    super(message, status, type, data);
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string, data?: unknown) {
    super(message, 400, "BAD_REQUEST", data);
  }
}
export class UnauthorizedError extends ApiError {
  constructor(message = "A valid API token is required in the Authorization header.") {
    super(message, 401, "UNAUTHORIZED");
  }
}
export class ForbiddenError extends ApiError {
  constructor(message = "You do not have the permission to do this.") {
    super(message, 403, "FORBIDDEN");
  }
}
export class NotFoundError extends ApiError {
  constructor(message = "Not found.") {
    super(message, 404, "NOT_FOUND");
  }
}
export class ConflictError extends ApiError {
  constructor(message: string, data?: unknown) {
    super(message, 409, "CONFLICT", data);
  }
}
export class PreconditionFailedError extends ApiError {
  constructor(message: string) {
    super(message, 412, "PRECONDITION_FAILED");
  }
}
export class PayloadTooLargeError extends ApiError {
  constructor(message = "The request body is too large.") {
    super(message, 413, "PAYLOAD_TOO_LARGE");
  }
}
export class TooManyRequestsError extends ApiError {
  constructor(message: string, retryAfterSeconds: number) {
    super(message, 429, "TOO_MANY_REQUESTS", { retryAfter: retryAfterSeconds });
  }
}
export class InternalError extends ApiError {
  constructor(message = "Internal error.") {
    super(message, 500, "INTERNAL");
  }
}

/** Shape of fastest-validator's error items as Moleculer forwards them in `data`. */
interface ValidationItem {
  field?: string;
  message?: string;
  type?: string;
  expected?: unknown;
  actual?: unknown;
}

/** A rejected value as the message shows it: short, and only when it is a plain scalar. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/**
 * fastest-validator's own enum message puts the allowed list where the rejected value belongs
 * ("The 'id' field value 'a, b, c' does not match…"): this one names the value, then the list.
 */
function enumMessage(item: ValidationItem): string | undefined {
  if (item.type !== "enumValue") return undefined;
  // fastest-validator gives the allowed values joined ("a, b, c"); an array is taken too.
  const allowed = Array.isArray(item.expected) ? item.expected.map((v) => shown(v)).join(", ") : typeof item.expected === "string" ? item.expected : undefined;
  if (allowed === undefined) return undefined;
  return `The '${item.field}' field value '${shown(item.actual)}' does not match any of the allowed values: ${allowed}.`;
}

/** Turns a validation failure into a sentence that names every offending field. */
/** Whether a call failed because no node offers the action (the service is not deployed or not up). */
export function isMissingService(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === "ServiceNotFoundError" || name === "ServiceNotAvailableError";
}

export function describeValidation(items: unknown): string {
  if (!Array.isArray(items) || items.length === 0) return "Invalid parameters.";
  const parts = (items as ValidationItem[]).map((item) => {
    const message = enumMessage(item) ?? item.message ?? "is invalid";
    return item.field && !message.includes(`'${item.field}'`) ? `'${item.field}': ${message}` : message;
  });
  return `Invalid parameters: ${parts.join(" ")}`;
}

interface ErrorLike {
  code?: unknown;
  type?: unknown;
  name?: unknown;
  message?: unknown;
  data?: unknown;
}

/**
 * Maps any error (ours, Moleculer's, moleculer-web's, or an unexpected one) to a status and the
 * one error body. Unknown failures become a 500 whose message reveals nothing internal.
 */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody; retryAfter?: number } {
  const e = (err ?? {}) as ErrorLike;
  const type = typeof e.type === "string" ? e.type : "";
  const name = typeof e.name === "string" ? e.name : "";
  const message = typeof e.message === "string" ? e.message : "";
  let status = typeof e.code === "number" ? e.code : 500;
  let text = message;

  if (type === "VALIDATION_ERROR" || name === "ValidationError") {
    status = 400;
    text = describeValidation(e.data);
  } else if (name === "RequestTimeoutError" || type === "REQUEST_TIMEOUT" || name === "RequestSkippedError" || type === "REQUEST_SKIPPED") {
    // A skipped request is one whose timeout passed before a node got to it.
    status = 504;
    text = "The request timed out.";
  } else if (name === "ServiceNotFoundError" || name === "ServiceNotAvailableError" || type === "SERVICE_NOT_FOUND" || type === "SERVICE_NOT_AVAILABLE") {
    // A route names an action whose service is not running anywhere right now.
    status = 503;
    text = "The service is temporarily unavailable.";
  } else if (name === "QueueIsFullError" || name === "BrokerDisconnectedError" || name === "RequestRejectedError" || type === "REQUEST_REJECTED") {
    status = 503;
    text = "The service is temporarily unavailable.";
  } else if (type === "INVALID_REQUEST_BODY") {
    status = 400;
    text = "The request body is not valid JSON.";
  } else if (type === "PAYLOAD_TOO_LARGE" || status === 413) {
    status = 413;
    text = message || "The request body is too large.";
  } else if (type === "NO_TOKEN" || type === "INVALID_TOKEN") {
    status = 401;
    text = "A valid API token is required in the Authorization header.";
  } else if (status === 404 && type === "NOT_FOUND" && !message) {
    text = "Not found.";
  }

  if (!Number.isInteger(status) || status < 400 || status > 599) status = 500;
  // Server-side messages (they name nodes, actions, hosts) never reach the client.
  if (status === 503) text = "The service is temporarily unavailable.";
  else if (status === 504) text = "The request timed out.";
  else if (status >= 500) {
    status = 500;
    text = "Internal error.";
  }
  if (!text) text = "Error.";
  const data = e.data as { retryAfter?: unknown } | undefined;
  const retryAfter = status === 429 && data && typeof data.retryAfter === "number" ? data.retryAfter : undefined;
  return { status, body: { error: { code: status, message: text } }, retryAfter };
}
