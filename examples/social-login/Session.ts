// The browser session: the app token in an HttpOnly, SameSite=Lax cookie (never in a URL).
import * as Cookies from "@effect/platform/Cookies";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { APP_TOKEN_SECONDS } from "./TokenService.js";

/** The session cookie's name. */
export const SESSION_COOKIE = "strata_demo_session";

const attributes = { httpOnly: true, sameSite: "lax", path: "/" } as const;

/** `response` with the session cookie set to `token`. */
export const setSession = (response: HttpServerResponse.HttpServerResponse, token: string) =>
  HttpServerResponse.unsafeSetCookie(response, SESSION_COOKIE, token, {
    ...attributes,
    maxAge: `${APP_TOKEN_SECONDS} seconds`,
  });

/** `response` with the session cookie cleared. */
export const clearSession = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.expireCookie(response, SESSION_COOKIE, attributes);

/**
 * The session cookie's value in a `Cookie` header, if any. Never throws: a value that is not
 * valid percent-encoding is returned as sent (the token check then refuses it).
 */
export const readSession = (cookieHeader: string | undefined): string | undefined => {
  if (cookieHeader === undefined || cookieHeader === "") return undefined;
  const cookies = Cookies.parseHeader(cookieHeader);
  return Object.hasOwn(cookies, SESSION_COOKIE) ? cookies[SESSION_COOKIE] : undefined;
};
