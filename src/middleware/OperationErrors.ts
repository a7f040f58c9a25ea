import { HttpError } from "../core/HttpError.js";

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
