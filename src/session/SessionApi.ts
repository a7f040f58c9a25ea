/**
 * The session service's interface: what `Session` offers on the current request.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as Effect from "effect/Effect";
import type * as Option from "effect/Option";
import type { ServiceUnavailableError, UnauthorizedError } from "../http/HttpError.js";
import type { SessionTooLarge } from "./SessionTooLarge.js";

/**
 * The session of the current request, its data of type `A`. Every operation but
 * `destroyAllFor` acts on the request in context (any `HttpLayerRouter` route has one) and
 * writes the cookie on that request's response. A store that cannot answer is a 503.
 *
 * @since 0.1.0
 * @category session
 */
export interface SessionApi<A> {
  /**
   * The signed-in data, `None` without a valid session. Read once per request: a sealed cookie
   * is opened once, a server-side session fetched once. A tampered, truncated, forged, expired
   * or unknown cookie is no session, and the response clears it. A session in use is written
   * back (sliding its idle timeout) at most once per `touchInterval`.
   */
  readonly current: Effect.Effect<
    Option.Option<A>,
    ServiceUnavailableError,
    HttpServerRequest.HttpServerRequest
  >;
  /** The signed-in data; without a valid session, fails with a 401 `UnauthorizedError`. */
  readonly require: Effect.Effect<
    A,
    UnauthorizedError | ServiceUnavailableError,
    HttpServerRequest.HttpServerRequest
  >;
  /**
   * Signs in: a new session holding `data`, under a new cookie value (the session the request
   * came with, if any, is ended first: no fixation). Use it at every sign-in, for instance from
   * an OAuth success handler. Data that does not match the Schema is a defect. Data too large
   * for the sealed-cookie store fails with `SessionTooLarge` (422 `session_too_large`; nothing
   * is written). (A method, so that a `SessionApi<User>` also serves where a
   * `SessionApi<unknown>` is asked for.)
   */
  create(
    data: A,
  ): Effect.Effect<
    void,
    ServiceUnavailableError | SessionTooLarge,
    HttpServerRequest.HttpServerRequest
  >;
  /**
   * The same session under a new cookie value, the old one ended (with a server-side store a
   * copy of it stops working; a sealed cookie's copy stays valid until it expires). Call it
   * when privileges change. Its absolute lifetime still counts from sign-in. 401 without a session.
   */
  readonly rotate: Effect.Effect<
    void,
    UnauthorizedError | ServiceUnavailableError | SessionTooLarge,
    HttpServerRequest.HttpServerRequest
  >;
  /**
   * Signs out: the response clears the cookie and, with a server-side store, the session is
   * deleted so a copied cookie stops working (the cookie is cleared even when the store fails).
   */
  readonly destroy: Effect.Effect<
    void,
    ServiceUnavailableError,
    HttpServerRequest.HttpServerRequest
  >;
  /**
   * Ends every session of `userId` ("sign out everywhere"), needing no request. Server-side
   * stores delete them; the sealed-cookie store refuses them on this instance (see
   * `CookieSessionStore`). A cookie of this request is cleared at its next use.
   */
  readonly destroyAllFor: (userId: string) => Effect.Effect<void, ServiceUnavailableError>;
}
