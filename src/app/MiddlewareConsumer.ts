import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Injector } from "../di/Injector.js";
import { StartupError } from "../di/StartupError.js";
import { fromUserCode } from "../http/UserCode.js";
import { EffectMiddleware } from "../middleware/EffectMiddleware.js";
import { type Binding, buildBindings, type NestMiddlewareLike } from "./MiddlewareBinding.js";
import { type Matcher, matcher, type RouteInfo } from "./MiddlewareRouteMatcher.js";

export type { NestMiddlewareLike } from "./MiddlewareBinding.js";
export type { RouteInfo } from "./MiddlewareRouteMatcher.js";

/**
 * NestJS's `MiddlewareConsumer`, given to a module's `configure(consumer)` at startup:
 * `consumer.apply(LoggerMiddleware, cors()).exclude({ path: "cats", method: RequestMethod.POST })
 * .forRoutes(CatsController)`. A string path also covers the paths under it; a controller covers
 * exactly its routes (each with its method, where the global prefix, `RouterModule` and URI
 * versioning serve it); `exclude` patterns match whole paths.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface MiddlewareConsumer {
  /**
   * Starts a binding of these middleware; `forRoutes` (and `exclude`) on the result says where they
   * run.
   */
  apply(...middleware: ReadonlyArray<NestMiddlewareLike>): MiddlewareConfigProxy;
}

/** What `consumer.apply(...)` returns. @since 0.1.0 @category middleware */
export interface MiddlewareConfigProxy {
  /** Routes the middleware skips (whole-path patterns, `(.*)` or `*` for any rest). */
  exclude(...routes: ReadonlyArray<string | RouteInfo>): MiddlewareConfigProxy;
  /** Routes the middleware runs for: paths, `{ path, method }`, controller classes. */
  forRoutes(...routes: ReadonlyArray<string | RouteInfo | Function>): MiddlewareConsumer;
}

/** A {@link MiddlewareConsumer} that records what modules apply, built later by {@link build}. */
class RecordingMiddlewareConsumer implements MiddlewareConsumer {
  private readonly bindings: Array<Binding> = [];

  apply(...middleware: ReadonlyArray<NestMiddlewareLike>): MiddlewareConfigProxy {
    let excluded: ReadonlyArray<Matcher> = [];
    const proxy: MiddlewareConfigProxy = {
      exclude: (...routes) => {
        excluded = [...excluded, ...routes.map((route) => matcher(route, false))];
        return proxy;
      },
      forRoutes: (...routes) => {
        this.bindings.push({
          middleware,
          routes: routes.map((route) => matcher(route, true)),
          excluded,
        });
        return this;
      },
    };
    return proxy;
  }

  /** Whether anything was applied. */
  get isEmpty(): boolean {
    return this.bindings.length === 0;
  }

  /**
   * The recorded middleware as one `HttpMiddleware` (classes created through dependency
   * injection), each running only for its routes; decided per request by method and path.
   */
  build(
    injector: Injector,
  ): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return buildBindings(this.bindings, injector);
  }
}

/** The middleware modules applied, built when the app's middleware is (`app.use` order). */
class ConfiguredMiddleware extends EffectMiddleware {
  constructor(
    private readonly consumer: RecordingMiddlewareConsumer,
    private readonly injector: Injector,
  ) {
    super();
  }
  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return this.consumer.build(this.injector);
  }
}

/** `module.configure(consumer)`, its failure a `StartupError` naming the module. */
const configureModule = (module: unknown, consumer: MiddlewareConsumer) => {
  const configure = (module as { configure?: unknown }).configure;
  if (typeof configure !== "function") return Effect.void;
  const name = (module as object).constructor.name;
  return Effect.mapError(
    fromUserCode(() => configure.call(module, consumer)),
    (cause) =>
      cause instanceof StartupError
        ? cause
        : new StartupError({
            message: `${name}.configure(consumer) failed: ${cause instanceof Error ? cause.message : String(cause)}`,
            cause,
          }),
  );
};

/**
 * Calls every module's `configure(consumer)` (imports first), once, at startup; the middleware
 * they apply, as one app-wide middleware, or `undefined` when none applies any.
 */
export const configureModules = (
  modules: ReadonlyArray<unknown>,
  injector: Injector,
): Effect.Effect<EffectMiddleware | undefined, StartupError> => {
  const consumer = new RecordingMiddlewareConsumer();
  return Effect.map(
    Effect.forEach(modules, (module) => configureModule(module, consumer), { discard: true }),
    () => (consumer.isEmpty ? undefined : new ConfiguredMiddleware(consumer, injector)),
  );
};
