/**
 * The transaction cookie (SECURITY.md 13): `HttpOnly; SameSite=Lax; Path=/; Max-Age=600`, plus
 * `Secure` and the `__Host-` prefix on https. Lax, not Strict: the callback is a cross-site
 * top-level GET.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Option from "effect/Option";
import { TRANSACTION_TTL } from "./OAuthTransaction.js";

/** The cookie name on plain http. @since 0.1.0 @category cookie */
export const COOKIE_NAME = "strata_oauth";

/** The cookie name on https: the `__Host-` prefix pins it to this host and `Path=/`. @since 0.1.0 @category cookie */
export const SECURE_COOKIE_NAME = `__Host-${COOKIE_NAME}`;

/** The transaction cookie's name. @since 0.1.0 @category cookie */
export const cookieName = (secure: boolean): string => (secure ? SECURE_COOKIE_NAME : COOKIE_NAME);

const attributes = (secure: boolean) =>
  ({ httpOnly: true, sameSite: "lax", path: "/", secure }) as const;

/**
 * `response` with the transaction cookie set to `value` for 10 minutes.
 *
 * @since 0.1.0
 * @category cookie
 */
export const setTransactionCookie = (
  response: HttpServerResponse.HttpServerResponse,
  value: string,
  secure: boolean,
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeSetCookie(response, cookieName(secure), value, {
    ...attributes(secure),
    maxAge: TRANSACTION_TTL,
  });

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
