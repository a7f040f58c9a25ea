/**
 * The transaction cookie (SECURITY.md 13): `HttpOnly; SameSite=Lax; Path=/; Max-Age=600`, plus
 * `Secure` and the `__Host-` prefix on https. Lax, not Strict: the callback is a cross-site
 * top-level GET.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Duration from "effect/Duration";
import * as Option from "effect/Option";
import { TRANSACTION_TTL } from "./OAuthTransaction.js";
import { signInCookie, signInCookieName } from "./SignInCookie.js";

/** The cookie name on plain http. @since 0.1.0 @category cookie */
export const COOKIE_NAME = "strata_oauth";

/** The cookie name on https: the `__Host-` prefix pins it to this host and `Path=/`. @since 0.1.0 @category cookie */
export const SECURE_COOKIE_NAME = `__Host-${COOKIE_NAME}`;

/** The transaction cookie's name. @since 0.1.0 @category cookie */
export const cookieName = (secure: boolean): string => signInCookieName(COOKIE_NAME, secure);

const attributes = (secure: boolean) =>
  ({ httpOnly: true, sameSite: "lax", path: "/", secure }) as const;

/** Cookie values that need no encoding (every built-in store's values are such). */
const cookieSafe = /^[A-Za-z0-9._~-]*$/;

const maxAge = Math.trunc(Duration.toSeconds(TRANSACTION_TTL));

/**
 * The `Set-Cookie` header value keeping `value` for 10 minutes (encoded as
 * `encodeURIComponent` would when it is not cookie-safe), as the platform's cookie
 * serializer writes it.
 *
 * @since 0.1.0
 * @category cookie
 */
export const transactionCookie = (value: string, secure: boolean): string =>
  signInCookie(
    COOKIE_NAME,
    cookieSafe.test(value) ? value : encodeURIComponent(value),
    maxAge,
    secure,
  );

/**
 * `response` with the transaction cookie set to `value` for 10 minutes (see
 * {@link transactionCookie}). It is the response's raw `set-cookie` header, replacing any
 * other raw one; cookies set through the platform's `Cookies` API are kept beside it.
 *
 * @since 0.1.0
 * @category cookie
 */
export const setTransactionCookie = (
  response: HttpServerResponse.HttpServerResponse,
  value: string,
  secure: boolean,
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setHeader(response, "set-cookie", transactionCookie(value, secure));

/**
 * `response` with the transaction cookie cleared (`Max-Age=0`, same attributes).
 *
 * @since 0.1.0
 * @category cookie
 */
export const clearTransactionCookie = (
  response: HttpServerResponse.HttpServerResponse,
  secure: boolean,
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.expireCookie(response, cookieName(secure), attributes(secure));

/**
 * The transaction cookie of a request. On https only the `__Host-` cookie counts, so a cookie
 * planted by a sibling subdomain is never read.
 *
 * @since 0.1.0
 * @category cookie
 */
export const readTransactionCookie = (
  request: HttpServerRequest.HttpServerRequest,
  secure: boolean,
): Option.Option<string> => {
  const value = request.cookies[cookieName(secure)];
  return typeof value === "string" && value !== "" ? Option.some(value) : Option.none();
};
