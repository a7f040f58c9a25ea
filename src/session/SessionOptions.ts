/**
 * How sessions behave, shared by both faces: timeouts, the cookie, and whose session it is.
 *
 * The defaults are for the apps Strata targets, sign-in through a social provider, where signing
 * in again is one click (the provider usually remembers the user):
 * - `idleTimeout` 24 hours: a user coming back the same day is still signed in; a cookie left
 *   on a shared or stolen device stops working a day after its last use. (Auth.js keeps
 *   sessions 30 days, better-auth 7; OWASP advises 15-30 minutes for low-risk apps and less for
 *   high-value ones: shorten it for those.)
 * - `absoluteTimeout` 7 days: however active, a session ends a week after sign-in, which bounds
 *   what a stolen cookie is worth and re-reads the user's profile from the provider weekly.
 * - `touchInterval` 5 minutes: a sliding session is written back at most once per 5 minutes
 *   (a new sealed cookie, or one Redis write), not on every request; the idle timeout is exact
 *   to within that.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";
import { isHttps, type TrustProxy } from "../middleware/RequestInfo.js";
import { DEFAULT_COOKIE_NAME, isCookieName } from "./SessionCookie.js";

/**
 * Options of a session, on either face.
 *
 * @since 0.1.0
 * @category options
 */
export interface SessionOptions<A> {
  /** A session unused this long ends (sliding; default 24 hours). */
  readonly idleTimeout?: Duration.DurationInput;
  /** A session ends this long after it began, however active (default 7 days). */
  readonly absoluteTimeout?: Duration.DurationInput;
  /** A used session is written back at most this often (default 5 minutes). */
  readonly touchInterval?: Duration.DurationInput;
  /** The cookie's name (default `strata_session`; `__Host-strata_session` on https). */
  readonly cookieName?: string;
  /**
   * `Secure` and the `__Host-` prefix: `"auto"` (default) on https requests, as told by the
   * socket or, behind a trusted proxy, `X-Forwarded-Proto` (see `trustProxy`).
   */
  readonly secure?: boolean | "auto";
  /** Whose `X-Forwarded-Proto` to believe when `secure` is `"auto"` (default none). */
  readonly trustProxy?: TrustProxy;
  /**
   * The user a session belongs to, for "sign out everywhere" (`destroyAllFor`). By default the
   * data's `id` (a string or a number); sessions without one are not indexed by user.
   */
  readonly userId?: (data: A) => string | undefined;
}

/**
 * {@link SessionOptions} checked and with their defaults, once, at startup.
 *
 * @since 0.1.0
 * @category options
 */
export interface SessionConfig<A> {
  readonly idleMillis: number;
  readonly absoluteMillis: number;
  readonly touchMillis: number;
  readonly cookieName: string;
  /** Whether a request is on https. */
  readonly isSecure: (request: HttpServerRequest.HttpServerRequest) => boolean;
  readonly userId: (data: A) => string | undefined;
}

/** The default idle timeout: 24 hours. @since 0.1.0 @category options */
export const DEFAULT_IDLE_TIMEOUT: Duration.Duration = Duration.hours(24);
/** The default absolute lifetime: 7 days. @since 0.1.0 @category options */
export const DEFAULT_ABSOLUTE_TIMEOUT: Duration.Duration = Duration.days(7);
/** The default write-back interval: 5 minutes. @since 0.1.0 @category options */
export const DEFAULT_TOUCH_INTERVAL: Duration.Duration = Duration.minutes(5);

/**
 * The default {@link SessionOptions.userId}: the data's `id`, when it is a string or a finite
 * number.
 *
 * @since 0.1.0
 * @category options
 */
export const defaultUserId = (data: unknown): string | undefined => {
  if (typeof data !== "object" || data === null || !("id" in data)) return undefined;
  const id = (data as { readonly id: unknown }).id;
  if (typeof id === "string") return id;
  return typeof id === "number" && Number.isFinite(id) ? String(id) : undefined;
};

const millis = (
  name: string,
  value: Duration.DurationInput | undefined,
  fallback: Duration.Duration,
): Effect.Effect<number, StartupError> => {
  const decoded = Duration.decodeUnknown(value ?? fallback);
  const ms = decoded._tag === "Some" ? Duration.toMillis(decoded.value) : Number.NaN;
  return Number.isFinite(ms) && ms >= 1_000
    ? Effect.succeed(ms)
    : new StartupError({
        message: `Session: option "${name}" must be a duration of 1 second or more`,
      });
};

/**
 * Checks `options` and fills in the defaults: durations of at least a second, a write-back
 * more frequent than the idle timeout, a valid cookie name. A problem fails the start naming
 * the option.
 *
 * @since 0.1.0
 * @category options
 */
export const resolve = <A>(
  options: SessionOptions<A>,
): Effect.Effect<SessionConfig<A>, StartupError> =>
  Effect.gen(function* () {
    const idleMillis = yield* millis("idleTimeout", options.idleTimeout, DEFAULT_IDLE_TIMEOUT);
    const absoluteMillis = yield* millis(
      "absoluteTimeout",
      options.absoluteTimeout,
      DEFAULT_ABSOLUTE_TIMEOUT,
    );
    const touchMillis = yield* millis(
      "touchInterval",
      options.touchInterval,
      DEFAULT_TOUCH_INTERVAL,
    );
    if (touchMillis >= idleMillis) {
      return yield* new StartupError({
        message: `Session: "touchInterval" must be shorter than "idleTimeout", or sessions in use would expire`,
      });
    }
    const cookieName = options.cookieName ?? DEFAULT_COOKIE_NAME;
    if (!isCookieName(cookieName) || cookieName.startsWith("__")) {
      return yield* new StartupError({
        message: `Session: "cookieName" must be a cookie name without a __ prefix (Strata adds __Host- on https)`,
      });
    }
    const trust = options.trustProxy ?? false;
    const secure = options.secure ?? "auto";
    return {
      idleMillis,
      absoluteMillis,
      touchMillis,
      cookieName,
      isSecure:
        secure === "auto"
          ? (request: HttpServerRequest.HttpServerRequest) => isHttps(request, trust)
          : () => secure,
      userId: options.userId ?? defaultUserId,
    };
  });
