import * as HttpServerError from "@effect/platform/HttpServerError";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as ParseResult from "effect/ParseResult";
import { BadRequestError, HttpError, InternalServerError, NotFoundError } from "./HttpError.js";
import { jsonResponse } from "./TextResponse.js";

/**
 * The body Strata sends for every failure that no exception filter handled.
 *
 * @since 0.1.0
 * @category errors
 */
export interface ErrorBody {
  readonly statusCode: number;
  readonly message: string;
  readonly errors?: ReadonlyArray<string>;
}

/** The standard body of an {@link HttpError}. @since 0.1.0 @category errors */
export const errorBody = (error: HttpError): ErrorBody =>
  error.errors === undefined
    ? { statusCode: error.statusCode, message: error.message }
    : { statusCode: error.statusCode, message: error.message, errors: error.errors };

/** The response for an {@link HttpError}: its status and the standard body. @since 0.1.0 @category errors */
export const errorResponse = (error: HttpError): HttpServerResponse.HttpServerResponse =>
  jsonResponse(errorBody(error), {
    status: error.statusCode,
    headers: error.statusCode === 413 ? { connection: "close" } : undefined,
  });

const internal = new InternalServerError();
const notFound = new NotFoundError();
const badRequest = new BadRequestError();

/**
 * A Schema decoding failure (a `ParseError`, or the issue of one) as a 400 `Validation failed`,
 * one readable line per offending field (`path: message`). The error carries no stack: only its
 * response is used, and capturing one cost ~4 us of a rejected request's ~14.
 *
 * @since 0.1.0
 * @category errors
 */
export const validationError = (
  error: ParseResult.ParseError | ParseResult.ParseIssue,
): BadRequestError => {
  const issue = ParseResult.isParseError(error) ? error.issue : error;
  const errors = ParseResult.ArrayFormatter.formatIssueSync(issue).map(({ path, message }) =>
    path.length === 0 ? message : `${path.map(String).join(".")}: ${message}`,
  );
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new BadRequestError("Validation failed", errors);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
};

/**
 * Maps a failure to the HTTP error it stands for: an `HttpError` as itself, an unmatched
 * route as 404, an unreadable request as 400, a Schema decoding failure (of params, query or
 * body) as 400 with one line per field; anything else is `None` (an unexpected failure).
 */
export const toHttpError = (error: unknown): Option.Option<HttpError> => {
  if (error instanceof HttpError) return Option.some(error);
  if (HttpServerError.isServerError(error)) {
    if (error._tag === "RouteNotFound") return Option.some(notFound);
    if (error._tag === "RequestError") return Option.some(badRequest);
  }
  if (ParseResult.isParseError(error)) return Option.some(validationError(error));
  return Option.none();
};

/**
 * Turns any cause into a response in the standard shape. Expected HTTP failures keep their
 * status and message; everything else (unknown failures, defects) becomes a bare 500 whose body
 * leaks nothing, while the full cause goes to the server log for the operator. An interruption
 * (the client went away, or the server is shutting down) gets the platform's own response.
 *
 * @since 0.1.0
 * @category errors
 */
export const causeToResponse = <E>(
  cause: Cause.Cause<E>,
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Cause.failureOption(cause);
  if (failure._tag === "Some") {
    const known = toHttpError(failure.value);
    if (known._tag === "Some") return Effect.succeed(errorResponse(known.value));
  } else if (Cause.isInterruptedOnly(cause)) {
    return Effect.succeed(HttpServerError.causeResponseStripped(cause)[0]);
  }
  return Effect.as(logUnhandled(cause), internalErrorResponse);
};

/**
 * The 500 in the standard shape, for failures nobody handled.
 *
 * @since 0.1.0
 * @category errors
 */
export const internalErrorResponse: HttpServerResponse.HttpServerResponse = errorResponse(internal);

/**
 * Logs a failure nobody handled, answered with {@link internalErrorResponse}: the full cause
 * goes to the server log, never to the client.
 *
 * @since 0.1.0
 * @category errors
 */
export const logUnhandled = (cause: Cause.Cause<unknown>): Effect.Effect<void> =>
  Effect.logError("Unhandled failure, answered 500 Internal Server Error", cause);

/**
 * Wraps an HTTP app so that every failure becomes a response in the standard error shape.
 *
 * @since 0.1.0
 * @category errors
 */
export const withErrorResponses = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.catchAllCause(app, causeToResponse);
