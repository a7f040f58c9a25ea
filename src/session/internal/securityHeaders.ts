/**
 * The headers of every sign-in, callback, session and logout response: never cached, never
 * sent on as a referrer (their URLs and bodies are the user's).
 *
 * @since 0.1.0
 */
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { setResponseHeaders } from "../../server/internal/FastPath.js";

/** `Cache-Control: no-store` and `Referrer-Policy: no-referrer`. */
export const securityHeaders = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
} as const;

/** `response` with {@link securityHeaders}. */
export const secured = (
  response: HttpServerResponse.HttpServerResponse,
): HttpServerResponse.HttpServerResponse => setResponseHeaders(response, securityHeaders);
