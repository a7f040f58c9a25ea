import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { appRoutes, type CompiledRoute } from "../compiler/AppRoutes.js";
import { type Injector, makeInjector } from "../di/Injector.js";
import { compileModuleGraph, type ModuleGraph } from "../di/ModuleGraph.js";
import { inMiddlewareOrder, moduleInstances } from "../di/ModuleInstances.js";
import { providerToken } from "../di/Provider.js";
import { StartupError } from "../di/StartupError.js";
import {
  applicationHookTargets,
  runApplicationBootstrap,
  runApplicationShutdown,
} from "../lifecycle/ApplicationHooks.js";
import { HealthCheckManager } from "../lifecycle/HealthCheckManager.js";
import { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import type { GlobalMiddlewareManager } from "../middleware/GlobalMiddlewareManager.js";
import { openApiRoutes } from "../openapi/AppOpenApi.js";
import { withGlobalPrefix } from "./GlobalPrefix.js";
import { configureModules } from "./MiddlewareConsumer.js";
import { contributedRoutes } from "./RouteContributor.js";
import type { RootModule, StrataAppOptions } from "./StrataAppOptions.js";

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
export const prepareApp = (
  root: RootModule,
  options: StrataAppOptions,
  parts: AppParts,
): Effect.Effect<PreparedApp, StartupError, Scope.Scope> =>
  Effect.flatMap(prepareProviders(root, options, parts), (providers) =>
    prepareRoutes(providers, options),
  );
