/**
 * How the session service answers a store that fails: logged (its message, never its data),
 * a 503; a new session too large for its cookie, logged and its own 422.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import { ServiceUnavailableError, UnauthorizedError } from "../../http/HttpError.js";
import type { SessionStoreError } from "../SessionStore.js";
import type { SessionTooLarge } from "../SessionTooLarge.js";

/** No session where one is required: 401. */
export const unauthorized = new UnauthorizedError();
const unavailable = new ServiceUnavailableError();

/** A store failure for the log: its message and its cause's, never its data. */
export const describe = (error: SessionStoreError | SessionTooLarge): string =>
  error._tag === "SessionTooLarge"
    ? `the sealed session is ${error.size} characters, more than a cookie holds (${error.limit})`
    : error.cause instanceof Error
      ? `${error.message}: ${error.cause.message}`
      : error.message;

/** A store failure: logged (message only), answered 503. */
export const failed = (error: SessionStoreError) =>
  Effect.zipRight(
    Effect.logWarning(`Session store unavailable: ${describe(error)}`),
    Effect.fail(unavailable),
  );

/** A new session refused: too large for its cookie (logged, its own 422), or the store's 503. */
export const refused = (
  error: SessionStoreError | SessionTooLarge,
): Effect.Effect<never, ServiceUnavailableError | SessionTooLarge> =>
  error._tag === "SessionTooLarge"
    ? Effect.zipRight(
        Effect.logWarning(
          `Session not created: ${describe(error)}; keep less in the session, or use a server-side store`,
        ),
        Effect.fail(error),
      )
    : failed(error);
