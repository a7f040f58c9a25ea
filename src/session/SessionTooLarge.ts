/**
 * Session data too large for its cookie (SECURITY.md 47): a coded failure, never a 500.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema";
import { CodedError } from "../http/CodedFailure.js";

/**
 * The sealed session does not fit a cookie (browsers keep about 4 096 bytes): the data is too
 * large (a provider profile with a very long name, say). Nothing is written: no session is
 * created and no cookie set. 422 with the stable code `session_too_large`; the built-in OAuth
 * routes redirect it to `errorRedirect` (`?error=session_too_large`) when one was given. Keep
 * less in the session, or use a server-side store, which has no such limit.
 *
 * @since 0.1.0
 * @category store
 */
export class SessionTooLarge extends CodedError<SessionTooLarge>(
  "effect-strata/session/SessionTooLarge",
)(
  "SessionTooLarge",
  {
    /** The sealed value's length, in characters (for the log). */
    size: Schema.Number,
    /** The most a cookie value may have. */
    limit: Schema.Number,
  },
  // The public message says nothing of the data.
  { status: 422, code: "session_too_large", message: "Session data too large" },
) {}
