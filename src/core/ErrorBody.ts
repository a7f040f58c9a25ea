import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
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

/**
 * The standard body of an error: its status, message and detail lines, nothing else (a
 * subclass's own fields stay out). @since 0.1.0 @category errors
 */
export const errorBody = (error: ErrorBody): ErrorBody =>
  error.errors === undefined
    ? { statusCode: error.statusCode, message: error.message }
    : { statusCode: error.statusCode, message: error.message, errors: error.errors };

const closeConnection = { connection: "close" } as const;

/**
 * The response for an error: its status and the standard body (a 413 also closes the
 * connection, whose unread body may still be arriving). @since 0.1.0 @category errors
 */
export const errorResponse = (error: ErrorBody): HttpServerResponse.HttpServerResponse =>
  jsonResponse(errorBody(error), {
    status: error.statusCode,
    headers: error.statusCode === 413 ? closeConnection : undefined,
  });
