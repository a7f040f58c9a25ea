import {
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GatewayTimeoutError,
  GoneError,
  HttpVersionNotSupportedError,
  ImATeapotError,
  InternalServerError,
  MethodNotAllowedError,
  MisdirectedError,
  NotAcceptableError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  PreconditionFailedError,
  RequestTimeoutError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from "./HttpError.js";
import { attachResponse, type HttpExceptionOptions, messageOf } from "./HttpExceptionOptions.js";

/** A response, a message or messages, as NestJS's built-in exceptions take first. */
type ObjectOrError = string | ReadonlyArray<string> | object;

/**
 * A NestJS built-in exception class over one of Strata's: constructed with NestJS's
 * `(objectOrError?, descriptionOrOptions?)`, or with Strata's `(message, errors)` (an array
 * second, which NestJS never takes there: the standard body `{ statusCode, message, errors }`);
 * an instance of the Strata class (same `_tag`, status and Schema), and `instanceof` either
 * class holds for errors of both spellings.
 *
 * @since 0.1.0
 * @category errors
 */
export interface NestExceptionClass<E> {
  new (objectOrError?: ObjectOrError, descriptionOrOptions?: string | HttpExceptionOptions): E;
  new (message: string, errors: ReadonlyArray<string>): E;
}

/**
 * The body NestJS builds: nothing given, `{ statusCode, message: description }`; a message (or
 * messages), `{ statusCode, message, error: description }`; an object, that object.
 */
const createBody = (
  objectOrError: ObjectOrError | undefined,
  description: string,
  statusCode: number,
) => {
  if (objectOrError === undefined || objectOrError === null || objectOrError === "") {
    return { statusCode, message: description };
  }
  if (typeof objectOrError === "string" || Array.isArray(objectOrError)) {
    return { statusCode, message: objectOrError, error: description };
  }
  return objectOrError;
};

/** NestJS's spelling of the fixed-status class `Base`, whose default message is `description`. */
const nestException = <E extends { readonly statusCode: number }>(
  Base: new (message?: string) => E,
  description: string,
): NestExceptionClass<E> => {
  const Strata = Base as unknown as new (
    message?: unknown,
    errors?: unknown,
  ) => { readonly statusCode: number };
  class Exception extends Strata {
    constructor(
      objectOrError?: ObjectOrError,
      descriptionOrOptions?: string | HttpExceptionOptions | boolean | ReadonlyArray<string>,
    ) {
      if (descriptionOrOptions === true) {
        // The Schema's decoder.
        super(objectOrError, true);
        return;
      }
      if (Array.isArray(descriptionOrOptions)) {
        // Strata's `(message, errors)`: the standard body, its detail lines in `errors`.
        super(typeof objectOrError === "string" ? objectOrError : undefined, descriptionOrOptions);
        return;
      }
      const options: HttpExceptionOptions =
        typeof descriptionOrOptions === "string"
          ? { description: descriptionOrOptions }
          : typeof descriptionOrOptions === "object"
            ? (descriptionOrOptions as HttpExceptionOptions)
            : {};
      super(messageOf(objectOrError, description));
      const body = createBody(objectOrError, options.description ?? description, this.statusCode);
      attachResponse(this, body, options.cause);
    }

    /** Errors of the Strata spelling are instances too (Strata's own 404s, 400s...). */
    static override [Symbol.hasInstance](u: unknown): boolean {
      return u instanceof Base;
    }
  }
  return Exception as unknown as NestExceptionClass<E>;
};

/** NestJS's `BadRequestException`: a BadRequestError (400). @since 0.1.0 @category errors */
export class BadRequestException extends nestException(BadRequestError, "Bad Request") {}

/** NestJS's `UnauthorizedException`: a UnauthorizedError (401). @since 0.1.0 @category errors */
export class UnauthorizedException extends nestException(UnauthorizedError, "Unauthorized") {}

/** NestJS's `ForbiddenException`: a ForbiddenError (403). @since 0.1.0 @category errors */
export class ForbiddenException extends nestException(ForbiddenError, "Forbidden") {}

/** NestJS's `NotFoundException`: a NotFoundError (404). @since 0.1.0 @category errors */
export class NotFoundException extends nestException(NotFoundError, "Not Found") {}

/** NestJS's `MethodNotAllowedException`: a MethodNotAllowedError (405). @since 0.1.0 @category errors */
export class MethodNotAllowedException extends nestException(
  MethodNotAllowedError,
  "Method Not Allowed",
) {}

/** NestJS's `NotAcceptableException`: a NotAcceptableError (406). @since 0.1.0 @category errors */
export class NotAcceptableException extends nestException(NotAcceptableError, "Not Acceptable") {}

/** NestJS's `RequestTimeoutException`: a RequestTimeoutError (408). @since 0.1.0 @category errors */
export class RequestTimeoutException extends nestException(
  RequestTimeoutError,
  "Request Timeout",
) {}

/** NestJS's `ConflictException`: a ConflictError (409). @since 0.1.0 @category errors */
export class ConflictException extends nestException(ConflictError, "Conflict") {}

/** NestJS's `GoneException`: a GoneError (410). @since 0.1.0 @category errors */
export class GoneException extends nestException(GoneError, "Gone") {}

/** NestJS's `PreconditionFailedException`: a PreconditionFailedError (412). @since 0.1.0 @category errors */
export class PreconditionFailedException extends nestException(
  PreconditionFailedError,
  "Precondition Failed",
) {}

/** NestJS's `PayloadTooLargeException`: a PayloadTooLargeError (413). @since 0.1.0 @category errors */
export class PayloadTooLargeException extends nestException(
  PayloadTooLargeError,
  "Payload Too Large",
) {}

/** NestJS's `UnsupportedMediaTypeException`: a UnsupportedMediaTypeError (415). @since 0.1.0 @category errors */
export class UnsupportedMediaTypeException extends nestException(
  UnsupportedMediaTypeError,
  "Unsupported Media Type",
) {}

/** NestJS's `ImATeapotException`: a ImATeapotError (418). @since 0.1.0 @category errors */
export class ImATeapotException extends nestException(ImATeapotError, "I'm a teapot") {}

/** NestJS's `MisdirectedException`: a MisdirectedError (421). @since 0.1.0 @category errors */
export class MisdirectedException extends nestException(MisdirectedError, "Misdirected") {}

/** NestJS's `UnprocessableEntityException`: a UnprocessableEntityError (422). @since 0.1.0 @category errors */
export class UnprocessableEntityException extends nestException(
  UnprocessableEntityError,
  "Unprocessable Entity",
) {}

/** NestJS's `TooManyRequestsException`: a TooManyRequestsError (429). @since 0.1.0 @category errors */
export class TooManyRequestsException extends nestException(
  TooManyRequestsError,
  "Too Many Requests",
) {}

/** NestJS's `InternalServerErrorException`: a InternalServerError (500). @since 0.1.0 @category errors */
export class InternalServerErrorException extends nestException(
  InternalServerError,
  "Internal Server Error",
) {}

/** NestJS's `NotImplementedException`: a NotImplementedError (501). @since 0.1.0 @category errors */
export class NotImplementedException extends nestException(
  NotImplementedError,
  "Not Implemented",
) {}

/** NestJS's `BadGatewayException`: a BadGatewayError (502). @since 0.1.0 @category errors */
export class BadGatewayException extends nestException(BadGatewayError, "Bad Gateway") {}

/** NestJS's `ServiceUnavailableException`: a ServiceUnavailableError (503). @since 0.1.0 @category errors */
export class ServiceUnavailableException extends nestException(
  ServiceUnavailableError,
  "Service Unavailable",
) {}

/** NestJS's `GatewayTimeoutException`: a GatewayTimeoutError (504). @since 0.1.0 @category errors */
export class GatewayTimeoutException extends nestException(
  GatewayTimeoutError,
  "Gateway Timeout",
) {}

/** NestJS's `HttpVersionNotSupportedException`: a HttpVersionNotSupportedError (505). @since 0.1.0 @category errors */
export class HttpVersionNotSupportedException extends nestException(
  HttpVersionNotSupportedError,
  "HTTP Version Not Supported",
) {}
