import * as Errors from "../http/HttpError.js";

/**
 * Options the parse pipes share (NestJS's): how a rejection is answered, and whether a missing
 * value passes.
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ParsePipeOptions {
  /** The status of a rejection (default 400), with the pipe's message. */
  readonly errorHttpStatusCode?: number;
  /** Makes the error thrown on a rejection, from the pipe's message. */
  readonly exceptionFactory?: (error: string) => unknown;
  /** `null` and `undefined` pass unchanged instead of being rejected (default `false`). */
  readonly optional?: boolean;
}

/** The classes of the 4xx and 5xx statuses Strata names, by status (NestJS's `HttpErrorByCode`). */
const byStatus = new Map<
  number,
  new (
    message?: string,
    errors?: ReadonlyArray<string>,
  ) => Errors.HttpError
>([
  [400, Errors.BadRequestError],
  [401, Errors.UnauthorizedError],
  [403, Errors.ForbiddenError],
  [404, Errors.NotFoundError],
  [405, Errors.MethodNotAllowedError],
  [406, Errors.NotAcceptableError],
  [408, Errors.RequestTimeoutError],
  [409, Errors.ConflictError],
  [410, Errors.GoneError],
  [412, Errors.PreconditionFailedError],
  [413, Errors.PayloadTooLargeError],
  [415, Errors.UnsupportedMediaTypeError],
  [418, Errors.ImATeapotError],
  [421, Errors.MisdirectedError],
  [422, Errors.UnprocessableEntityError],
  [429, Errors.TooManyRequestsError],
  [500, Errors.InternalServerError],
  [501, Errors.NotImplementedError],
  [502, Errors.BadGatewayError],
  [503, Errors.ServiceUnavailableError],
  [504, Errors.GatewayTimeoutError],
  [505, Errors.HttpVersionNotSupportedError],
]);

/**
 * The HTTP error with `status`, `message` and detail lines: of the class Strata has for that
 * status (`UnprocessableEntityError` for 422...), else an {@link Errors.HttpError}.
 */
export const httpError = (
  status: number,
  message: string,
  errors?: ReadonlyArray<string>,
): Errors.HttpError => {
  const cls = byStatus.get(status);
  return cls === undefined
    ? new Errors.HttpError(status, message, errors)
    : new cls(message, errors);
};

/**
 * What a pipe throws when it rejects a value with `message`: the `exceptionFactory`'s error,
 * else one error made now and thrown every time (no stack captured per request).
 */
export const rejection = (options: ParsePipeOptions, message: string): (() => unknown) => {
  const { exceptionFactory } = options;
  if (exceptionFactory !== undefined) return () => exceptionFactory(message);
  const error = httpError(options.errorHttpStatusCode ?? 400, message);
  return () => error;
};

/** `true` for `null` and `undefined`. */
export const isNil = (value: unknown): value is null | undefined =>
  value === null || value === undefined;
