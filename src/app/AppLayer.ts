import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import * as HashSet from "effect/HashSet";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import type * as Scope from "effect/Scope";
import { appRoutes, type CompiledRoute } from "../compiler/AppRoutes.js";
import { Injector, makeInjector } from "../di/Injector.js";
import { compileModuleGraph, type ModuleGraph } from "../di/ModuleGraph.js";
import { inMiddlewareOrder, moduleInstances } from "../di/ModuleInstances.js";
import { providerToken } from "../di/Provider.js";
import { StartupError } from "../di/StartupError.js";
import { causeToResponse } from "../http/ErrorResponse.js";
import {
  applicationHookTargets,
  runApplicationBootstrap,
  runApplicationShutdown,
} from "../lifecycle/ApplicationHooks.js";
import * as Health from "../lifecycle/Health.js";
import { HealthCheckManager } from "../lifecycle/HealthCheckManager.js";
import { HealthPaths } from "../lifecycle/HealthPaths.js";
import { probePaths } from "../lifecycle/internal/probePaths.js";
import { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import { GlobalMiddlewareManager } from "../middleware/GlobalMiddlewareManager.js";
import { openApiRoutes } from "../openapi/AppOpenApi.js";
import { AppServing, type AppServingOptions, around } from "../server/AppServing.js";
import { isFastRouter } from "../server/internal/FastPath.js";
import {
  type GlobalPrefixOptions,
  globalPrefixExclusion,
  pathUnderGlobalPrefix,
  withGlobalPrefix,
} from "./GlobalPrefix.js";
import {
  configureModules,
  MiddlewareRoutePrefix,
  MiddlewareServedRoutes,
  MiddlewareVersioning,
} from "./MiddlewareConsumer.js";
import type { RootModule, StrataAppOptions } from "./StrataAppOptions.js";

// Routes contributed by modules ------------------------------------------------------------

/**
 * The token under which a module may provide a {@link RouteContributor}: routes that are not
 * controllers (for instance `effect-strata/oauth`'s built-in routes). Every provider registered under
 * it, in any module of the graph, adds its routes to the app.
 *
 * @since 0.1.0
 * @category app
 */
export const ROUTE_CONTRIBUTOR: unique symbol = Symbol.for("effect-strata/RouteContributor");

/**
 * Adds routes to an app, once, at startup, with the app's built {@link Injector} (so it can
 * resolve classes registered anywhere in the graph).
 *
 * @since 0.1.0
 * @category app
 */
export type RouteContributor = (
  injector: Injector,
) => Effect.Effect<ReadonlyArray<CompiledRoute>, StartupError>;

const contributedRoutes = (graph: ModuleGraph, injector: Injector) =>
  Effect.map(
    Effect.forEach(
      graph.providers.filter((node) => node.token === ROUTE_CONTRIBUTOR),
      (node) =>
        Effect.flatMap(
          Effect.mapError(
            injector.instance(node, undefined),
            (cause) =>
              new StartupError({
                message: `Cannot create the routes of ${node.module.path}`,
                cause,
              }),
          ),
          (contributor) => (contributor as RouteContributor)(injector),
        ),
    ),
    (lists) => lists.flat(),
  );

// The two stages of an app -----------------------------------------------------------------

/**
 * What an app is built with besides its options: the managers its providers and probes share,
 * its app-wide middleware, and the signal that stopped it (handed to the shutdown handlers).
 * `StrataApp` gives its own; `StrataApp.layer` makes fresh ones each time it is built.
 */
export interface AppParts {
  readonly shutdownManager: ShutdownManager;
  readonly healthCheckManager: HealthCheckManager;
  readonly middlewareManager: GlobalMiddlewareManager;
  readonly signal: () => string | undefined;
}

/** An app whose providers are built and whose routes are compiled, not yet served. */
export interface PreparedApp {
  readonly injector: Injector;
  readonly routes: ReadonlyArray<CompiledRoute>;
}

const compile = (
  root: RootModule,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<ModuleGraph, StartupError> =>
  Effect.try({
    // The app's managers are what `OperationsModule` provides; the user's overrides win.
    try: () => {
      return compileModuleGraph(
        root,
        new Map(
          [
            { token: ShutdownManager, useValue: parts.shutdownManager },
            { token: HealthCheckManager, useValue: parts.healthCheckManager },
            ...(options.providerOverrides ?? []),
          ].map((p) => [providerToken(p), p]),
        ),
        { modules: new Map(options.moduleOverrides ?? []), mocker: options.mocker },
      );
    },
    catch: (error) =>
      error instanceof StartupError
        ? error
        : new StartupError({ message: String(error), cause: error }),
  });

/** An app whose providers are built, its routes not yet compiled. */
export interface AppProviders {
  readonly graph: ModuleGraph;
  readonly injector: Injector;
  /** The module instances NestJS would call (`configure`, application hooks), imports first. */
  readonly modules: ReadonlyArray<unknown>;
}

/**
 * The first half of {@link prepareApp}: compiles the module graph and builds every singleton
 * (`onModuleInit` in dependency order). When the scope closes, the shutdown handlers run, then
 * every `onModuleDestroy` in reverse dependency order, then every `beforeApplicationShutdown`,
 * then every `onApplicationShutdown`.
 */
export const prepareProviders = (
  root: RootModule,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<AppProviders, StartupError, Scope.Scope> =>
  Effect.gen(function* () {
    parts.shutdownManager.setShuttingDown(false);
    const graph = yield* compile(root, options, parts);
    // Released last, after every onModuleDestroy (registered later).
    let targets: ReadonlyArray<unknown> = [];
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => runApplicationShutdown(targets, parts.signal())),
    );
    const injector = yield* makeInjector(graph);
    const modules = yield* moduleInstances(root, injector);
    targets = applicationHookTargets(graph, injector, modules);
    // NestJS's `configure(consumer)`: its middleware joins the app's, after what is there.
    const configured = yield* configureModules(inMiddlewareOrder(root, modules), injector);
    if (configured !== undefined) parts.middlewareManager.use(configured);
    // Released after the server has drained and the middleware (added later), before
    // onModuleDestroy (added earlier).
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => parts.shutdownManager.run(parts.signal(), options.shutdown?.timeout)),
    );
    return { graph, injector, modules };
  });

/**
 * The second half of {@link prepareApp}: compiles the routes of the controllers and of the
 * modules that contribute some, with the app's global enhancers as `options` says them, then runs
 * every `onApplicationBootstrap`.
 */
export const prepareRoutes = (
  { graph, injector, modules }: AppProviders,
  options: StrataAppOptions,
): Effect.Effect<PreparedApp, StartupError> =>
  Effect.gen(function* () {
    const routes = yield* Effect.zipWith(
      appRoutes(graph.controllers, injector, options),
      contributedRoutes(graph, injector),
      (own, contributed) => [
        ...withGlobalPrefix(own, options.globalPrefix, options.versioning),
        ...contributed,
      ],
    );
    const controllers = graph.controllers.map((node) => node.token as Function);
    const docs = yield* openApiRoutes(controllers, routes, options);
    yield* runApplicationBootstrap(applicationHookTargets(graph, injector, modules));
    return { injector, routes: docs.length === 0 ? routes : [...routes, ...docs] };
  });

/**
 * The first stage, run before the port opens (`app.init()`): {@link prepareProviders} then
 * {@link prepareRoutes}.
 */
const prepareApp = (
  root: RootModule,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<PreparedApp, StartupError, Scope.Scope> =>
  Effect.flatMap(prepareProviders(root, options, parts), (providers) =>
    prepareRoutes(providers, options),
  );

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
 * The second stage, once there is a router: builds the app-wide middleware (classes through the
 * Injector, in the current scope, so they are released after the server has drained), adds the
 * routes and the health probes to the `HttpLayerRouter` in context, and says what the server must
 * run the app with.
 */
const mountApp = (
  prepared: PreparedApp,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<AppServingOptions, StartupError, Scope.Scope | HttpLayerRouter.HttpRouter> =>
  Effect.gen(function* () {
    const health = healthOptions(options.health, prepared.routes, options.globalPrefix);
    const global = yield* parts.middlewareManager.build(prepared.injector).pipe(
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
    const router = yield* HttpLayerRouter.HttpRouter;
    const routes = prepared.routes.map((r) => r.route);
    yield* (
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

/**
 * The whole app as one Layer (one, not several: each costs ~1 ms of startup): the `logger`
 * option for everything built and served with it, fresh managers, both stages. See
 * `StrataApp.layer`.
 */
export const appLayer = (
  root: RootModule,
  options: StrataAppOptions,
): Layer.Layer<Injector | AppServing, StartupError, HttpLayerRouter.HttpRouter> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const logger = options.logger;
      // Scoped to the Layer and seen by what builds it, so the server's requests log with it.
      if (logger !== undefined) {
        yield* Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
          HashSet.add(HashSet.remove(loggers, Logger.defaultLogger), logger),
        );
      }
      const shutdownManager = new ShutdownManager();
      const parts: AppParts = {
        shutdownManager,
        healthCheckManager: new HealthCheckManager(shutdownManager),
        middlewareManager: new GlobalMiddlewareManager().use(...(options.globalMiddleware ?? [])),
        signal: () => undefined,
      };
      const prepared = yield* prepareApp(root, options, parts);
      return yield* mountContext(prepared, options, parts);
    }),
  );
