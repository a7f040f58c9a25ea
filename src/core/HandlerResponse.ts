import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { InternalServerError } from "./HttpError.js";
import { jsonResponse, stringResponse } from "./TextResponse.js";

/** The status, headers and redirect a classic handler declared with decorators. */
export interface ResponseSpec {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly redirect: { readonly url: string; readonly statusCode: number } | undefined;
}

const safeHeaderValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/** `true` when a header value cannot split a response (no CR, LF or other control bytes). */
export const isSafeHeaderValue = (value: string): boolean => safeHeaderValue.test(value);

const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `true` when `name` is a valid header name (an RFC 9110 token: no spaces, CR, LF or colons). */
export const isHeaderName = (name: string): boolean => headerToken.test(name);

const redirectOverride = (result: unknown): { url?: unknown; statusCode?: unknown } =>
  typeof result === "object" && result !== null
    ? (result as { url?: unknown; statusCode?: unknown })
    : {};

/**
 * The response for what a classic handler returned: a platform response as is; a redirect
 * when `@Redirect` is set (the result's `url`/`statusCode` override it); nothing as an empty
 * body; a string as `text/plain`; bytes as binary; anything else as JSON.
 */
export const handlerResponse = (
  result: unknown,
  spec: ResponseSpec,
): HttpServerResponse.HttpServerResponse => {
  if (HttpServerResponse.isServerResponse(result)) return result;
  if (spec.redirect !== undefined) {
    const override = redirectOverride(result);
    const url = typeof override.url === "string" ? override.url : spec.redirect.url;
    const status =
      typeof override.statusCode === "number" ? override.statusCode : spec.redirect.statusCode;
    if (!isSafeHeaderValue(url)) throw new InternalServerError();
    return HttpServerResponse.redirect(url, { status, headers: spec.headers });
  }
  if (result === undefined || result === null) {
    return HttpServerResponse.empty({ status: spec.status, headers: spec.headers });
  }
  if (typeof result === "string") {
    return stringResponse(result, "text/plain; charset=utf-8", spec.status, spec.headers);
  }
  if (result instanceof Uint8Array) {
    return HttpServerResponse.uint8Array(result, { status: spec.status, headers: spec.headers });
  }
  return jsonResponse(result, spec);
};
