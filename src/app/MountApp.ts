import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { CompiledRoute } from "../compiler/AppRoutes.js";
import { Injector } from "../di/Injector.js";
import { StartupError } from "../di/StartupError.js";
import { causeToResponse } from "../http/ErrorResponse.js";
import * as Health from "../lifecycle/Health.js";
import { HealthPaths } from "../lifecycle/HealthPaths.js";
import { probePaths } from "../lifecycle/internal/probePaths.js";
import { AppServing, type AppServingOptions, around } from "../server/AppServing.js";
import { isFastRouter } from "../server/internal/FastPath.js";
import {
  type GlobalPrefixOptions,
  globalPrefixExclusion,
  pathUnderGlobalPrefix,
} from "./GlobalPrefix.js";
import {
  MiddlewareRoutePrefix,
  MiddlewareServedRoutes,
  MiddlewareVersioning,
} from "./MiddlewareRouteContext.js";
import type { AppParts, PreparedApp } from "./PrepareApp.js";
import type { StrataAppOptions } from "./StrataAppOptions.js";

/**
 * The probes to serve. Their default paths (`/health`, `/ready`) are under the global prefix,
 * as a controller's route would be (`exclude` keeps them at the root); paths the app configured
 * are served as given. A path a GET (or `@All`) route of the app answers is the app's: that
 * probe is left out.
 */
const healthOptions = (
  health: Health.HealthOptions | false | undefined,
  routes: ReadonlyArray<CompiledRoute>,
  globalPrefix: GlobalPrefixOptions | undefined,
): Health.HealthOptions | false => {
  if (health === false) return false;
  const taken = new Set(
    routes.flatMap((r) =>
      r.handlers.filter((h) => h.method === "GET" || h.method === "*").map((h) => h.path),
    ),
  );
  const free = (path: string | false | undefined, fallback: string) => {
    const resolved = path ?? pathUnderGlobalPrefix(globalPrefix, "GET", fallback);
    return resolved === false || taken.has(resolved) ? false : resolved;
  };
  return {
    livenessPath: free(health?.livenessPath, "/health"),
    readinessPath: free(health?.readinessPath, "/ready"),
  };
};

/**
 * The app-wide middleware (classes through the Injector, in the current scope, so they are
 * released after the server has drained), with what the middleware of `configure(consumer)` and
 * the health probes must know of the app's routes.
 */
const buildGlobalMiddleware = (
  prepared: PreparedApp,
  options: StrataAppOptions,
  parts: AppParts,
  health: Health.HealthOptions | false,
) =>
  parts.middlewareManager.build(prepared.injector).pipe(
    Effect.provideService(HealthPaths, health === false ? [] : probePaths(health)),
    Effect.provideService(MiddlewareRoutePrefix, {
      prefix: options.globalPrefix?.prefix ?? "",
      excluded: globalPrefixExclusion(options.globalPrefix),
    }),
    Effect.provideService(
      MiddlewareServedRoutes,
      prepared.routes.flatMap((r) => r.handlers),
    ),
    Effect.provideService(MiddlewareVersioning, options.versioning),
  );

/** Adds the app's routes and the health probes to `router`; routes it refuses fail the startup. */
const addRoutes = (
  router: HttpLayerRouter.HttpRouter,
  prepared: PreparedApp,
  parts: AppParts,
  health: Health.HealthOptions | false,
): Effect.Effect<void, StartupError> => {
  const routes = prepared.routes.map((r) => r.route);
  return (
    router.addAll(
      health === false
        ? routes
        : [...routes, ...Health.probeRoutes(parts.healthCheckManager, health)],
    ) as Effect.Effect<void>
  ).pipe(
    // find-my-way refuses two routes that differ only in a parameter's name.
    Effect.catchAllDefect(
      (defect) =>
        new StartupError({
          message: `The routes cannot be served: ${defect instanceof Error ? defect.message : String(defect)}`,
        }),
    ),
  );
};

/**
 * The second stage, once there is a router: builds the app-wide middleware, adds the routes and
 * the health probes to the `HttpLayerRouter` in context, and says what the server must run the
 * app with.
 */
const mountApp = (
  prepared: PreparedApp,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<AppServingOptions, StartupError, Scope.Scope | HttpLayerRouter.HttpRouter> =>
  Effect.gen(function* () {
    const health = healthOptions(options.health, prepared.routes, options.globalPrefix);
    const global = yield* buildGlobalMiddleware(prepared, options, parts, health);
    const router = yield* HttpLayerRouter.HttpRouter;
    yield* addRoutes(router, prepared, parts, health);
    const middleware = around(options.middleware, global);
    // Served by another server than `StrataServer.serve` (the platform's `HttpLayerRouter.serve`),
    // which reads no `AppServing`: the failures are answered in the standard shape on the router,
    // and the middleware goes there too, seeing them as responses, as on Strata's server.
    if (!isFastRouter(router)) {
      yield* router.addGlobalMiddleware((app) => {
        // Unknown routes and defects too: the standard 404 and a bare 500, as `listen` answers.
        const answered = Effect.catchAllCause(app, causeToResponse);
        return (middleware === undefined ? answered : middleware(answered)) as typeof app;
      });
    }
    return {
      middleware,
      tracing: options.tracing,
      fiberMetrics: options.fiberMetrics,
      routerConfig: options.routerConfig,
      // Readiness is down before the server stops accepting connections.
      onStop: Effect.sync(() => parts.shutdownManager.setShuttingDown(true)),
    };
  });

/** What the app Layer provides: its Injector, and what it asks of the server. */
const contextOf = (injector: Injector, serving: AppServingOptions) =>
  Context.add(Context.make(Injector, injector), AppServing, serving);

/**
 * {@link mountApp}, giving what the app Layer provides: its Injector, and the
 * {@link AppServing} the server reads (`StrataApp.listen` runs it after `init`).
 */
export const mountContext = (
  prepared: PreparedApp,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<
  Context.Context<Injector | AppServing>,
  StartupError,
  Scope.Scope | HttpLayerRouter.HttpRouter
> =>
  Effect.map(mountApp(prepared, options, parts), (serving) =>
    contextOf(prepared.injector, serving),
  );
