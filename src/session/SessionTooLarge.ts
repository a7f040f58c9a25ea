/**
 * Session data too large for its cookie (SECURITY.md 47): a coded failure, never a 500.
 *
 * @since 0.1.0
 */
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import { codedFailureResponse } from "../http/CodedFailure.js";

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
export class SessionTooLarge
  extends Data.TaggedError("SessionTooLarge")<{
    /** The sealed value's length, in characters (for the log). */
    readonly size: number;
    /** The most a cookie value may have. */
    readonly limit: number;
  }>
  implements Respondable.Respondable
{
  /** The HTTP status it is answered with. */
  get httpStatus(): number {
    return 422;
  }
  /** The stable `error` code of the response body. */
  get code(): string {
    return "session_too_large";
  }
  /** The public message of the response body (nothing of the data). */
  get publicMessage(): string {
    return "Session data too large";
  }
  /** 422 in the standard shape plus `error: "session_too_large"`, on any server. */
  [Respondable.symbol]() {
    return Effect.succeed(codedFailureResponse(this));
  }
}
