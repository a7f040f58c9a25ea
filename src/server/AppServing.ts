import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";
import * as Middleware from "../middleware/Middleware.js";
import type { ServeOptions } from "./internal/FastPath.js";

/**
 * What an app Layer asks of the server that serves it: its app-wide middleware (built), tracing
 * and fiber metrics, the router configuration it was written for, and what to do the moment the
 * server's stop begins.
 *
 * @since 0.1.0
 * @category server
 */
export interface AppServingOptions extends ServeOptions {
  /**
   * Run when the server starts to stop, before in-flight requests drain (`StrataApp.layer`
   * marks its `ShutdownManager` shutting down, so that `/ready` answers 503 meanwhile).
   */
  readonly onStop?: Effect.Effect<void>;
}

/**
 * The {@link AppServingOptions} of an app Layer. `StrataApp.layer` provides it and
 * `StrataServer.serve` reads it once the app is built, so `serve(StrataApp.layer(AppModule,
 * options))` serves the app as `app.listen()` does, with no options of its own. Absent, serve
 * asks nothing more than its own options say.
 *
 * @since 0.1.0
 * @category server
 */
export class AppServing extends Context.Reference<AppServing>()("effect-strata/server/AppServing", {
  defaultValue: (): AppServingOptions => ({}),
}) {}

const sameConfig = (
  a: ServeOptions["routerConfig"] | undefined,
  b: ServeOptions["routerConfig"] | undefined,
): boolean => {
  if (a === b) return true;
  const left: Readonly<Record<string, unknown>> = a ?? {};
  const right: Readonly<Record<string, unknown>> = b ?? {};
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (left[key] !== right[key]) return false;
  return true;
};

/**
 * The options `serve` runs with: its own, around what the app asks. The app's middleware runs
 * inside `options.middleware`; the app's `tracing` and `fiberMetrics` apply unless `options` sets
 * them. The router is made before the app is built, so an app written for a `routerConfig` must
 * be served with the same one: otherwise a `StartupError` says so.
 */
export const servingOptions = (
  options: ServeOptions,
  app: AppServingOptions,
): Effect.Effect<ServeOptions, StartupError> => {
  if (app.routerConfig !== undefined && !sameConfig(options.routerConfig, app.routerConfig)) {
    return new StartupError({
      message:
        "The app was given a routerConfig that its server does not use: give the same routerConfig to StrataServer.serve",
    });
  }
  return Effect.succeed({
    ...options,
    tracing: options.tracing ?? app.tracing,
    fiberMetrics: options.fiberMetrics ?? app.fiberMetrics,
    middleware: around(options.middleware, app.middleware),
  });
};

/** `outer` around `inner`, either of which may be absent. */
export const around = (
  outer: HttpMiddleware.HttpMiddleware | undefined,
  inner: HttpMiddleware.HttpMiddleware | undefined,
): HttpMiddleware.HttpMiddleware | undefined =>
  outer === undefined || inner === undefined ? (outer ?? inner) : Middleware.compose(outer, inner);
