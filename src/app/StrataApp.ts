import type { Server } from "node:http";
import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as Layer from "effect/Layer";
import type { RouteInfo } from "../compiler/AppRoutes.js";
import type { Injector } from "../di/Injector.js";
import type { ContextId, ModuleRef, ModuleRefOptions } from "../di/ModuleRef.js";
import type { StartupError } from "../di/StartupError.js";
import type { InjectionToken } from "../di/Token.js";
import { HealthCheckManager } from "../lifecycle/HealthCheckManager.js";
import { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import { GlobalMiddlewareManager } from "../middleware/GlobalMiddlewareManager.js";
import type { AppServing } from "../server/AppServing.js";
import { AppConfiguration } from "./AppConfiguration.js";
import { appLayer } from "./AppLayer.js";
import { AppRuntime } from "./AppRuntime.js";
import { AppSettings } from "./AppSettings.js";
import { type HttpAdapterView, httpAdapterView } from "./ExpressAdapter.js";
import type { RootModule, StrataAppOptions } from "./StrataAppOptions.js";

export { ROUTE_CONTRIBUTOR, type RouteContributor } from "./RouteContributor.js";
export type { RootModule, ShutdownOptions, StrataAppOptions } from "./StrataAppOptions.js";

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
export class StrataApp extends AppConfiguration {
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

  protected readonly settings: AppSettings;
  private readonly runtime: AppRuntime;

  constructor(
    readonly rootModule: RootModule,
    readonly options: StrataAppOptions = {},
  ) {
    super();
    this.middlewareManager.use(...(options.globalMiddleware ?? []));
    this.runtime = new AppRuntime({
      rootModule,
      options: () => this.appOptions,
      parts: {
        shutdownManager: this.shutdownManager,
        healthCheckManager: this.healthCheckManager,
        middlewareManager: this.middlewareManager,
      },
    });
    this.settings = new AppSettings(options, {
      prepared: () => this.runtime.prepared !== undefined,
      providersBuilt: () => this.runtime.providers !== undefined,
      listening: () => this.runtime.server !== undefined,
    });
  }

  /** The options with what `useGlobalGuards(...)` and the like added. */
  private get appOptions(): StrataAppOptions {
    return this.settings.current;
  }

  /**
   * Compiles the module graph, builds every singleton (running `onModuleInit`) and compiles the
   * routes, without listening: the first half of the app's Layer (see {@link StrataApp.layer}).
   */
  async init(): Promise<this> {
    await this.runtime.init();
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
    await this.runtime.initProviders();
  }

  /**
   * `true` until the app's routes are compiled (`init`/`listen`): options can still be added.
   * @internal
   */
  get configurable(): boolean {
    return this.runtime.prepared === undefined;
  }

  /**
   * Adds `options` to those the app was made with, before its routes are compiled (the app a
   * testing module makes: `moduleRef.createNestApplication(options)`). Options that build
   * providers (`providerOverrides`) cannot change once they are built.
   *
   * @internal
   */
  addOptions(options: StrataAppOptions): this {
    this.settings.add(options);
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
    await this.runtime.serve(port, host);
    done?.();
    return this.getHttpServer();
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
    return this.runtime.stop(undefined);
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
    return this.runtime.moduleRef();
  }

  /**
   * NestJS's `app.getHttpServer()`: a node `http.Server` for supertest and the like, which
   * listen it themselves (`request(app.getHttpServer()).get("/cats")`). Not listening until
   * then; its connections reach the app, which starts listening on a loopback port the first
   * time (unless it listens already). `app.close()` closes it.
   */
  getHttpServer(): Server {
    return this.runtime.httpServer();
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
    return this.runtime.url();
  }

  /** The routes the app serves: method, path, controller, handler and version. */
  get routes(): ReadonlyArray<RouteInfo> {
    return (this.runtime.prepared?.routes ?? []).flatMap((compiled) => compiled.handlers);
  }
}
