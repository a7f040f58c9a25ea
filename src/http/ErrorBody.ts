import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { jsonResponse } from "./TextResponse.js";

/**
 * The body Strata sends for every failure that no exception filter handled. `error`, the
 * reason phrase, is there when the error was built with NestJS's arguments and a message, as
 * NestJS has it (`new NotFoundException("No such cat")`).
 *
 * @since 0.1.0
 * @category errors
 */
export interface ErrorBody {
  readonly statusCode: number;
  readonly message: string;
  readonly error?: string;
  readonly errors?: ReadonlyArray<string>;
}

/**
 * Where an error built with NestJS's arguments keeps the response it was given (a string, or
 * an object that is the whole body, as NestJS sends it). Not an enumerable field: the error's
 * Schema and its equality stay those of Strata's fields.
 *
 * @internal
 */
export const NestResponse: unique symbol = Symbol.for("effect-strata/ErrorBody/NestResponse");

/** An error that may carry a NestJS response. */
type WithResponse = ErrorBody & { readonly [NestResponse]?: string | object };

/**
 * The standard body of an error: its status, message and detail lines, nothing else (a
 * subclass's own fields stay out). @since 0.1.0 @category errors
 */
export const errorBody = (error: ErrorBody): ErrorBody =>
  error.errors === undefined
    ? { statusCode: error.statusCode, message: error.message }
    : { statusCode: error.statusCode, message: error.message, errors: error.errors };

/**
 * What an error answers with, as NestJS's `getResponse()` says it: the response it was given
 * with NestJS's arguments (a string, or the object that is the body), else its standard body.
 */
export const responseOf = (error: ErrorBody): string | object =>
  (error as WithResponse)[NestResponse] ?? errorBody(error);

/** The JSON body sent for an error: a NestJS string response is `{ statusCode, message }`. */
const bodyOf = (error: ErrorBody): object => {
  const response = (error as WithResponse)[NestResponse];
  if (response === undefined) return errorBody(error);
  return typeof response === "string"
    ? { statusCode: error.statusCode, message: response }
    : response;
};

const closeConnection = { connection: "close" } as const;

/**
 * The response for an error: its status and the standard body (a 413 also closes the
 * connection, whose unread body may still be arriving). @since 0.1.0 @category errors
 */
export const errorResponse = (error: ErrorBody): HttpServerResponse.HttpServerResponse =>
  jsonResponse(bodyOf(error), {
    status: error.statusCode,
    headers: error.statusCode === 413 ? closeConnection : undefined,
  });
