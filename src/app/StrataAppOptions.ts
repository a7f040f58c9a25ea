/**
 * The options of a `StrataApp` (and of `StrataApp.layer`), and the modules it is made from.
 *
 * @since 0.1.0
 */
import type * as Logger from "effect/Logger";
import type { PipelineOptions } from "../compiler/AppRoutes.js";
import type { DynamicModule, ModuleImport } from "../di/Module.js";
import type { Provider } from "../di/Provider.js";
import type { InjectionToken, Type } from "../di/Token.js";
import type { BodyType } from "../http/RequestBody.js";
import type * as Health from "../lifecycle/Health.js";
import type { MiddlewareLike } from "../middleware/GlobalMiddlewareManager.js";
import type { OpenApiOptions } from "../openapi/OpenApiOptions.js";
import type { ServeOptions } from "../server/internal/FastPath.js";
import type { GlobalPrefixOptions } from "./GlobalPrefix.js";

/**
 * Options of a `StrataApp`.
 *
 * @since 0.1.0
 * @category app
 */
export interface StrataAppOptions extends ServeOptions, PipelineOptions {
  /** Largest accepted request body in bytes (default 1 MB); larger ones get 413. */
  readonly bodyLimit?: number;
  /**
   * Limits by body type (`json`, `urlencoded`, `text`, `raw` for any other type) in bytes, in
   * place of `bodyLimit` for those bodies; larger ones get 413. NestJS's
   * `app.useBodyParser(type, { limit })` sets them.
   */
  readonly bodyLimits?: Partial<Readonly<Record<BodyType, number>>>;
  /**
   * Deepest nesting of arrays and objects in a JSON request body (default 1000,
   * `DEFAULT_JSON_DEPTH_LIMIT`); deeper ones get 400 before anything walks them.
   */
  readonly jsonDepthLimit?: number;
  /**
   * Keeps each body's bytes as `req.rawBody` (a Buffer) besides the parsed body, as NestJS's
   * `rawBody: true` (to verify a webhook's signature); only then are they kept.
   */
  readonly rawBody?: boolean;
  /** Providers that replace, by token, those the modules declare (used by `Test.createTestingModule`). */
  readonly providerOverrides?: ReadonlyArray<Provider<unknown>>;
  /** Modules that replace others wherever they are imported (used by `overrideModule`). */
  readonly moduleOverrides?: ReadonlyArray<readonly [ModuleImport, ModuleImport]>;
  /** Makes the instance of a dependency no module provides (used by `useMocker`). */
  readonly mocker?: (token: InjectionToken) => unknown;
  /**
   * App-wide middleware, the first outermost, ahead of those added with `app.use(...)` (and
   * inside `middleware`, the raw `HttpMiddleware` option, when both are given).
   */
  readonly globalMiddleware?: ReadonlyArray<MiddlewareLike>;
  /**
   * The health probes `GET /health` and `GET /ready` (paths configurable); `false` serves
   * neither. A route of the app's own on the same path takes precedence. The default paths are
   * under the global prefix, unless its `exclude` names them; configured ones are as given.
   */
  readonly health?: Health.HealthOptions | false;
  /** Graceful shutdown: see {@link ShutdownOptions}. */
  readonly shutdown?: ShutdownOptions;
  /**
   * NestJS's `forceCloseConnections`: `app.close()` (or a shutdown signal) closes every
   * connection at once, interrupting in-flight requests and server-sent event streams, instead
   * of letting them finish within `shutdown.timeout`. Default `false`.
   */
  readonly forceCloseConnections?: boolean;
  /**
   * Replaces Effect's default logger for everything the app runs (request logs, warnings,
   * errors): `Logger.withConsoleLog(Logger.jsonLogger)` for JSON lines, `Logger.none` for
   * silence, any custom `Logger`.
   */
  readonly logger?: Logger.Logger<unknown, unknown>;
  /**
   * Serves the app's OpenAPI 3.1 document (`GET /openapi.json`) and a docs page (`GET /docs`),
   * built once at startup from its routes and Schemas: see {@link OpenApiOptions}. Off by default.
   */
  readonly openapi?: OpenApiOptions;
  /** A path prefix for every controller route (NestJS's `app.setGlobalPrefix`). */
  readonly globalPrefix?: GlobalPrefixOptions;
  /**
   * Keep V8's allocation-site pretenuring (default `false`: `listen` turns it off for the
   * process when it starts, unless node's own flags say otherwise). See the performance guide,
   * "Garbage collection under load".
   */
  readonly allocationSitePretenuring?: boolean;
}

/**
 * How a `StrataApp` stops.
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
