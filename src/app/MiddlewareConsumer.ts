import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { type ControllerMetadata } from "../decorators/Controller.js";
import type { Injector } from "../di/Injector.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { StartupError } from "../di/StartupError.js";
import type { Type } from "../di/Token.js";
import { methodName, type RequestMethod } from "../http/RequestMethod.js";
import { fromUserCode } from "../http/UserCode.js";
import { EffectMiddleware } from "../middleware/EffectMiddleware.js";
import * as Middleware from "../middleware/Middleware.js";
import {
  fromNestMiddleware,
  type NestMiddleware,
  type NestMiddlewareFunction,
} from "../middleware/NestMiddleware.js";
import { requestPath } from "../middleware/RequestInfo.js";
import { fromStrataMiddleware } from "../middleware/StrataMiddleware.js";
import { enhancerResolver } from "../pipeline/internal/enhancers.js";
import { versionList } from "../pipeline/internal/versionedRoutes.js";
import {
  VERSION_NEUTRAL,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionValue,
} from "../pipeline/Versioning.js";

/**
 * A route of `forRoutes`/`exclude`: a path (`"cats"`, `"cats/(.*)"`, `"cats/:id"`), a method,
 * and optionally the version(s) it is for: under URI versioning the path is then matched after
 * the version segment (`/v1/cats`), as in NestJS.
 */
export interface RouteInfo {
  readonly path: string;
  readonly method: RequestMethod;
  readonly version?: VersionValue;
}

/** What `apply(...)` takes: a `NestMiddleware` class or a functional middleware. */
export type NestMiddlewareLike = Type<NestMiddleware> | NestMiddlewareFunction;

/**
 * The app's global prefix (`setGlobalPrefix`) as the middleware of `configure(consumer)` see it:
 * their paths are matched under it, as in NestJS, but those its `exclude` names (with the same
 * method, or any) and wildcards of every path (`*`, `(.*)`), matched as given.
 * The app provides it when it builds its middleware, which is after `setGlobalPrefix`.
 */
export class MiddlewareRoutePrefix extends Context.Reference<MiddlewareRoutePrefix>()(
  "effect-strata/app/MiddlewareRoutePrefix",
  { defaultValue: (): RoutePrefix => ({ prefix: "", excluded: () => false }) },
) {}

/** The global prefix, and whether its `exclude` names a route of a method (any: `undefined`) and path. */
export interface RoutePrefix {
  readonly prefix: string;
  readonly excluded: (method: string | undefined, path: string) => boolean;
}

/** A route the app serves, as `forRoutes(SomeController)` matches it. */
export interface ServedRoute {
  /** The name of the controller class. */
  readonly controller: string;
  /** `GET`, ..., or `*` for any method. */
  readonly method: string;
  /** The path served (global prefix, `RouterModule` path and URI version included). */
  readonly path: string;
}

/**
 * The routes the app serves, as the middleware of `configure(consumer)` see them:
 * `forRoutes(SomeController)` runs for exactly the routes of that controller, wherever the
 * global prefix, `RouterModule` and URI versioning put them (as in NestJS). The app provides
 * them when it builds its middleware, after compiling its routes.
 */
export class MiddlewareServedRoutes extends Context.Reference<MiddlewareServedRoutes>()(
  "effect-strata/app/MiddlewareServedRoutes",
  { defaultValue: (): ReadonlyArray<ServedRoute> => [] },
) {}

/** A controller of `forRoutes`: its routes are known once the app's are compiled. */
interface ControllerMatcher {
  readonly controller: string;
}

/**
 * The app's versioning as the middleware of `configure(consumer)` see it: a `forRoutes` route
 * with a `version` is matched under its URI version segment. The app provides it when it builds
 * its middleware.
 */
export class MiddlewareVersioning extends Context.Reference<MiddlewareVersioning>()(
  "effect-strata/app/MiddlewareVersioning",
  { defaultValue: (): VersioningOptions | undefined => undefined },
) {}

/** A route pattern of `forRoutes`/`exclude`, compiled once the global prefix is known. */
interface PathMatcher {
  /** The path as a regex source, without the leading `/`. */
  readonly body: string;
  /** The path as given (what the global prefix's `exclude` is matched against). */
  readonly path: string;
  /** Paths under it match too (Express's `app.use`). */
  readonly under: boolean;
  readonly method: string | undefined;
  /** The versions of a `{ path, version }` route. */
  readonly versions?: ReadonlyArray<VersionId>;
}

type Matcher = PathMatcher | ControllerMatcher;

/** A compiled route pattern. */
interface CompiledMatcher {
  readonly path: RegExp;
  readonly method: string | undefined;
}

/** A path pattern (`cats/:id/(.*)`) as a regex source, slashes trimmed: `:param` one segment, `(.*)` or `*` any rest. */
const escaped = (path: string): string =>
  path
    .replace(/^\/+|\/+$/g, "")
    .split("/")
    .map((segment) =>
      segment
        .split(/\(\.\*\)|\*/)
        .map((part) => part.replace(/[.+?^${}|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+"))
        .join(".*"),
    )
    .join("/");

/**
 * `cats/:id/(.*)` as a regex, under the global prefix, as NestJS mounts middleware: not for a
 * path its `exclude` names, nor for a wildcard of every path (`*`, `(.*)`).
 */
const compilePath = (m: PathMatcher, { prefix, excluded }: RoutePrefix): CompiledMatcher => {
  const unprefixed = prefix === "" || m.body === ".*" || excluded(m.method, m.path);
  const under = unprefixed ? "" : `/${escaped(prefix)}`;
  return {
    path: new RegExp(`^${under}/${m.body}${m.under ? "(?:/.*)?" : ""}/?$`, "i"),
    method: m.method,
  };
};

/** Where the app serves the routes of `m`: after each version's segment, under URI versioning. */
const versioned = (m: PathMatcher, versioning: VersioningOptions | undefined) =>
  m.versions === undefined || versioning?.type !== VersioningType.URI
    ? [m]
    : m.versions.map((version) =>
        version === VERSION_NEUTRAL
          ? m
          : { ...m, body: `${escaped(`${versioning.prefix ?? "v"}${version}`)}/${m.body}` },
      );

/**
 * The patterns of `m`: a path's under the global prefix (after its version segment), a
 * controller's its served routes, each path whole.
 */
const compile = (
  m: Matcher,
  prefix: RoutePrefix,
  served: ReadonlyArray<ServedRoute>,
  versioning: VersioningOptions | undefined,
): ReadonlyArray<CompiledMatcher> => {
  if ("body" in m) return versioned(m, versioning).map((one) => compilePath(one, prefix));
  return served
    .filter((route) => route.controller === m.controller)
    .map((route) =>
      compilePath(
        {
          body: escaped(route.path),
          path: route.path,
          under: false,
          method: route.method === "*" ? undefined : route.method,
        },
        { prefix: "", excluded: () => false },
      ),
    );
};

const matcher = (route: string | RouteInfo | Function, under: boolean): Matcher => {
  if (typeof route === "string") {
    return { body: escaped(route), path: route, under, method: undefined };
  }
  if (typeof route === "function") {
    const controller = readMetadata<ControllerMetadata>(MetadataKey.controller, route);
    if (controller === undefined) {
      throw new StartupError({
        message: `forRoutes(${route.name}): ${route.name} is neither a path nor a @Controller() class`,
      });
    }
    return { controller: route.name };
  }
  const method = methodName(route.method);
  return {
    body: escaped(route.path),
    path: route.path,
    // Express mounts a route of one method (`app.get(path)`) on its path only, of any (`app.use`) under it too.
    under: under && method === undefined,
    method,
    ...(route.version === undefined ? {} : { versions: versionList(route.version) }),
  };
};

const matches = (list: ReadonlyArray<CompiledMatcher>, method: string, path: string): boolean =>
  list.some((m) => (m.method === undefined || m.method === method) && m.path.test(path));

/** One `apply(...).exclude(...).forRoutes(...)`. */
interface Binding {
  readonly middleware: ReadonlyArray<NestMiddlewareLike>;
  readonly routes: ReadonlyArray<Matcher>;
  readonly excluded: ReadonlyArray<Matcher>;
}

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
    const resolve = enhancerResolver(injector);
    const one = (mw: NestMiddlewareLike, where: string) => {
      if (typeof (mw.prototype as Partial<NestMiddleware> | undefined)?.use !== "function") {
        return Effect.succeed(
          fromStrataMiddleware(fromNestMiddleware(mw as NestMiddlewareFunction)),
        );
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
    const binding =
      (
        prefix: RoutePrefix,
        served: ReadonlyArray<ServedRoute>,
        versioning: VersioningOptions | undefined,
      ) =>
      (recorded: Binding) =>
        Effect.map(
          Effect.forEach(recorded.middleware, (mw, index) =>
            one(mw, `middleware ${mw.name === "" ? `#${index + 1}` : mw.name} of configure()`),
          ),
          (list): HttpMiddleware.HttpMiddleware => {
            const composed = Middleware.compose(...list);
            const routes = recorded.routes.flatMap((m) => compile(m, prefix, served, versioning));
            const excluded = recorded.excluded.flatMap((m) =>
              compile(m, prefix, served, versioning),
            );
            return Middleware.make((app) => {
              const wrapped = composed(app);
              return Middleware.withRequest((request) => {
                const path = requestPath(request);
                return matches(routes, request.method, path) &&
                  !matches(excluded, request.method, path)
                  ? wrapped
                  : app;
              });
            });
          },
        );
    return Effect.flatMap(
      Effect.all([MiddlewareRoutePrefix, MiddlewareServedRoutes, MiddlewareVersioning]),
      ([prefix, served, versioning]) =>
        Effect.map(Effect.forEach(this.bindings, binding(prefix, served, versioning)), (list) =>
          Middleware.compose(...list),
        ),
    );
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

/**
 * Calls every module's `configure(consumer)` (imports first), once, at startup; the middleware
 * they apply, as one app-wide middleware, or `undefined` when none applies any.
 */
export const configureModules = (
  modules: ReadonlyArray<unknown>,
  injector: Injector,
): Effect.Effect<EffectMiddleware | undefined, StartupError> => {
  const consumer = new RecordingMiddlewareConsumer();
  return Effect.as(
    Effect.forEach(
      modules,
      (module) => {
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
      },
      { discard: true },
    ),
    undefined,
  ).pipe(
    Effect.map(() => (consumer.isEmpty ? undefined : new ConfiguredMiddleware(consumer, injector))),
  );
};
