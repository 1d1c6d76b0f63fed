import { Errors } from "moleculer";
import {
  ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  TooManyRequestsError,
  UnauthorizedError,
  describeValidation,
  toErrorResponse,
} from "./index";

const remote = { action: "orgs.get", nodeID: "node-secret-7" };

/** What a transporter hands back for an error thrown on another node: a plain Error carrying the fields. */
function overTheWire(err: Errors.MoleculerError): Error {
  const copy = new Error(err.message) as Error & Record<string, unknown>;
  copy.name = err.name;
  copy.code = err.code;
  copy.type = err.type;
  copy.data = err.data;
  return copy;
}

describe("typed errors", () => {
  test.each([
    ["BadRequestError", new BadRequestError("Invalid parameters: 'title' is too long."), 400, "Invalid parameters: 'title' is too long."],
    ["UnauthorizedError", new UnauthorizedError(), 401, "A valid API token is required in the Authorization header."],
    ["ForbiddenError", new ForbiddenError(), 403, "You do not have the permission to do this."],
    ["NotFoundError", new NotFoundError("The space does not exist."), 404, "The space does not exist."],
    ["ConflictError", new ConflictError("The email is taken."), 409, "The email is taken."],
    ["PreconditionFailedError", new PreconditionFailedError("The revision changed."), 412, "The revision changed."],
    ["PayloadTooLargeError", new PayloadTooLargeError(), 413, "The request body is too large."],
    ["TooManyRequestsError", new TooManyRequestsError("Slow down.", 30), 429, "Slow down."],
  ])("a %s answers its status with its message", (_name, err, status, message) => {
    expect(err).toBeInstanceOf(ApiError);
    expect(toErrorResponse(err)).toEqual({
      status,
      body: { error: { code: status, message } },
      retryAfter: status === 429 ? 30 : undefined,
    });
  });

  test("an InternalError is a 500 that shows only the generic message", () => {
    expect(toErrorResponse(new InternalError("database password rejected"))).toEqual({
      status: 500,
      body: { error: { code: 500, message: "Internal error." } },
      retryAfter: undefined,
    });
  });

  test("a typed error thrown on another node answers the same as a local one", () => {
    for (const err of [new BadRequestError("Bad."), new ConflictError("Taken."), new TooManyRequestsError("Slow down.", 7)]) {
      expect(toErrorResponse(overTheWire(err))).toEqual(toErrorResponse(err));
    }
  });

  test("a NOT_FOUND without a message says 'Not found.'", () => {
    expect(toErrorResponse({ code: 404, type: "NOT_FOUND" }).body.error.message).toBe("Not found.");
  });
});

describe("429 retryAfter", () => {
  test("a 429 carries the seconds to wait", () => {
    const response = toErrorResponse(new TooManyRequestsError("Too many requests.", 12));
    expect(response.status).toBe(429);
    expect(response.retryAfter).toBe(12);
  });

  test("retryAfter is only given for a 429 with a numeric value", () => {
    expect(toErrorResponse(new BadRequestError("x", { retryAfter: 5 })).retryAfter).toBeUndefined();
    expect(toErrorResponse({ code: 429, message: "slow", data: { retryAfter: "soon" } }).retryAfter).toBeUndefined();
  });
});

describe("Moleculer errors", () => {
  test("a ValidationError is a 400 whose message names the offending field", () => {
    const err = new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [
      { type: "stringMax", field: "title", message: "The 'title' field length must be less than or equal to 100 characters long.", actual: "x".repeat(200) },
    ]);
    const response = toErrorResponse(err);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(400);
    expect(response.body.error.message).toContain("'title'");
    expect(response.body.error.message).not.toContain("x".repeat(200));
  });

  test("a ValidationError names every field, also when the message does not", () => {
    const err = new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [
      { type: "required", field: "name", message: "is required" },
      { type: "number", field: "limit" },
    ]);
    const { status, body } = toErrorResponse(err);
    expect(status).toBe(400);
    expect(body.error.message).toBe("Invalid parameters: 'name': is required 'limit': is invalid");
  });

  test("a ValidationError without details is a 400 'Invalid parameters.'", () => {
    expect(toErrorResponse(new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", undefined as unknown as Record<string, unknown>)).body.error).toEqual({
      code: 400,
      message: "Invalid parameters.",
    });
  });

  test("a RequestTimeoutError is a 504 that does not name the node", () => {
    const { status, body } = toErrorResponse(new Errors.RequestTimeoutError(remote));
    expect(status).toBe(504);
    expect(body.error).toEqual({ code: 504, message: "The request timed out." });
  });

  test("a request skipped because its timeout passed is a 504", () => {
    const { status, body } = toErrorResponse(new Errors.RequestSkippedError(remote));
    expect(status).toBe(504);
    expect(body.error.message).not.toContain("node-secret-7");
  });

  test.each([
    ["ServiceNotFoundError", new Errors.ServiceNotFoundError(remote)],
    ["ServiceNotAvailableError", new Errors.ServiceNotAvailableError(remote)],
    ["RequestRejectedError", new Errors.RequestRejectedError(remote)],
    ["QueueIsFullError", new Errors.QueueIsFullError(remote)],
    ["BrokerDisconnectedError", new (Errors.BrokerDisconnectedError as unknown as new () => Errors.MoleculerError)()],
  ])("a %s is a 503 that does not name the action or node", (_name, err) => {
    const response = toErrorResponse(err);
    expect(response.status).toBe(503);
    expect(response.body.error).toEqual({ code: 503, message: "The service is temporarily unavailable." });
    expect(response.retryAfter).toBeUndefined();
  });

  test("a MoleculerError with a 5xx code other than 503 or 504 is a plain 500", () => {
    for (const err of [new Errors.MaxCallLevelError({ nodeID: "n1", level: 10 }), new Errors.MoleculerError("boom at /srv/x", 507, "WEIRD")]) {
      expect(toErrorResponse(err)).toMatchObject({ status: 500, body: { error: { code: 500, message: "Internal error." } } });
    }
  });

  test("a 503 or 504 never passes on its own message", () => {
    expect(toErrorResponse(new Errors.MoleculerError("redis at 10.0.0.3 down", 503, "X")).body.error.message).toBe(
      "The service is temporarily unavailable.",
    );
    expect(toErrorResponse(new Errors.MoleculerError("upstream 10.0.0.3 slow", 504, "X")).body.error.message).toBe("The request timed out.");
  });
});

describe("gateway errors", () => {
  test("an invalid JSON body is a 400", () => {
    expect(toErrorResponse({ code: 400, type: "INVALID_REQUEST_BODY" }).body.error).toEqual({ code: 400, message: "The request body is not valid JSON." });
  });

  test("a body over the limit is a 413", () => {
    expect(toErrorResponse({ code: 413, type: "PAYLOAD_TOO_LARGE" })).toMatchObject({ status: 413, body: { error: { message: "The request body is too large." } } });
  });

  test.each(["NO_TOKEN", "INVALID_TOKEN"])("a %s error from the web layer is a 401", (type) => {
    expect(toErrorResponse({ code: 401, type, message: "Unauthorized" }).body.error).toEqual({
      code: 401,
      message: "A valid API token is required in the Authorization header.",
    });
  });
});

describe("unknown errors", () => {
  test("an unknown Error is a 500 'Internal error.' that leaks nothing", () => {
    const err = new TypeError("Cannot read properties of undefined (reading 'password') at /srv/app/secret.js:12");
    const response = toErrorResponse(err);
    expect(response).toEqual({ status: 500, body: { error: { code: 500, message: "Internal error." } }, retryAfter: undefined });
    expect(JSON.stringify(response)).not.toMatch(/password|secret|srv/);
  });

  test("an error with a numeric code outside the HTTP error range is a 500", () => {
    const mongo = Object.assign(new Error("E11000 duplicate key error collection: db.users index: email_1"), { code: 11000 });
    expect(toErrorResponse(mongo)).toMatchObject({ status: 500, body: { error: { message: "Internal error." } } });
    expect(toErrorResponse({ code: 302, message: "moved" }).status).toBe(500);
    expect(toErrorResponse({ code: "ECONNREFUSED", message: "connect ECONNREFUSED 10.1.2.3:27017" })).toMatchObject({
      status: 500,
      body: { error: { message: "Internal error." } },
    });
  });

  test.each([null, undefined, "a string", 42, {}])("throwing %p answers a 500", (thrown) => {
    expect(toErrorResponse(thrown)).toEqual({ status: 500, body: { error: { code: 500, message: "Internal error." } }, retryAfter: undefined });
  });

  test("a client error without a message still has one", () => {
    expect(toErrorResponse({ code: 400 }).body.error).toEqual({ code: 400, message: "Error." });
  });
});

describe("describeValidation", () => {
  test("an enum failure names the rejected value, then the allowed values (fastest-validator's own message swaps them)", () => {
    const item = { type: "enumValue", field: "id", expected: "getting-started, api-reference, faq", actual: "nope", message: "The 'id' field value 'getting-started, api-reference, faq' does not match any of the allowed values." };
    expect(describeValidation([item])).toBe("Invalid parameters: The 'id' field value 'nope' does not match any of the allowed values: getting-started, api-reference, faq.");
    expect(describeValidation([{ ...item, expected: ["a", 1], actual: "x".repeat(300) }])).toBe(
      `Invalid parameters: The 'id' field value '${"x".repeat(100)}…' does not match any of the allowed values: a, 1.`,
    );
  });

  test("keeps messages that already name their field and prefixes those that do not", () => {
    expect(describeValidation([{ field: "a", message: "The 'a' field is required." }, { field: "b", message: "must be a number" }])).toBe(
      "Invalid parameters: The 'a' field is required. 'b': must be a number",
    );
  });

  test("something other than a list of items is 'Invalid parameters.'", () => {
    expect(describeValidation(null)).toBe("Invalid parameters.");
    expect(describeValidation([])).toBe("Invalid parameters.");
  });
});
