import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as NodeStream from "@effect/platform-node/NodeStream";
import { InternalServerError } from "./HttpError.js";
import { StreamableFile } from "./StreamableFile.js";
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
 * The response of a {@link StreamableFile}: its bytes, or its stream with backpressure, under its
 * type, disposition and length (a `@Header()` of the same name wins). A value with CR or LF is a
 * 500, never a split response.
 */
const fileResponse = (
  file: StreamableFile,
  spec: ResponseSpec,
): HttpServerResponse.HttpServerResponse => {
  const { type, disposition, length } = file.getHeaders();
  const { "content-type": declaredType, ...declared } = spec.headers ?? {};
  const headers: Record<string, string> = {};
  if (disposition !== undefined) headers["content-disposition"] = disposition;
  const bytes = file.getBytes();
  if (bytes === undefined && length !== undefined) headers["content-length"] = String(length);
  Object.assign(headers, declared);
  const contentType = declaredType ?? type;
  if (!isSafeHeaderValue(contentType) || !isSafeHeaderValue(disposition ?? "")) {
    throw new InternalServerError();
  }
  const options = { status: spec.status, headers, contentType };
  if (bytes !== undefined) return HttpServerResponse.uint8Array(bytes, options);
  return HttpServerResponse.stream(
    NodeStream.fromReadable(
      () => file.getStream(),
      (error) => error,
    ),
    options,
  );
};

/**
 * The response for what a classic handler returned: a platform response as is; a redirect
 * when `@Redirect` is set (the result's `url`/`statusCode` override it); nothing as an empty
 * body; a string as `text/plain`; bytes as binary; a {@link StreamableFile} as its content;
 * anything else as JSON.
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
  if (result instanceof StreamableFile) return fileResponse(result, spec);
  return jsonResponse(result, spec);
};
