import * as Data from "effect/Data";

/**
 * An HTTP failure with a status, a message and optional detail lines.
 *
 * It is both an `Error` (classic code `throw`s it) and a tagged, yieldable Effect failure
 * (Effect code `yield*`s it and recovers with `Effect.catchTag`). Subclasses carry their own
 * `_tag`, so `catchTag("NotFoundError", ...)` narrows exactly.
 *
 * @since 0.1.0
 * @category errors
 */
export class HttpError extends Data.Error<{
  readonly statusCode: number;
  readonly message: string;
  readonly errors?: ReadonlyArray<string>;
}> {
  readonly _tag: string = "HttpError";
  constructor(statusCode: number, message: string, errors?: ReadonlyArray<string>) {
    super(errors === undefined ? { statusCode, message } : { statusCode, message, errors });
  }
  override get name(): string {
    return this._tag;
  }
}

/** `true` for any {@link HttpError}, whatever its subclass. @since 0.1.0 @category errors */
export const isHttpError = (u: unknown): u is HttpError => u instanceof HttpError;

/** 400, default message `Bad Request`. @since 0.1.0 @category errors */
export class BadRequestError extends HttpError {
  override readonly _tag = "BadRequestError" as const;
  constructor(message = "Bad Request", errors?: ReadonlyArray<string>) {
    super(400, message, errors);
  }
}

/** 401, default message `Unauthorized`. @since 0.1.0 @category errors */
export class UnauthorizedError extends HttpError {
  override readonly _tag = "UnauthorizedError" as const;
  constructor(message = "Unauthorized", errors?: ReadonlyArray<string>) {
    super(401, message, errors);
  }
}

/** 403, default message `Forbidden`. @since 0.1.0 @category errors */
export class ForbiddenError extends HttpError {
  override readonly _tag = "ForbiddenError" as const;
  constructor(message = "Forbidden", errors?: ReadonlyArray<string>) {
    super(403, message, errors);
  }
}

/** 404, default message `Not Found`. @since 0.1.0 @category errors */
export class NotFoundError extends HttpError {
  override readonly _tag = "NotFoundError" as const;
  constructor(message = "Not Found", errors?: ReadonlyArray<string>) {
    super(404, message, errors);
  }
}

/** 409, default message `Conflict`. @since 0.1.0 @category errors */
export class ConflictError extends HttpError {
  override readonly _tag = "ConflictError" as const;
  constructor(message = "Conflict", errors?: ReadonlyArray<string>) {
    super(409, message, errors);
  }
}

/** 413, default message `Payload Too Large`: a body over the configured limit. @since 0.1.0 @category errors */
export class PayloadTooLargeError extends HttpError {
  override readonly _tag = "PayloadTooLargeError" as const;
  constructor(message = "Payload Too Large", errors?: ReadonlyArray<string>) {
    super(413, message, errors);
  }
}

/** 408, default message `Request Timeout`: the handler did not answer in time. @since 0.1.0 @category errors */
export class RequestTimeoutError extends HttpError {
  override readonly _tag = "RequestTimeoutError" as const;
  constructor(message = "Request Timeout", errors?: ReadonlyArray<string>) {
    super(408, message, errors);
  }
}

/** 429, default message `Too Many Requests`: over the rate limit. @since 0.1.0 @category errors */
export class TooManyRequestsError extends HttpError {
  override readonly _tag = "TooManyRequestsError" as const;
  constructor(message = "Too Many Requests", errors?: ReadonlyArray<string>) {
    super(429, message, errors);
  }
}

/** 503, default message `Service Unavailable`: a dependency the request needs is down. @since 0.1.0 @category errors */
export class ServiceUnavailableError extends HttpError {
  override readonly _tag = "ServiceUnavailableError" as const;
  constructor(message = "Service Unavailable", errors?: ReadonlyArray<string>) {
    super(503, message, errors);
  }
}

/** 500, default message `Internal Server Error`. @since 0.1.0 @category errors */
export class InternalServerError extends HttpError {
  override readonly _tag = "InternalServerError" as const;
  constructor(message = "Internal Server Error", errors?: ReadonlyArray<string>) {
    super(500, message, errors);
  }
}

/** NestJS-style alias of {@link BadRequestError}. @since 0.1.0 @category errors */
export const BadRequestException = BadRequestError;
/** NestJS-style alias of {@link BadRequestError}. @since 0.1.0 @category errors */
export type BadRequestException = BadRequestError;
/** NestJS-style alias of {@link UnauthorizedError}. @since 0.1.0 @category errors */
export const UnauthorizedException = UnauthorizedError;
/** NestJS-style alias of {@link UnauthorizedError}. @since 0.1.0 @category errors */
export type UnauthorizedException = UnauthorizedError;
/** NestJS-style alias of {@link ForbiddenError}. @since 0.1.0 @category errors */
export const ForbiddenException = ForbiddenError;
/** NestJS-style alias of {@link ForbiddenError}. @since 0.1.0 @category errors */
export type ForbiddenException = ForbiddenError;
/** NestJS-style alias of {@link NotFoundError}. @since 0.1.0 @category errors */
export const NotFoundException = NotFoundError;
/** NestJS-style alias of {@link NotFoundError}. @since 0.1.0 @category errors */
export type NotFoundException = NotFoundError;
/** NestJS-style alias of {@link ConflictError}. @since 0.1.0 @category errors */
export const ConflictException = ConflictError;
/** NestJS-style alias of {@link ConflictError}. @since 0.1.0 @category errors */
export type ConflictException = ConflictError;
/** NestJS-style alias of {@link PayloadTooLargeError}. @since 0.1.0 @category errors */
export const PayloadTooLargeException = PayloadTooLargeError;
/** NestJS-style alias of {@link PayloadTooLargeError}. @since 0.1.0 @category errors */
export type PayloadTooLargeException = PayloadTooLargeError;
/** NestJS-style alias of {@link InternalServerError}. @since 0.1.0 @category errors */
export const InternalServerErrorException = InternalServerError;
/** NestJS-style alias of {@link InternalServerError}. @since 0.1.0 @category errors */
export type InternalServerErrorException = InternalServerError;
/** NestJS-style alias of {@link RequestTimeoutError}. @since 0.1.0 @category errors */
export const RequestTimeoutException = RequestTimeoutError;
/** NestJS-style alias of {@link RequestTimeoutError}. @since 0.1.0 @category errors */
export type RequestTimeoutException = RequestTimeoutError;
/** NestJS-style alias of {@link TooManyRequestsError}. @since 0.1.0 @category errors */
export const TooManyRequestsException = TooManyRequestsError;
/** NestJS-style alias of {@link TooManyRequestsError}. @since 0.1.0 @category errors */
export type TooManyRequestsException = TooManyRequestsError;
/** NestJS-style alias of {@link ServiceUnavailableError}. @since 0.1.0 @category errors */
export const ServiceUnavailableException = ServiceUnavailableError;
/** NestJS-style alias of {@link ServiceUnavailableError}. @since 0.1.0 @category errors */
export type ServiceUnavailableException = ServiceUnavailableError;
