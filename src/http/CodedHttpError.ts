/**
 * The classic face's view of a `CodedFailure`: an `HttpError` (so a controller that lets
 * it escape answers with the right status in the standard shape) that keeps the tagged error.
 *
 * @since 0.1.0
 */
import * as Respondable from "@effect/platform/HttpServerRespondable";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { type CodedFailure, codedFailureResponse } from "./CodedFailure.js";
import { HttpError } from "./HttpError.js";

/**
 * An `HttpError` with the status and public message of the tagged error in `reason`, and its
 * stable code in `error`. It answers as `reason` does, on any `@effect/platform` server: its
 * status and the standard body plus `error`, whichever face let it escape.
 *
 * @since 0.1.0
 * @category errors
 */
export class CodedHttpError<R extends CodedFailure> extends HttpError implements CodedFailure {
  override readonly _tag: string = "CodedHttpError";
  /** The stable error code. */
  readonly error: string;
  /** The tagged error. */
  readonly reason: R;

  constructor(reason: R) {
    super(reason.httpStatus, reason.publicMessage);
    this.error = reason.code;
    this.reason = reason;
  }

  /**
   * The status, stable code and public message of `reason`: a `CodedHttpError` is a
   * `CodedFailure` itself (the OAuth routes answer a callback handler that throws one with them).
   */
  get httpStatus(): number {
    return this.reason.httpStatus;
  }
  /** The stable `error` code of `reason`. */
  get code(): string {
    return this.reason.code;
  }
  /** The public message of `reason`. */
  get publicMessage(): string {
    return this.reason.publicMessage;
  }

  /** The answer of `reason`: its status and `{ statusCode, message, error }`. */
  override [Respondable.symbol](): Effect.Effect<HttpServerResponse.HttpServerResponse> {
    return Effect.succeed(codedFailureResponse(this.reason));
  }

  /** The body it answers with (NestJS's `getResponse()`): `{ statusCode, message, error }`. */
  override getResponse(): string | object {
    return { statusCode: this.statusCode, message: this.message, error: this.error };
  }
}
