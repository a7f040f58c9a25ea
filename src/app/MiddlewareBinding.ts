import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Injector } from "../di/Injector.js";
import { StartupError } from "../di/StartupError.js";
import type { Type } from "../di/Token.js";
import * as Middleware from "../middleware/Middleware.js";
import {
  fromNestMiddleware,
  type NestMiddleware,
  type NestMiddlewareFunction,
} from "../middleware/NestMiddleware.js";
import { requestPath } from "../middleware/RequestInfo.js";
import { fromStrataMiddleware } from "../middleware/StrataMiddleware.js";
import { enhancerResolver } from "../pipeline/internal/enhancers.js";
import type { VersioningOptions } from "../pipeline/Versioning.js";
import {
  MiddlewareRoutePrefix,
  MiddlewareServedRoutes,
  MiddlewareVersioning,
  type RoutePrefix,
  type ServedRoute,
} from "./MiddlewareRouteContext.js";
import { type CompiledMatcher, compile, type Matcher, matches } from "./MiddlewareRouteMatcher.js";

/** What `apply(...)` takes: a `NestMiddleware` class or a functional middleware. */
export type NestMiddlewareLike = Type<NestMiddleware> | NestMiddlewareFunction;

/** One `apply(...).exclude(...).forRoutes(...)`. */
export interface Binding {
  readonly middleware: ReadonlyArray<NestMiddlewareLike>;
  readonly routes: ReadonlyArray<Matcher>;
  readonly excluded: ReadonlyArray<Matcher>;
}

/** Where the middleware of `configure(consumer)` are matched: what the app provides. */
interface RouteContext {
  readonly prefix: RoutePrefix;
  readonly served: ReadonlyArray<ServedRoute>;
  readonly versioning: VersioningOptions | undefined;
}

type Resolve = ReturnType<typeof enhancerResolver>;

/** A functional middleware as is; a class's instance, created once through dependency injection. */
const middlewareOf = (resolve: Resolve, mw: NestMiddlewareLike, where: string) => {
  if (typeof (mw.prototype as Partial<NestMiddleware> | undefined)?.use !== "function") {
    return Effect.succeed(fromStrataMiddleware(fromNestMiddleware(mw as NestMiddlewareFunction)));
  }
  return Effect.flatMap(
    Effect.mapError(resolve<unknown>(mw, where), (cause) =>
      cause instanceof StartupError
        ? cause
        : new StartupError({ message: `Cannot create ${where}`, cause }),
    ),
    (ref) => {
      if (ref._tag !== "Instance") {
        return new StartupError({
          message: `${where} cannot be request-scoped: middleware is created once per app`,
        });
      }
      const instance = ref.instance as NestMiddleware;
      return Effect.succeed(fromStrataMiddleware(fromNestMiddleware(instance.use, instance)));
    },
  );
};

/** `middleware`, run only for requests `routes` match and `excluded` do not; decided per request. */
const routed = (
  middleware: HttpMiddleware.HttpMiddleware,
  routes: ReadonlyArray<CompiledMatcher>,
  excluded: ReadonlyArray<CompiledMatcher>,
): HttpMiddleware.HttpMiddleware =>
  Middleware.make((app) => {
    const wrapped = middleware(app);
    return Middleware.withRequest((request) => {
      const path = requestPath(request);
      return matches(routes, request.method, path) && !matches(excluded, request.method, path)
        ? wrapped
        : app;
    });
  });

/** One binding's middleware, composed, running only for its routes. */
const bindingMiddleware = (
  resolve: Resolve,
  { prefix, served, versioning }: RouteContext,
  recorded: Binding,
) =>
  Effect.map(
    Effect.forEach(recorded.middleware, (mw, index) =>
      middlewareOf(
        resolve,
        mw,
        `middleware ${mw.name === "" ? `#${index + 1}` : mw.name} of configure()`,
      ),
    ),
    (list): HttpMiddleware.HttpMiddleware =>
      routed(
        Middleware.compose(...list),
        recorded.routes.flatMap((m) => compile(m, prefix, served, versioning)),
        recorded.excluded.flatMap((m) => compile(m, prefix, served, versioning)),
      ),
  );

/**
 * The recorded bindings as one `HttpMiddleware` (classes created through dependency
 * injection), each running only for its routes; decided per request by method and path.
 */
export const buildBindings = (
  bindings: ReadonlyArray<Binding>,
  injector: Injector,
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> => {
  const resolve = enhancerResolver(injector);
  return Effect.flatMap(
    Effect.all([MiddlewareRoutePrefix, MiddlewareServedRoutes, MiddlewareVersioning]),
    ([prefix, served, versioning]) =>
      Effect.map(
        Effect.forEach(bindings, (recorded) =>
          bindingMiddleware(resolve, { prefix, served, versioning }, recorded),
        ),
        (list) => Middleware.compose(...list),
      ),
  );
};
