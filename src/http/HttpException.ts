import { HttpError, isHttpError } from "./HttpError.js";
import {
  attachResponse,
  type HttpExceptionOptions,
  messageOf,
  reasonPhrase,
} from "./HttpExceptionOptions.js";

/**
 * NestJS's `HttpException`: an {@link HttpError} that also takes NestJS's arguments,
 * `(response, status, options?)`. A string response is the message (`{ statusCode, message }`
 * is sent); an object response is the whole body, sent as it is. Strata's own form,
 * `(status, message, errors?)`, still works: a number first is Strata's form.
 * `instanceof HttpException` holds for every HTTP error, as every NestJS built-in exception
 * extends it, so `@Catch(HttpException)` catches them all.
 *
 * @example
 * declare const cause: Error;
 *
 * throw new HttpException("Upstream down", HttpStatus.BAD_GATEWAY);
 * throw new HttpException({ status: 403, error: "No access" }, 403, { cause });
 *
 * @since 0.1.0
 * @category errors
 */
export class HttpException extends HttpError {
  constructor(statusCode: number, message: string, errors?: ReadonlyArray<string>);
  constructor(response: string | object, status: number, options?: HttpExceptionOptions);
  constructor(
    first: number | string | object,
    second?: number | string | boolean,
    third?: ReadonlyArray<string> | HttpExceptionOptions,
  ) {
    if (typeof second !== "number") {
      // Strata's form, or the Schema's decoder.
      super(first as number, second as string, third as ReadonlyArray<string> | undefined);
      return;
    }
    super(second, messageOf(first, reasonPhrase(second)));
    attachResponse(
      this,
      first as string | object,
      (third as HttpExceptionOptions | undefined)?.cause,
    );
  }

  /** Every HTTP error is an `HttpException`, as in NestJS. */
  static override [Symbol.hasInstance]<T>(
    this: abstract new (
      ...args: ReadonlyArray<never>
    ) => T,
    u: unknown,
  ): u is T {
    return isHttpError(u);
  }
}
