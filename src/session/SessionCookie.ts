/**
 * The session cookie (SECURITY.md 26): `HttpOnly; SameSite=Lax; Path=/`, no `Domain`, plus
 * `Secure` and the `__Host-` prefix on https. Lax, not Strict: a user following a link to the
 * app from elsewhere arrives signed in; cross-site writes are for CSRF protection to refuse.
 *
 * @since 0.1.0
 */
import * as Cookies from "@effect/platform/Cookies";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";

/** The default cookie name (`__Host-strata_session` on https). @since 0.1.0 @category cookie */
export const DEFAULT_COOKIE_NAME = "strata_session";

/**
 * What a response does to the session cookie: set it to a value for `maxAge` seconds, or
 * clear it.
 *
 * @since 0.1.0
 * @category cookie
 */
export type CookieWrite =
  | { readonly _tag: "Set"; readonly value: string; readonly maxAge: number }
  | { readonly _tag: "Clear" };

/**
 * The session cookie of one app, on http and on https: named `baseName`, or `__Host-baseName`
 * when `secure`.
 *
 * @since 0.1.0
 * @category cookie
 */
export interface SessionCookie {
  /** The cookie a request carries; on https only the `__Host-` one counts. */
  readonly read: (
    request: HttpServerRequest.HttpServerRequest,
    secure: boolean,
  ) => string | undefined;
  /** `response` with `write` applied (through the platform's cookies, beside any others). */
  readonly apply: (
    response: HttpServerResponse.HttpServerResponse,
    write: CookieWrite,
    secure: boolean,
  ) => HttpServerResponse.HttpServerResponse;
  /** The `Set-Cookie` header value of `write`. */
  readonly header: (write: CookieWrite, secure: boolean) => string;
}

/** Cookie names RFC 6265 allows (a token), so that a bad one fails the start. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `true` when `name` may name a cookie. @since 0.1.0 @category cookie */
export const isCookieName = (name: string): boolean => TOKEN.test(name);

const options = (secure: boolean, maxAge: number): Cookies.Cookie["options"] => ({
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure,
  maxAge: `${maxAge} seconds`,
});

/**
 * The session cookie named `baseName` (a valid cookie name, checked by the caller).
 *
 * @since 0.1.0
 * @category cookie
 */
export const make = (baseName: string): SessionCookie => {
  const secureName = `__Host-${baseName}`;
  const name = (secure: boolean) => (secure ? secureName : baseName);
  const cookie = (write: CookieWrite, secure: boolean) =>
    write._tag === "Set"
      ? Cookies.unsafeMakeCookie(name(secure), write.value, options(secure, write.maxAge))
      : Cookies.unsafeMakeCookie(name(secure), "", options(secure, 0));
  return {
    read: (request, secure) => {
      const value = request.cookies[name(secure)];
      return typeof value === "string" && value !== "" ? value : undefined;
    },
    apply: (response, write, secure) =>
      HttpServerResponse.updateCookies(response, Cookies.setCookie(cookie(write, secure))),
    header: (write, secure) => Cookies.serializeCookie(cookie(write, secure)),
  };
};
