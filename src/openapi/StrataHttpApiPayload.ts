import * as HttpMethod from "@effect/platform/HttpMethod";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Multipart from "@effect/platform/Multipart";
import * as UrlParams from "@effect/platform/UrlParams";
import * as Effect from "effect/Effect";

/** The request body as the stock builder reads it for a payload Schema. */
export const requestPayload = (
  request: HttpServerRequest.HttpServerRequest,
  urlParams: unknown,
  multipartLimits: Multipart.withLimits.Options | undefined,
): Effect.Effect<unknown, unknown, unknown> => {
  if (!HttpMethod.hasBody(request.method)) return Effect.succeed(urlParams);
  const header = request.headers["content-type"];
  const contentType = header ? header.toLowerCase().trim() : "application/json";
  if (contentType.includes("application/json")) return Effect.orDie(request.json);
  if (contentType.includes("multipart/form-data")) {
    return Effect.orDie(
      multipartLimits === undefined
        ? request.multipart
        : Multipart.withLimits(request.multipart, multipartLimits),
    );
  }
  if (contentType.includes("x-www-form-urlencoded")) {
    return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord);
  }
  if (contentType.startsWith("text/")) return Effect.orDie(request.text);
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer));
};
