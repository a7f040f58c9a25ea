import type * as HttpApp from "@effect/platform/HttpApp";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Context from "effect/Context";
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

/** The middleware made by {@link makeInfallible}. */
const infallible = new WeakSet<HttpMiddleware.HttpMiddleware>();

/**
 * Like {@link make}, for middleware that never fails on its own: whatever the result fails
 * with is a failure of `app`. {@link compose} then maps no failures around it (one step less
 * on every request). Strata's built-in CORS, security headers, rate limit and timeout are so.
 *
 * @since 0.1.0
 * @category middleware
 */
export const makeInfallible = (f: (app: App) => App): HttpMiddleware.HttpMiddleware => {
  const middleware = make(f);
  infallible.add(middleware);
  return middleware;
};

/**
 * Whether `middleware` was made by {@link makeInfallible} (or composed of such middleware).
 *
 * @since 0.1.0
 * @category middleware
 */
export const isInfallible = (middleware: HttpMiddleware.HttpMiddleware): boolean =>
  infallible.has(middleware);

/**
 * Runs middleware in order, the first listed outermost. What each one answers, failures
 * included, reaches the next (outer) one as a response in the standard error shape: a 401 from
 * an authentication middleware still gets its CORS and security headers. The result never
 * fails: the app's failures and those of every middleware not made by {@link makeInfallible}
 * are answered where they happen.
 *
 * @since 0.1.0
 * @category middleware
 */
export const compose = (
  ...middleware: ReadonlyArray<HttpMiddleware.HttpMiddleware>
): HttpMiddleware.HttpMiddleware =>
  makeInfallible((app) =>
    middleware.reduceRight<App>(
      (inner, outer) => (infallible.has(outer) ? outer(inner) : withErrorResponses(outer(inner))),
      withErrorResponses(app),
    ),
  );

/**
 * Runs `f` with the request being served: the same as `Effect.flatMap(HttpServerRequest
 * .HttpServerRequest, f)`, in one step instead of three (middleware runs on every request).
 *
 * @since 0.1.0
 * @category middleware
 */
export const withRequest = <A, E, R>(
  f: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiberRuntime((fiber) =>
    f(Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)),
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
  const build = infallible.has(middleware) ? makeInfallible : make;
  return build((app) => {
    const wrapped = middleware(app);
    return withRequest((request) => (matches(requestPath(request)) ? wrapped : app));
  });
};
