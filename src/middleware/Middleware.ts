import type * as HttpApp from "@effect/platform/HttpApp";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import { withErrorResponses } from "../core/ErrorResponse.js";
import { prefixMatcher, requestPath } from "./RequestInfo.js";

/**
 * An app as middleware sees it: an Effect producing the response, whatever it fails with or
 * needs (Strata's server has mapped its failures to responses already).
 *
 * @since 0.1.0
 * @category middleware
 */
export type App = HttpApp.Default<unknown, unknown>;

/**
 * An `HttpMiddleware` from a plain function of the app, without spelling out its generic
 * signature.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (f: (app: App) => App): HttpMiddleware.HttpMiddleware =>
  f as unknown as HttpMiddleware.HttpMiddleware;

/**
 * Runs middleware in order, the first listed outermost. What each one answers, failures
 * included, reaches the next (outer) one as a response in the standard error shape: a 401 from
 * an authentication middleware still gets its CORS and security headers.
 *
 * @since 0.1.0
 * @category middleware
 */
export const compose = (
  ...middleware: ReadonlyArray<HttpMiddleware.HttpMiddleware>
): HttpMiddleware.HttpMiddleware =>
  make((app) =>
    middleware.reduceRight<App>((inner, outer) => withErrorResponses(outer(inner)), app),
  );

/**
 * Applies `middleware` only to requests whose path is `prefix` or below it (on segment
 * boundaries: `/admin` covers `/admin/users`, not `/administrator`); others skip it.
 *
 * @since 0.1.0
 * @category middleware
 */
export const forPrefix = (
  prefix: string,
  middleware: HttpMiddleware.HttpMiddleware,
): HttpMiddleware.HttpMiddleware => {
  const matches = prefixMatcher(prefix);
  return make((app) => {
    const wrapped = middleware(app);
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      matches(requestPath(request)) ? wrapped : app,
    );
  });
};
