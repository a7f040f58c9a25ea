import { BadRequestError, HttpError } from "../core/HttpError.js";

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

/** The HTTP error with `status` and `message`: a {@link BadRequestError} for 400. */
export const httpError = (status: number, message: string, errors?: ReadonlyArray<string>) =>
  status === 400 ? new BadRequestError(message, errors) : new HttpError(status, message, errors);

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
