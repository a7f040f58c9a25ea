/**
 * The classic face's view of an OAuth failure: an `HttpError` (so a controller that lets it
 * escape answers with the right status in the standard shape) that keeps the tagged error.
 *
 * @since 0.1.0
 */
import { CodedHttpError } from "../http/CodedHttpError.js";
import type { OAuthError } from "./OAuthError.js";

/**
 * An OAuth failure thrown by `OAuthService`: status and public message of the tagged error
 * in `reason`, and its stable code in `error` (`invalid_state`, `code_rejected`, ...).
 *
 * @since 0.1.0
 * @category errors
 */
export class OAuthHttpError extends CodedHttpError<OAuthError> {
  override readonly _tag: string = "OAuthHttpError";
}
