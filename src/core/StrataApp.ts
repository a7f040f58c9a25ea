import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Scope from "effect/Scope";
import type { DynamicModule } from "../decorators/Module.js";
import { Injector, injectorLayer, makeInjector } from "../di/Injector.js";
import { compileModuleGraph, type ModuleGraph } from "../di/ModuleGraph.js";
import type { Provider } from "../di/Provider.js";
import { StartupError } from "../di/StartupError.js";
import { type InjectionToken, type Type, tokenName } from "../di/Token.js";
import * as Health from "../lifecycle/Health.js";
import { HealthCheckManager } from "../lifecycle/HealthCheckManager.js";
import { HealthPaths } from "../lifecycle/HealthPaths.js";
import { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import { onShutdownSignals } from "../lifecycle/ShutdownSignals.js";
import {
  GlobalMiddlewareManager,
  type MiddlewareLike,
} from "../middleware/GlobalMiddlewareManager.js";
import * as Middleware from "../middleware/Middleware.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { FilterLike } from "../pipeline/ExceptionFilter.js";
import type { InterceptorLike } from "../pipeline/Interceptor.js";
import type { VersioningOptions } from "../pipeline/Versioning.js";
import type { PipeLike } from "../pipes/PipeTransform.js";
import {
  appRoutes,
  type CompiledRoute,
  type PipelineOptions,
  type RouteInfo,
} from "./AppRoutes.js";
import type { ServeOptions } from "./StrataServer.js";
import * as NodeServer from "./server/NodeServer.js";
import { makeRouter, serveRouter } from "./server/ServeRouter.js";

/**
 * Options of a {@link StrataApp}.
 *
 * @since 0.1.0
 * @category app
 */
export interface StrataAppOptions extends ServeOptions, PipelineOptions {
  /** Largest accepted request body in bytes (default 1 MB); larger ones get 413. */
  readonly bodyLimit?: number;
  /** Providers that replace, by token, those the modules declare (used by `Test.createTestingModule`). */
  readonly providerOverrides?: ReadonlyArray<Provider<unknown>>;
  /**
   * App-wide middleware, the first outermost, ahead of those added with `app.use(...)` (and
   * inside `middleware`, the raw `HttpMiddleware` option, when both are given).
   */
  readonly globalMiddleware?: ReadonlyArray<MiddlewareLike>;
  /**
   * The health probes `GET /health` and `GET /ready` (paths configurable); `false` serves
   * neither. A route of the app's own on the same path takes precedence.
   */
  readonly health?: Health.HealthOptions | false;
  /** Graceful shutdown: see {@link ShutdownOptions}. */
  readonly shutdown?: ShutdownOptions;
  /**
   * Replaces Effect's default logger for everything the app runs (request logs, warnings,
   * errors): `Logger.withConsoleLog(Logger.jsonLogger)` for JSON lines, `Logger.none` for
   * silence, any custom `Logger`.
   */
  readonly logger?: Logger.Logger<unknown, unknown>;
}

/**
 * How a {@link StrataApp} stops.
 *
 * @since 0.1.0
 * @category app
 */
export interface ShutdownOptions {
  /**
   * Milliseconds in-flight requests get to finish (default 10 000); after it the remaining
   * ones are interrupted. Each shutdown handler gets the same time.
   */
  readonly timeout?: number;
  /**
   * Signals that shut the app down gracefully and then exit the process with code 0 (default
   * `SIGTERM` and `SIGINT`, listened to while the app listens); `false` leaves signals alone.
   */
  readonly signals?: ReadonlyArray<NodeJS.Signals> | false;
}

/** The modules an app is made from: a `@Module` class or a dynamic module. @since 0.1.0 @category app */
export type RootModule = Type<unknown> | DynamicModule;

const compile = (
  root: RootModule,
  options: StrataAppOptions,
): Effect.Effect<ModuleGraph, StartupError> =>
  Effect.try({
    try: () =>
      compileModuleGraph(root, new Map(options.providerOverrides?.map((p) => [p.token, p]))),
    catch: (error) =>
      error instanceof StartupError
        ? error
        : new StartupError({ message: String(error), cause: error }),
  });

/** The routes of every controller of the graph, compiled against a built injector. */
const routesOf = (graph: ModuleGraph, options: StrataAppOptions) =>
  Effect.flatMap(Injector, (injector) =>
    Effect.zipWith(
      appRoutes(graph.controllers, injector, options),
      contributedRoutes(graph, injector),
      (own, contributed) => [...own, ...contributed],
    ),
  );

// Routes contributed by modules ------------------------------------------------------------

/**
 * The token under which a module may provide a {@link RouteContributor}: routes that are not
 * controllers (for instance `strata/oauth`'s built-in routes). Every provider registered under
 * it, in any module of the graph, adds its routes to the app.
 *
 * @since 0.1.0
 * @category app
 */
export const ROUTE_CONTRIBUTOR: unique symbol = Symbol.for("strata/RouteContributor");

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

/** Adds the compiled routes to the `HttpLayerRouter` in context. */
const routesLayer = (graph: ModuleGraph, options: StrataAppOptions) =>
  HttpLayerRouter.addAll(
    Effect.map(routesOf(graph, options), (routes) => routes.map((r) => r.route)),
  ) as Layer.Layer<never, StartupError, HttpLayerRouter.HttpRouter | Injector>;

const rethrow = (cause: Cause.Cause<unknown>): never => {
  throw Cause.squash(cause);
};

/**
 * A Strata application: the classic face. The module graph is compiled once (dependencies,
 * scopes, routes), built into Layers, and served by the same engine Effect apps use.
 *
 * @example
 * const app = new StrataApp(AppModule);
 * await app.listen(3000);
 *
 * @since 0.1.0
 * @category app
 */
export class StrataApp {
  /**
   * The Effect face of an app: a Layer that builds its providers (the {@link Injector}) and
   * adds its controllers' routes to the `HttpLayerRouter`. Merge it with your own routes and
   * hand it to `StrataServer.serve`.
   */
  static layer(
    rootModule: RootModule,
    options: StrataAppOptions = {},
  ): Layer.Layer<Injector, StartupError, HttpLayerRouter.HttpRouter> {
    return Layer.unwrapEffect(
      Effect.map(compile(rootModule, options), (graph) =>
        Layer.provideMerge(routesLayer(graph, options), injectorLayer(graph)),
      ),
    );
  }

  /** The app-wide middleware; `app.use(...)` registers here. */
  readonly middlewareManager = new GlobalMiddlewareManager();
  /** The handlers run at shutdown, after in-flight requests and before `onModuleDestroy`. */
  readonly shutdownManager = new ShutdownManager();
  /** The checks behind `GET /ready` (down from the moment a shutdown begins). */
  readonly healthCheckManager = new HealthCheckManager(this.shutdownManager);

  private scope: Scope.CloseableScope | undefined;
  private injector: Injector | undefined;
  private server: HttpServer.HttpServer | undefined;
  private compiledRoutes: ReadonlyArray<CompiledRoute> = [];
  private pipeline: PipelineOptions = {};
  private closing: Promise<void> | undefined;
  private signal: string | undefined;
  private stopListeningForSignals: (() => void) | undefined;

  constructor(
    readonly rootModule: RootModule,
    readonly options: StrataAppOptions = {},
  ) {
    this.middlewareManager.use(...(options.globalMiddleware ?? []));
  }

  /** Runs an Effect of the facade with the app's logger. */
  private run<A, E>(effect: Effect.Effect<A, E>): Promise<Exit.Exit<A, E>> {
    const logger = this.options.logger;
    return Effect.runPromiseExit(
      logger === undefined
        ? effect
        : Effect.provide(effect, Logger.replace(Logger.defaultLogger, logger)),
    );
  }

  /** Compiles the module graph and builds every singleton (running `onModuleInit`), without listening. */
  async init(): Promise<this> {
    if (this.injector !== undefined) return this;
    this.shutdownManager.setShuttingDown(false);
    const scope = Effect.runSync(Scope.make());
    const exit = await this.run(
      Effect.gen(this, function* () {
        // The app's managers are what `OperationsModule` provides; the user's overrides win.
        const graph = yield* compile(this.rootModule, {
          ...this.options,
          providerOverrides: [
            { token: ShutdownManager, useValue: this.shutdownManager },
            { token: HealthCheckManager, useValue: this.healthCheckManager },
            ...(this.options.providerOverrides ?? []),
          ],
        });
        const injector = yield* Scope.extend(makeInjector(graph), scope);
        // Closed after the server has drained (added later), before onModuleDestroy (earlier).
        yield* Scope.addFinalizer(
          scope,
          Effect.suspend(() =>
            this.shutdownManager.run(this.signal, this.options.shutdown?.timeout),
          ),
        );
        const routes = yield* Effect.provideService(
          routesOf(graph, { ...this.options, ...this.pipeline }),
          Injector,
          injector,
        );
        return { injector, routes };
      }),
    );
    if (Exit.isFailure(exit)) {
      await this.run(Scope.close(scope, exit));
      return rethrow(exit.cause);
    }
    this.scope = scope;
    this.injector = exit.value.injector;
    this.compiledRoutes = exit.value.routes;
    return this;
  }

  /**
   * Starts the HTTP server on `port` (0 picks a free port; see {@link StrataApp.getUrl}):
   * builds the middleware, adds the health probes, opens the port, and (unless
   * `shutdown.signals` is `false`) shuts down gracefully on SIGTERM and SIGINT.
   */
  async listen(port: number, host?: string): Promise<void> {
    await this.init();
    if (this.server !== undefined) throw new Error("This app is already listening");
    const scope = this.scope as Scope.CloseableScope;
    const exit = await this.run(
      Effect.gen(this, function* () {
        // The server's own scope within the app's: a listen that fails half-way closes what it
        // opened (the port included) at once; a listening server is released with the app.
        const serving = yield* Scope.fork(scope, ExecutionStrategy.sequential);
        return yield* Effect.onError(this.serve(serving, port, host), (cause) =>
          Scope.close(serving, Exit.failCause(cause)),
        );
      }),
    );
    if (Exit.isFailure(exit)) return rethrow(exit.cause);
    this.server = exit.value;
    const signals = this.options.shutdown?.signals ?? ["SIGTERM", "SIGINT"];
    if (signals !== false && signals.length > 0) {
      this.stopListeningForSignals = onShutdownSignals(signals, (signal) => this.stop(signal));
    }
  }

  /**
   * Builds the middleware, opens the port and serves the routes, all in `scope` (what
   * `serve(routes).pipe(Layer.provideMerge(layerNode(...)))` builds, without Layers: each costs
   * ~1 ms of startup). The middleware comes first, so it is released after the server drained.
   */
  private serve(
    scope: Scope.Scope,
    port: number,
    host: string | undefined,
  ): Effect.Effect<HttpServer.HttpServer, unknown> {
    const injector = this.injector as Injector;
    const health = this.healthOptions();
    return Effect.gen(this, function* () {
      const middleware = yield* this.middlewareManager
        .build(injector)
        .pipe(
          Effect.provideService(HealthPaths, health === false ? [] : Health.probePaths(health)),
          Scope.extend(scope),
        );
      const options: ServeOptions = {
        ...this.options,
        middleware:
          this.options.middleware === undefined || middleware === undefined
            ? (this.options.middleware ?? middleware)
            : Middleware.compose(this.options.middleware, middleware),
      };
      const server = yield* Scope.extend(
        NodeServer.make({ port, host, shutdownTimeout: this.options.shutdown?.timeout }),
        scope,
      );
      const router = yield* makeRouter(options);
      const routes = this.compiledRoutes.map((r) => r.route);
      yield* (
        router.addAll(
          health === false
            ? routes
            : [...routes, ...Health.probeRoutes(this.healthCheckManager, health)],
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
      yield* serveRouter(router, options).pipe(
        Effect.provideService(HttpServer.HttpServer, server),
        Scope.extend(scope),
      );
      return server;
    }).pipe(
      // Routes and requests see the Injector in their context, as the Layer provided it.
      Effect.provideService(Injector, injector),
    );
  }

  /**
   * Shuts the app down gracefully: readiness (`GET /ready`) turns 503, the server stops
   * accepting connections, closes idle ones and lets in-flight requests finish (within
   * `shutdown.timeout`; their responses say `Connection: close`), then the `shutdownManager`
   * handlers run, then every provider's `onModuleDestroy` in reverse dependency order.
   * Concurrent calls share one shutdown.
   */
  close(): Promise<void> {
    return this.stop(undefined);
  }

  private stop(signal: string | undefined): Promise<void> {
    this.closing ??= (async () => {
      // Readiness is down before the server stops accepting connections.
      this.shutdownManager.setShuttingDown(true);
      const scope = this.scope;
      this.scope = undefined;
      this.injector = undefined;
      this.server = undefined;
      this.signal = signal;
      try {
        if (scope !== undefined) await this.run(Scope.close(scope, Exit.void));
      } finally {
        this.stopListeningForSignals?.();
        this.stopListeningForSignals = undefined;
        this.closing = undefined;
      }
    })();
    return this.closing;
  }

  /** The probes to serve, leaving out the paths a GET route of the app already answers. */
  private healthOptions(): Health.HealthOptions | false {
    const health = this.options.health;
    if (health === false) return false;
    const taken = new Set(this.routes.filter((r) => r.method === "GET").map((r) => r.path));
    const free = (path: string | false | undefined, fallback: string) => {
      const resolved = path ?? fallback;
      return resolved === false || taken.has(resolved) ? false : resolved;
    };
    return {
      livenessPath: free(health?.livenessPath, "/health"),
      readinessPath: free(health?.readinessPath, "/ready"),
    };
  }

  /** The singleton (or a new transient) provider registered under `token` in the root module. */
  get<T>(token: InjectionToken<T>): T {
    const injector = this.injector;
    if (injector === undefined) throw new Error("Call init() or listen() before get()");
    const node = injector.lookup(token);
    if (node === undefined)
      throw new Error(`No provider of ${tokenName(token)} is visible in the root module`);
    return Effect.runSync(injector.instance(node, undefined)) as T;
  }

  /** The base URL of the listening server, e.g. `http://127.0.0.1:3000`. */
  getUrl(): string {
    const address = this.server?.address;
    if (address === undefined) throw new Error("The app is not listening");
    if (address._tag === "UnixAddress") return `http+unix://${address.path}`;
    const host =
      address.hostname === "0.0.0.0" || address.hostname === "::" ? "127.0.0.1" : address.hostname;
    return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  }

  /** The routes the app serves: method, path, controller, handler and version. */
  get routes(): ReadonlyArray<RouteInfo> {
    return this.compiledRoutes.flatMap((compiled) => compiled.handlers);
  }

  /** Adds app-wide guards, run before every route's own (call before `init`/`listen`). */
  useGlobalGuards(...guards: ReadonlyArray<GuardLike>): this {
    const current = this.pipeline.globalGuards ?? this.options.globalGuards ?? [];
    return this.configure({ globalGuards: [...current, ...guards] });
  }

  /** Adds app-wide pipes, run first on every pipeable argument (call before `init`/`listen`). */
  useGlobalPipes(...pipes: ReadonlyArray<PipeLike>): this {
    const current = this.pipeline.globalPipes ?? this.options.globalPipes ?? [];
    return this.configure({ globalPipes: [...current, ...pipes] });
  }

  /** Adds app-wide interceptors, the outermost of every route (call before `init`/`listen`). */
  useGlobalInterceptors(...interceptors: ReadonlyArray<InterceptorLike>): this {
    const current = this.pipeline.globalInterceptors ?? this.options.globalInterceptors ?? [];
    return this.configure({ globalInterceptors: [...current, ...interceptors] });
  }

  /** Adds app-wide exception filters, consulted last (call before `init`/`listen`). */
  useGlobalFilters(...filters: ReadonlyArray<FilterLike>): this {
    const current = this.pipeline.globalFilters ?? this.options.globalFilters ?? [];
    return this.configure({ globalFilters: [...current, ...filters] });
  }

  /**
   * Adds app-wide middleware, run around every request (unmatched ones included) in
   * registration order, the first outermost; with a path prefix first, only around requests
   * under it: `app.use("/admin", AdminMiddleware)`. Call before `listen`.
   */
  use(...middleware: ReadonlyArray<MiddlewareLike>): this;
  use(prefix: string, ...middleware: ReadonlyArray<MiddlewareLike>): this;
  use(...args: ReadonlyArray<string | MiddlewareLike>): this {
    const [first, ...rest] = args;
    if (typeof first === "string") {
      this.middlewareManager.use(first, ...(rest as ReadonlyArray<MiddlewareLike>));
    } else {
      this.middlewareManager.use(...(args as ReadonlyArray<MiddlewareLike>));
    }
    return this;
  }

  /** Routes requests by API version (call before `init`/`listen`). */
  enableVersioning(versioning: VersioningOptions): this {
    return this.configure({ versioning });
  }

  private configure(options: PipelineOptions): this {
    if (this.injector !== undefined) {
      throw new Error("Configure the request pipeline before init() or listen()");
    }
    this.pipeline = { ...this.pipeline, ...options };
    return this;
  }
}
