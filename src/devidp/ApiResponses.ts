/**
 * Small helpers of the dialects' JSON endpoints: the bearer token of a request and JSON
 * answers that are never cached.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";

/**
 * The access token of `Authorization: Bearer <token>` (scheme case-insensitive; `schemes`
 * adds others, e.g. github's `token`).
 *
 * @since 0.1.0
 * @category api
 */
export const bearerToken = (
  request: HttpServerRequest.HttpServerRequest,
  schemes: ReadonlyArray<string> = ["bearer"],
): string | undefined => {
  const match = /^(\S+)\s+(\S+)\s*$/.exec(request.headers.authorization ?? "");
  return match?.[1] !== undefined && schemes.includes(match[1].toLowerCase())
    ? match[2]
    : undefined;
};

/**
 * A JSON answer with `Cache-Control: no-store` (token and profile answers).
 *
 * @since 0.1.0
 * @category api
 */
export const jsonAnswer = (
  body: unknown,
  status = 200,
  headers: Readonly<Record<string, string>> = {},
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(body, {
    status,
    headers: { "cache-control": "no-store", pragma: "no-cache", ...headers },
  });
