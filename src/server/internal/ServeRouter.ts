import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerError from "@effect/platform/HttpServerError";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { causeToResponse, errorResponse } from "../../http/ErrorResponse.js";
import { BadRequestError, NotFoundError } from "../../http/HttpError.js";
import { canonicalTarget } from "../../http/RequestTarget.js";
import { outermostForms } from "./DecoratedRun.js";
import { withFastApp } from "./FastApp.js";
import * as FastRouter from "./FastRouter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";
import type { ServeOptions } from "./ServeOptions.js";

const notFound = errorResponse(new NotFoundError());

/** Runs `middleware` around `handler`, whose failures it sees mapped to responses. */
const wrapWith =
  (middleware: HttpMiddleware.HttpMiddleware | undefined) =>
  <E, R>(
    handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R> =>
    middleware === undefined
      ? handler
      : (middleware(Effect.catchAllCause(handler, causeToResponse)) as Effect.Effect<
          HttpServerResponse.HttpServerResponse,
          unknown,
          R
        >);

/** {@link wrapWith}, with the middleware's own failures mapped to responses too. */
const handleWith =
  (middleware: HttpMiddleware.HttpMiddleware | undefined) =>
  <E, R>(
    handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
    Effect.catchAllCause(wrapWith(middleware)(handler), causeToResponse);

/**
 * The router `serve` adds routes to: Strata's `FastRouter`, with `options.routerConfig`. It is
 * handed canonical targets (see `canonicalTarget`), whose repeated slashes are already collapsed
 * in the path alone: its own collapsing, which runs over the query too, stays off.
 */
export const makeRouter = (options: ServeOptions): Effect.Effect<HttpLayerRouter.HttpRouter> =>
  Effect.provideService(FastRouter.make, HttpLayerRouter.RouterConfig, {
    ignoreTrailingSlash: true,
    ...options.routerConfig,
    ignoreDuplicateSlashes: false,
  });

/**
 * Runs `app` on the request with its target in canonical form, or fails with a 400 for a target
 * with no single meaning (SECURITY.md check 35). On Strata's server the target already is
 * canonical (unless middleware gave the request another one); other servers hand over the raw one.
 */
const withCanonicalTarget = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  E | BadRequestError,
  R | HttpServerRequest.HttpServerRequest
> =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request): Effect.Effect<HttpServerResponse.HttpServerResponse, E | BadRequestError, R> => {
      // Checked once: a canonical target may hold what a raw one may not (`/café`).
      if (request instanceof NodeServerRequest && request.hasCanonicalTarget()) return app;
      const url = canonicalTarget(request.url);
      if (url === undefined) return Effect.fail(new BadRequestError("Malformed request target"));
      return url === request.url
        ? app
        : Effect.provideService(app, HttpServerRequest.HttpServerRequest, request.modify({ url }));
    },
  );

/**
 * What `serve` does once the routes are added, as an Effect: serves `router` on the
 * `HttpServer` in context (tracing off unless `options.tracing`). `StrataApp` builds its server
 * with it and `makeRouter` directly, without Layers (each costs ~1 ms of startup).
 */
export const serveRouter = (
  router: HttpLayerRouter.HttpRouter,
  options: ServeOptions,
): Effect.Effect<void, never, HttpServer.HttpServer | Scope.Scope> => {
  const app = handleWith(options.middleware)(withCanonicalTarget(router.asHttpEffect()));
  // On the fast path nothing but this server runs outside `options.middleware`, so it may
  // take its outermost form (the generic path wraps `app` in the platform's handling).
  const wrap = wrapWith(
    options.middleware === undefined
      ? undefined
      : (outermostForms.get(options.middleware) ?? options.middleware),
  );
  const serving = HttpServer.serveEffect(
    FastRouter.isFastRouter(router) && options.tracing !== true
      ? withFastApp(app, {
          routes: router[FastRouter.FastRoutesId],
          fiberMetrics: options.fiberMetrics === true,
          wrap,
          bare: options.middleware === undefined,
          recover: causeToResponse,
          notFound:
            options.middleware === undefined
              ? notFound
              : wrap(
                  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
                    Effect.fail(new HttpServerError.RouteNotFound({ request })),
                  ),
                ),
        })
      : app,
  ) as Effect.Effect<void, never, HttpServer.HttpServer | Scope.Scope>;
  return options.tracing === true
    ? serving
    : Effect.locally(serving, HttpMiddleware.currentTracerDisabledWhen, () => true);
};
