/**
 * The classic face's view of a `CodedFailure`: an `HttpError` (so a controller that lets
 * it escape answers with the right status in the standard shape) that keeps the tagged error.
 *
 * @since 0.1.0
 */
import type { CodedFailure } from "./CodedFailure.js";
import { HttpError } from "./HttpError.js";

/**
 * An `HttpError` with the status and public message of the tagged error in `reason`, and its
 * stable code in `error`.
 *
 * @since 0.1.0
 * @category errors
 */
export class CodedHttpError<R extends CodedFailure> extends HttpError {
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
}
