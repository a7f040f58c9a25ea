import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import type { Injector } from "../di/Injector.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import { ROUTES, type Routes, routerModulePrefixes } from "../di/RouterModule.js";
import { StartupError } from "../di/StartupError.js";
import { DEFAULT_JSON_DEPTH_LIMIT } from "../http/JsonDepth.js";
import { type BodyType, bodyLimitByType, DEFAULT_BODY_LIMIT } from "../http/RequestBody.js";
import type { CanActivate, GuardLike } from "../pipeline/CanActivate.js";
import type { ExceptionFilter, FilterLike } from "../pipeline/ExceptionFilter.js";
import type { Interceptor, InterceptorLike } from "../pipeline/Interceptor.js";
import { type EnhancerRef, enhancerResolver, providerRef } from "../pipeline/internal/enhancers.js";
import { versionedRoutes } from "../pipeline/internal/versionedRoutes.js";
import type { PipeLike, PipeTransform } from "../pipeline/PipeTransform.js";
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from "../pipeline/Uploads.js";
import { VERSION_NEUTRAL, type VersioningOptions } from "../pipeline/Versioning.js";
import { ValidationPipe } from "../pipes/ValidationPipe.js";
import { type ControllerHandler, controllerRoutes } from "./ControllerRoutes.js";

/**
 * The app-wide request pipeline: guards, pipes, interceptors and filters applied to every
 * controller route (instances, or classes the app creates through dependency injection),
 * versioning, and upload limits.
 *
 * @since 0.1.0
 * @category app
 */
export interface PipelineOptions {
  /** Run before every route's own guards. */
  readonly globalGuards?: ReadonlyArray<GuardLike>;
  /** Run first on every body, query, path-parameter and file argument. */
  readonly globalPipes?: ReadonlyArray<PipeLike>;
  /** The outermost interceptors of every route. */
  readonly globalInterceptors?: ReadonlyArray<InterceptorLike>;
  /** Consulted after a route's method and controller filters. */
  readonly globalFilters?: ReadonlyArray<FilterLike>;
  /** Routes requests by API version (off by default). */
  readonly versioning?: VersioningOptions;
  /** Limits of `multipart/form-data` uploads (defaults: 10 MB a file, 10 files, 100 fields). */
  readonly uploads?: UploadLimits;
}

/** What compiling the routes of an app needs. */
export interface AppRouteOptions extends PipelineOptions {
  readonly bodyLimit?: number;
  /** Limits by body type, over `bodyLimit` (NestJS's `app.useBodyParser(type, { limit })`). */
  readonly bodyLimits?: Partial<Readonly<Record<BodyType, number>>>;
  readonly jsonDepthLimit?: number;
  /** Keep each body's bytes as `req.rawBody`. */
  readonly rawBody?: boolean;
}

/**
 * A route as the app lists it: method, path (with its URI version, if any), controller,
 * handler method, and the version it answers (`undefined` when version-neutral).
 *
 * @since 0.1.0
 * @category app
 */
export interface RouteInfo {
  readonly method: string;
  readonly path: string;
  readonly controller: string;
  readonly handler: string;
  readonly version?: string;
}

/** A platform route and the handlers it serves (several when versions share a path). */
export interface CompiledRoute {
  readonly route: HttpLayerRouter.Route<unknown, never>;
  readonly handlers: ReadonlyArray<RouteInfo>;
}

/**
 * Compiles every controller of an app into platform routes, once, at startup: the global
 * enhancers are resolved (each class created once), each controller is compiled, and the
 * handlers are grouped by version.
 */
export const appRoutes = (
  controllers: ReadonlyArray<ProviderNode>,
  injector: Injector,
  options: AppRouteOptions,
): Effect.Effect<ReadonlyArray<CompiledRoute>, StartupError> =>
  Effect.gen(function* () {
    const resolve = enhancerResolver(injector);
    // The enhancers modules provide with APP_GUARD & co. come first (NestJS applies them when
    // the app is created, before `useGlobalGuards`), then those of the options.
    const resolveAll = <T>(
      provided: ReadonlyArray<ProviderNode>,
      items: ReadonlyArray<T | Function> | undefined,
      where: string,
    ) =>
      Effect.zipWith(
        Effect.forEach(provided, (node) =>
          Effect.mapError(
            providerRef(injector, node) as Effect.Effect<EnhancerRef<T>, unknown>,
            (cause) => new StartupError({ message: `Cannot create ${node.name}`, cause }),
          ),
        ),
        Effect.forEach(items ?? [], (item) => resolve(item as T, where)),
        (fromModules, fromOptions) => [...fromModules, ...fromOptions],
      );
    const app = injector.globalEnhancers;
    const globals = {
      guards: yield* resolveAll<CanActivate>(app.guards, options.globalGuards, "a global guard"),
      interceptors: yield* resolveAll<Interceptor>(
        app.interceptors,
        options.globalInterceptors,
        "a global interceptor",
      ),
      filters: yield* resolveAll<ExceptionFilter<unknown>>(
        app.filters,
        options.globalFilters,
        "a global filter",
      ),
      pipes: yield* resolveAll<PipeTransform>(app.pipes, options.globalPipes, "a global pipe"),
    };
    // RouterModule.register(...): the prefix of each module's controllers, fixed here.
    const registered = injector.moduleRef.get<Routes>(ROUTES, { each: true });
    const prefixes = registered.length === 0 ? undefined : routerModulePrefixes(registered);
    const compileOptions = {
      modulePrefix: (node: ProviderNode) => prefixes?.get(node.module.cls) ?? "",
      bodyLimit: bodyLimitByType(options.bodyLimit ?? DEFAULT_BODY_LIMIT, options.bodyLimits),
      jsonDepthLimit: options.jsonDepthLimit ?? DEFAULT_JSON_DEPTH_LIMIT,
      rawBody: options.rawBody === true,
      uploadLimits: { ...DEFAULT_UPLOAD_LIMITS, ...options.uploads },
      globals,
      resolve,
      validation: new ValidationPipe(),
    };
    const handlers: ReadonlyArray<ControllerHandler> = (yield* Effect.forEach(controllers, (node) =>
      controllerRoutes(node, injector, compileOptions),
    )).flat();
    const routes = versionedRoutes(options.versioning, handlers);
    if (Either.isLeft(routes)) return yield* new StartupError({ message: routes.left });
    return routes.right.map(
      (versioned): CompiledRoute => ({
        route: versioned.route as HttpLayerRouter.Route<unknown, never>,
        handlers: versioned.entries.map((entry) => {
          const { controller, handlerName } = entry as ControllerHandler;
          const version = entry.versions[0];
          return {
            method: entry.method,
            path: versioned.path,
            controller,
            handler: handlerName,
            ...(version === undefined || version === VERSION_NEUTRAL ? {} : { version }),
          };
        }),
      }),
    );
  });
