// The browser session: the app token in an HttpOnly, SameSite=Lax cookie (never in a URL).
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

/** The session token of a `Cookie` header, if any. */
export const readSession = (cookieHeader: string | undefined): string | undefined => {
  for (const pair of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = pair.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join("="));
  }
  return undefined;
};
