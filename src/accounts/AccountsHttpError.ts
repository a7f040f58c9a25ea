/**
 * The classic face's view of an accounts failure: an `HttpError` (so a controller that lets it
 * escape answers with the right status in the standard shape) that keeps the tagged error.
 *
 * @since 0.1.0
 */
import { CodedHttpError } from "../http/CodedHttpError.js";
import type { AccountsError } from "./AccountsError.js";

/**
 * An accounts failure thrown by `AccountsService`: status and public message of the tagged
 * error in `reason`, and its stable code in `error` (`account_conflict`, `last_account`, ...).
 *
 * @since 0.1.0
 * @category errors
 */
export class AccountsHttpError extends CodedHttpError<AccountsError> {
  override readonly _tag: string = "AccountsHttpError";

  /**
   * The status, stable code and public message of `reason`, as the Effect face's errors name
   * them: the OAuth routes answer a failed handler with them (a 409 `account_conflict` body, or
   * `errorRedirect` with `error=account_conflict`).
   */
  get httpStatus(): number {
    return this.reason.httpStatus;
  }
  /** The stable `error` code. */
  get code(): string {
    return this.reason.code;
  }
  /** The public message. */
  get publicMessage(): string {
    return this.reason.publicMessage;
  }
}
