import * as HttpServerError from "@effect/platform/HttpServerError";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as ParseResult from "effect/ParseResult";
import { errorResponse } from "./ErrorBody.js";
import { BadRequestError, InternalServerError, isHttpError, NotFoundError } from "./HttpError.js";

export { type ErrorBody, errorBody, errorResponse } from "./ErrorBody.js";

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
 * The 500 in the standard shape, for failures nobody handled.
 *
 * @since 0.1.0
 * @category errors
 */
export const internalErrorResponse: HttpServerResponse.HttpServerResponse = errorResponse(
  new InternalServerError(),
);

const notFound = Effect.succeed(errorResponse(new NotFoundError()));
const badRequest = Effect.succeed(errorResponse(new BadRequestError()));

const unhandled = (cause: Cause.Cause<unknown>) =>
  Effect.as(logUnhandled(cause), internalErrorResponse);

/**
 * The response a failure stands for, the same as any `@effect/platform` server gives it, in
 * the standard shape where the platform's is an empty body: a respondable failure (every
 * `HttpError`) answers for itself, an unmatched route is 404, an unreadable request 400, a
 * Schema decoding failure (of params, query or body) 400 with one line per field. Anything
 * else is `undefined`: an unexpected failure.
 */
const failureResponse = (
  error: unknown,
): Effect.Effect<HttpServerResponse.HttpServerResponse> | undefined => {
  // An HttpError's response cannot fail (its type says so): no recovery frame for it.
  if (isHttpError(error)) return error[Respondable.symbol]();
  if (HttpServerError.isServerError(error)) {
    if (error._tag === "RouteNotFound") return notFound;
    if (error._tag === "RequestError") return badRequest;
    return undefined;
  }
  if (ParseResult.isParseError(error)) return validationError(error)[Respondable.symbol]();
  if (Respondable.isRespondable(error)) {
    return Effect.catchAllCause(error[Respondable.symbol](), unhandled);
  }
  return undefined;
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
    const known = failureResponse(failure.value);
    if (known !== undefined) return known;
  } else if (Cause.isInterruptedOnly(cause)) {
    return Effect.succeed(HttpServerError.causeResponseStripped(cause)[0]);
  }
  return unhandled(cause);
};

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
