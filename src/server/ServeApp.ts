import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpServer from "@effect/platform/HttpServer";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { AppServing, servingOptions } from "./AppServing.js";
import { makeRouter, type ServeOptions, serveRouter } from "./internal/FastPath.js";

/**
 * What `StrataServer.serve` does, as an Effect: makes the router, builds the app on it (`build`
 * adds its routes to the `HttpLayerRouter` in context), then serves it on the `HttpServer` in
 * context as the app asks through {@link AppServing} (its middleware inside `options.middleware`,
 * its readiness down the moment the server's stop begins). `serve` runs it in its one Layer;
 * `StrataApp.listen` runs it directly, on a server it makes: the Layers of
 * `serve(...).pipe(Layer.provideMerge(layerNode(...)))` cost ~7 ms of CPU at startup.
 */
export const serveApp = <A, E, R>(
  build: Effect.Effect<Context.Context<A>, E, R>,
  options: ServeOptions,
): Effect.Effect<
  Context.Context<A>,
  E | StartupError,
  Exclude<R, HttpLayerRouter.HttpRouter> | HttpServer.HttpServer | Scope.Scope
> =>
  Effect.gen(function* () {
    const router = yield* makeRouter(options);
    const context = yield* Effect.provideService(build, HttpLayerRouter.HttpRouter, router);
    const app = Context.get(context as Context.Context<never>, AppServing);
    yield* serveRouter(router, yield* servingOptions(options, app));
    // Registered after the server's drain, so run before it.
    const onStop = app.onStop;
    if (onStop !== undefined) yield* Effect.addFinalizer(() => onStop);
    return context;
  });
