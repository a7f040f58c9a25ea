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
}
