import type { Server } from "node:http";
import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Scope from "effect/Scope";
import type { PipelineOptions, RouteInfo } from "../compiler/AppRoutes.js";
import type { Injector } from "../di/Injector.js";
import type { ContextId, ModuleRef, ModuleRefOptions } from "../di/ModuleRef.js";
import type { StartupError } from "../di/StartupError.js";
import type { InjectionToken } from "../di/Token.js";
import { type BodyType, DEFAULT_BODY_LIMIT } from "../http/RequestBody.js";
import { HealthCheckManager } from "../lifecycle/HealthCheckManager.js";
import { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import { onShutdownSignals } from "../lifecycle/ShutdownSignals.js";
import { CorsMiddleware } from "../middleware/CorsMiddleware.js";
import type { CorsOptions, CorsOptionsDelegate } from "../middleware/CorsOptions.js";
import {
  GlobalMiddlewareManager,
  type MiddlewareLike,
} from "../middleware/GlobalMiddlewareManager.js";
import { checkOptions } from "../middleware/internal/corsDecision.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { FilterLike } from "../pipeline/ExceptionFilter.js";
import type { InterceptorLike } from "../pipeline/Interceptor.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { VersioningOptions } from "../pipeline/Versioning.js";
import type { AppServing } from "../server/AppServing.js";
import { NodeServer } from "../server/internal/FastPath.js";
import { serveApp } from "../server/ServeApp.js";
import {
  type AppParts,
  type AppProviders,
  appLayer,
  mountContext,
  type PreparedApp,
  prepareProviders,
  prepareRoutes,
} from "./AppLayer.js";
import { type BodyParserOptions, bodyParserLimit } from "./BodyParserOptions.js";
import { type HttpAdapterView, httpAdapterView } from "./ExpressAdapter.js";
import type { GlobalPrefixOptions } from "./GlobalPrefix.js";
import { httpServerFront } from "./HttpServerFront.js";
import type { RootModule, StrataAppOptions } from "./StrataAppOptions.js";

export { ROUTE_CONTRIBUTOR, type RouteContributor } from "./AppLayer.js";
export type { RootModule, ShutdownOptions, StrataAppOptions } from "./StrataAppOptions.js";

const rethrow = (cause: Cause.Cause<unknown>): never => {
  throw Cause.squash(cause);
};

/**
 * A Strata application: the classic face. The module graph is compiled once (dependencies,
 * scopes, routes), built into Layers, and served by the same engine Effect apps use.
 *
 * @example
 * @Controller("hello")
 * class HelloController {
 *   @Get()
 *   hello() {
 *     return { hello: "world" };
 *   }
 * }
 *
 * @Module({ controllers: [HelloController] })
 * class AppModule {}
 *
 * const app = new StrataApp(AppModule);
 * await app.listen(3000);
 *
 * @since 0.1.0
 * @category app
 */
export class StrataApp {
  /**
   * The Effect face of an app, the whole of it: a Layer that builds its providers (the
   * `Injector`; `onModuleInit` runs as it is built, the shutdown handlers then
   * `onModuleDestroy` as its scope closes) and adds its controllers' routes and the health probes
   * to the `HttpLayerRouter`, with the global guards, pipes, interceptors and filters of
   * `options`. Its app-wide middleware (`globalMiddleware`, `middleware`), `tracing`, `logger` and
   * readiness on shutdown reach the server through `AppServing`: merged with your own
   * routes and served with `StrataServer.serve` on `StrataServer.layerNode`, it is the app
   * `listen` serves. Give `routerConfig` to `serve` as well; the drain deadline is
   * `layerNode`'s `shutdownTimeout`, and signals are the runtime's (`NodeRuntime.runMain`).
   * Served by the platform's `HttpLayerRouter.serve` instead, it adds its middleware to the
   * router itself.
   *
   * @example
   * import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
   * import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
   * import { Effect, Layer } from "effect";
   * import { CorsMiddleware, jsonResponse, StrataApp } from "effect-strata";
   * import { StrataServer } from "effect-strata/effect";
   *
   * declare class AppModule {} // the app's root module
   * const MyRoutes = HttpLayerRouter.add("GET", "/ping", Effect.sync(() => jsonResponse("pong")));
   *
   * const Main = StrataServer.serve(
   *   Layer.mergeAll(StrataApp.layer(AppModule, { globalMiddleware: [CorsMiddleware] }), MyRoutes),
   * ).pipe(Layer.provide(StrataServer.layerNode({ port: 3000 })));
   * NodeRuntime.runMain(Layer.launch(Main));
   */
  static layer(
    rootModule: RootModule,
    options: StrataAppOptions = {},
  ): Layer.Layer<Injector | AppServing, StartupError, HttpLayerRouter.HttpRouter> {
    return appLayer(rootModule, options);
  }

  /** The app-wide middleware; `app.use(...)` registers here. */
  readonly middlewareManager = new GlobalMiddlewareManager();
  /** The handlers run at shutdown, after in-flight requests and before `onModuleDestroy`. */
  readonly shutdownManager = new ShutdownManager();
  /** The checks behind `GET /ready` (down from the moment a shutdown begins). */
  readonly healthCheckManager = new HealthCheckManager(this.shutdownManager);

  private scope: Scope.CloseableScope | undefined;
  private providers: AppProviders | undefined;
  /** The injector of a closed app: `get` still hands out the instances it had, as NestJS's. */
  private closedInjector: Injector | undefined;
  private prepared: PreparedApp | undefined;
  private server: HttpServer.HttpServer | undefined;
  private pipeline: PipelineOptions = {};
  private extraOptions: StrataAppOptions = {};
  private closing: Promise<void> | undefined;
  private signal: string | undefined;
  private stopListeningForSignals: (() => void) | undefined;
  private front: Server | undefined;
  private readonly parts: AppParts = {
    shutdownManager: this.shutdownManager,
    healthCheckManager: this.healthCheckManager,
    middlewareManager: this.middlewareManager,
    signal: () => this.signal,
  };

  constructor(
    readonly rootModule: RootModule,
    readonly options: StrataAppOptions = {},
  ) {
    this.middlewareManager.use(...(options.globalMiddleware ?? []));
  }

  /** Runs an Effect of the facade with the app's logger. */
  private run<A, E>(effect: Effect.Effect<A, E>): Promise<Exit.Exit<A, E>> {
    const logger = this.appOptions.logger;
    return Effect.runPromiseExit(
      logger === undefined
        ? effect
        : Effect.provide(effect, Logger.replace(Logger.defaultLogger, logger)),
    );
  }

  /** The options with what `useGlobalGuards(...)` and the like added. */
  private get appOptions(): StrataAppOptions {
    return { ...this.options, ...this.extraOptions, ...this.pipeline };
  }

  /**
   * Compiles the module graph, builds every singleton (running `onModuleInit`) and compiles the
   * routes, without listening: the first half of the app's Layer (see {@link StrataApp.layer}).
   */
  async init(): Promise<this> {
    if (this.prepared !== undefined) return this;
    await this.initProviders();
    const exit = await this.run(prepareRoutes(this.providers as AppProviders, this.appOptions));
    if (Exit.isFailure(exit)) {
      await this.close();
      return rethrow(exit.cause);
    }
    this.prepared = exit.value;
    return this;
  }

  /**
   * Builds the providers only (the module graph, every singleton, `onModuleInit`), leaving the
   * routes to `init()`: what `Test.createTestingModule(...).compile()` does, so that the app
   * made from the testing module shares its providers and can still be configured.
   *
   * @internal
   */
  async initProviders(): Promise<void> {
    if (this.providers !== undefined) return;
    const scope = Effect.runSync(Scope.make());
    const exit = await this.run(
      Scope.extend(prepareProviders(this.rootModule, this.appOptions, this.parts), scope),
    );
    if (Exit.isFailure(exit)) {
      await this.run(Scope.close(scope, exit));
      return rethrow(exit.cause);
    }
    this.scope = scope;
    this.providers = exit.value;
  }

  /**
   * `true` until the app's routes are compiled (`init`/`listen`): options can still be added.
   * @internal
   */
  get configurable(): boolean {
    return this.prepared === undefined;
  }

  /**
   * Adds `options` to those the app was made with, before its routes are compiled (the app a
   * testing module makes: `moduleRef.createNestApplication(options)`). Options that build
   * providers (`providerOverrides`) cannot change once they are built.
   *
   * @internal
   */
  addOptions(options: StrataAppOptions): this {
    if (this.prepared !== undefined) {
      throw new Error("Configure the app before init() or listen()");
    }
    if ((options.providerOverrides ?? []).length > 0 && this.providers !== undefined) {
      throw new Error(
        "providerOverrides cannot change once the providers are built: use overrideProvider() before compile()",
      );
    }
    this.extraOptions = { ...this.extraOptions, ...options };
    this.middlewareManager.use(...(options.globalMiddleware ?? []));
    return this;
  }

  /**
   * Starts the HTTP server on `port` (0 picks a free port; see {@link StrataApp.getUrl}): the
   * app's Layer ({@link StrataApp.layer}), its providers built by `init()` before the port
   * opens, served with `StrataServer.serve` on `StrataServer.layerNode`. Unless
   * `shutdown.signals` is `false`, it shuts down gracefully on SIGTERM and SIGINT. As NestJS's,
   * it resolves with the app's HTTP server (`getHttpServer()`), and runs `callback` once
   * listening (`listen(port, callback)` or `listen(port, host, callback)`).
   */
  async listen(port: number, host?: string, callback?: () => void): Promise<Server>;
  async listen(port: number, callback: () => void): Promise<Server>;
  async listen(
    port: number,
    hostOrCallback?: string | (() => void),
    callback?: () => void,
  ): Promise<Server> {
    const host = typeof hostOrCallback === "string" ? hostOrCallback : undefined;
    const done = typeof hostOrCallback === "function" ? hostOrCallback : callback;
    await this.serve(port, host);
    done?.();
    return this.getHttpServer();
  }

  private async serve(port: number, host: string | undefined): Promise<void> {
    await this.init();
    if (this.server !== undefined) throw new Error("This app is already listening");
    const scope = this.scope as Scope.CloseableScope;
    const prepared = this.prepared as PreparedApp;
    const options = this.appOptions;
    // `serve(app).pipe(Layer.provideMerge(layerNode(...)))`, the app being the second stage of
    // its Layer, run as Effects: the Layers would cost ~7 ms of CPU at startup.
    const launch = Effect.flatMap(
      NodeServer.make({
        port,
        host,
        shutdownTimeout: options.shutdown?.timeout,
        forceCloseConnections: options.forceCloseConnections,
        allocationSitePretenuring: options.allocationSitePretenuring,
      }),
      (server) =>
        serveApp(mountContext(prepared, options, this.parts), {
          routerConfig: options.routerConfig,
        }).pipe(Effect.provideService(HttpServer.HttpServer, server), Effect.as(server)),
    );
    const exit = await this.run(
      Effect.gen(function* () {
        // The server's own scope within the app's: a listen that fails half-way closes what it
        // opened (the port included) at once; a listening server is released with the app.
        const serving = yield* Scope.fork(scope, ExecutionStrategy.sequential);
        return yield* Effect.onError(Scope.extend(launch, serving), (cause) =>
          Scope.close(serving, Exit.failCause(cause)),
        );
      }),
    );
    if (Exit.isFailure(exit)) {
      // The port's own error (EADDRINUSE, EADDRNOTAVAIL...) with its code, as NestJS rejects.
      const error = Cause.squash(exit.cause);
      const cause = (error as { readonly _tag?: unknown; readonly cause?: unknown }).cause;
      if ((error as { readonly _tag?: unknown })._tag === "ServeError" && cause instanceof Error) {
        throw cause;
      }
      throw error;
    }
    this.server = exit.value;
    const signals = this.appOptions.shutdown?.signals ?? ["SIGTERM", "SIGINT"];
    if (signals !== false && signals.length > 0) {
      this.stopListeningForSignals = onShutdownSignals(signals, (signal) => this.stop(signal));
    }
  }

  /**
   * Shuts the app down gracefully: readiness (`GET /ready`) turns 503, the server stops
   * accepting connections, closes idle ones and lets in-flight requests finish (within
   * `shutdown.timeout`; their responses say `Connection: close`), then the `shutdownManager`
   * handlers run, then every provider's `onModuleDestroy` in reverse dependency order: the app
   * Layer's scope closes.
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
      this.closedInjector = this.providers?.injector ?? this.closedInjector;
      this.providers = undefined;
      this.prepared = undefined;
      this.server = undefined;
      this.signal = signal;
      const front = this.front;
      this.front = undefined;
      front?.close();
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

  /**
   * The singleton (or a new transient) provider registered under `token`: as the root module
   * sees it, else in any module (`{ strict: true }`: the root module's only); `{ each: true }`
   * gives every provider of `token`, one per module. After `close()`, the instances the app had.
   */
  get<T>(token: InjectionToken<T>, options?: ModuleRefOptions & { readonly each?: false }): T;
  get<T>(token: InjectionToken<T>, options: ModuleRefOptions & { readonly each: true }): Array<T>;
  get<T>(token: InjectionToken<T>, options: ModuleRefOptions = {}): T | Array<T> {
    const moduleRef = this.moduleRef();
    return options.each === true
      ? moduleRef.get(token, { ...options, each: true })
      : moduleRef.get(token, { ...options, each: false });
  }

  /**
   * NestJS's `app.resolve(token, contextId?)`: a request-scoped or transient provider created
   * for the context `contextId` (a new one without it), a singleton as is. See {@link ModuleRef}.
   */
  resolve<T>(
    token: InjectionToken<T>,
    contextId?: ContextId,
    options?: ModuleRefOptions & { readonly each?: false },
  ): Promise<T>;
  resolve<T>(
    token: InjectionToken<T>,
    contextId: ContextId | undefined,
    options: ModuleRefOptions & { readonly each: true },
  ): Promise<Array<T>>;
  resolve<T>(
    token: InjectionToken<T>,
    contextId?: ContextId,
    options: ModuleRefOptions = {},
  ): Promise<T | Array<T>> {
    const moduleRef = this.moduleRef();
    return options.each === true
      ? moduleRef.resolve(token, contextId, { ...options, each: true })
      : moduleRef.resolve(token, contextId, { ...options, each: false });
  }

  /** NestJS's `app.registerRequestByContextId(request, contextId)`: what `REQUEST` injects in that context. */
  registerRequestByContextId(request: unknown, contextId: ContextId): void {
    this.moduleRef().registerRequestByContextId(request, contextId);
  }

  /** The app's {@link ModuleRef} (its providers built). */
  private moduleRef(): ModuleRef {
    const injector = this.providers?.injector ?? this.closedInjector;
    if (injector === undefined) {
      throw new Error("Build the providers first: NestFactory.create(...), or await app.init()");
    }
    return injector.moduleRef;
  }

  /**
   * NestJS's `app.getHttpServer()`: a node `http.Server` for supertest and the like, which
   * listen it themselves (`request(app.getHttpServer()).get("/cats")`). Not listening until
   * then; its connections reach the app, which starts listening on a loopback port the first
   * time (unless it listens already). `app.close()` closes it.
   */
  getHttpServer(): Server {
    this.front ??= httpServerFront(async () => {
      if (this.server === undefined) await this.serve(0, "127.0.0.1");
      const url = new URL(this.getUrl());
      return { port: Number(url.port), host: url.hostname.replace(/^\[|\]$/g, "") };
    });
    return this.front;
  }

  /**
   * NestJS's `app.getHttpAdapter()`: the app's HTTP server (`getHttpServer()`); its
   * `getInstance()` throws, as there is no Express app behind a Strata app.
   */
  getHttpAdapter(): HttpAdapterView {
    return httpAdapterView(() => this.getHttpServer());
  }

  /**
   * The base URL of the listening server, e.g. `http://127.0.0.1:3000`: on every IPv4 interface
   * (`0.0.0.0`) it is `127.0.0.1`, on every IPv6 one (`::`, node's default host) `[::1]`, as
   * NestJS's. Throws NestJS's message before `listen`.
   */
  getUrl(): string {
    const address = this.server?.address;
    if (address === undefined) {
      throw new Error("app.listen() needs to be called before calling app.getUrl()");
    }
    if (address._tag === "UnixAddress") return `http+unix://${address.path}`;
    const host =
      address.hostname === "0.0.0.0"
        ? "127.0.0.1"
        : address.hostname === "::"
          ? "::1"
          : address.hostname;
    return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  }

  /** The routes the app serves: method, path, controller, handler and version. */
  get routes(): ReadonlyArray<RouteInfo> {
    return (this.prepared?.routes ?? []).flatMap((compiled) => compiled.handlers);
  }

  /** Adds app-wide guards, run before every route's own (call before `init`/`listen`). */
  useGlobalGuards(...guards: ReadonlyArray<GuardLike>): this {
    const current = this.appOptions.globalGuards ?? [];
    return this.configure({ globalGuards: [...current, ...guards] });
  }

  /** Adds app-wide pipes, run first on every pipeable argument (call before `init`/`listen`). */
  useGlobalPipes(...pipes: ReadonlyArray<PipeLike>): this {
    const current = this.appOptions.globalPipes ?? [];
    return this.configure({ globalPipes: [...current, ...pipes] });
  }

  /** Adds app-wide interceptors, the outermost of every route (call before `init`/`listen`). */
  useGlobalInterceptors(...interceptors: ReadonlyArray<InterceptorLike>): this {
    const current = this.appOptions.globalInterceptors ?? [];
    return this.configure({ globalInterceptors: [...current, ...interceptors] });
  }

  /** Adds app-wide exception filters, consulted last (call before `init`/`listen`). */
  useGlobalFilters(...filters: ReadonlyArray<FilterLike>): this {
    const current = this.appOptions.globalFilters ?? [];
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

  /**
   * NestJS's `app.enableCors(options)`: `app.use(new CorsMiddleware(options))`, with the `cors`
   * package's options (origins matched exactly) or a delegate `(req, callback) =>
   * callback(null, options)` deciding per request. Options that are not valid throw here,
   * saying why. Call before `listen`.
   */
  enableCors(options?: CorsOptions | CorsOptionsDelegate): this {
    const problem = checkOptions(options);
    if (problem !== undefined) throw problem;
    return this.use(new CorsMiddleware(options));
  }

  /**
   * NestJS's `app.enableShutdownHooks(signals)`: the signals that shut the app down gracefully
   * (`shutdown.signals`; SIGTERM and SIGINT by default, listened to even without this call).
   */
  enableShutdownHooks(signals: ReadonlyArray<NodeJS.Signals> = ["SIGTERM", "SIGINT"]): this {
    if (this.server !== undefined) throw new Error("Call enableShutdownHooks() before listen()");
    this.extraOptions = {
      ...this.extraOptions,
      shutdown: { ...this.options.shutdown, ...this.extraOptions.shutdown, signals },
    };
    return this;
  }

  /**
   * NestJS's `app.setGlobalPrefix("api", { exclude: ["health"] })`: every controller route under
   * `/api`, but those excluded (call before `init`/`listen`). Routes modules contribute (OAuth's)
   * keep their paths; the health probes' default paths move under the prefix too, unless
   * excluded.
   */
  setGlobalPrefix(prefix: string, options?: Omit<GlobalPrefixOptions, "prefix">): this {
    if (this.prepared !== undefined) {
      throw new Error("Call setGlobalPrefix() before init() or listen()");
    }
    this.extraOptions = { ...this.extraOptions, globalPrefix: { ...options, prefix } };
    return this;
  }

  /**
   * NestJS's `app.useBodyParser(type, { limit })`: the size limit of one type of body (`json`,
   * `urlencoded`, `text`, or `raw` for any other type), in bytes or as `"100kb"`/`"1mb"`; larger
   * bodies get 413. Strata parses every body itself, so only `limit` is taken (and urlencoded's
   * `extended`, though the form parser stays flat: `a[b]=1` is `{ "a[b]": "1" }`); anything
   * else throws, saying why. Call before `init`/`listen`.
   */
  useBodyParser(type: BodyType, options: BodyParserOptions = {}): this {
    if (this.prepared !== undefined) {
      throw new Error("Call useBodyParser() before init() or listen()");
    }
    const limit = bodyParserLimit(type, options, this.appOptions.bodyLimit ?? DEFAULT_BODY_LIMIT);
    const bodyLimits = { ...this.appOptions.bodyLimits, [type]: limit };
    this.extraOptions = { ...this.extraOptions, bodyLimits };
    return this;
  }

  /** Not supported: Express's `app.locals` (`setLocal`). Throws saying what to use. */
  setLocal(_key: string, _value: unknown): never {
    throw new Error(
      "app.setLocal() is not supported: Strata has no Express app.locals. Keep app-wide values in a provider (useValue) and inject it.",
    );
  }

  /** Not supported: NestJS microservices (`connectMicroservice`). Throws saying so. */
  connectMicroservice(_options: unknown): never {
    throw new Error(
      "app.connectMicroservice() is not supported: Strata serves HTTP only (microservices are out of its scope).",
    );
  }

  /** Routes requests by API version (call before `init`/`listen`). */
  enableVersioning(versioning: VersioningOptions): this {
    return this.configure({ versioning });
  }

  private configure(options: PipelineOptions): this {
    if (this.prepared !== undefined) {
      throw new Error("Configure the request pipeline before init() or listen()");
    }
    this.pipeline = { ...this.pipeline, ...options };
    return this;
  }
}
