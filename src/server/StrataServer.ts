import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type { StartupError } from "../di/StartupError.js";
import type { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import { NodeServer, type ServeOptions } from "./internal/FastPath.js";
import { serveApp } from "./ServeApp.js";

export type { ServeOptions };

type Requires<R> =
  | HttpLayerRouter.Request.Only<"Requires", R>
  | HttpLayerRouter.Request.Only<"GlobalRequires", R>;

/**
 * Serves a Layer of `HttpLayerRouter` routes (Strata's compiled controllers, routes written
 * directly on `@effect/platform`, or both merged) on the `HttpServer` in context. Every failure
 * becomes a response in Strata's standard error shape: `{ statusCode, message, errors? }`,
 * 404 for unknown routes, 500 with nothing leaked for defects.
 *
 * An app Layer that provides `AppServing` (`StrataApp.layer` does) is served as it asks:
 * its app-wide middleware inside `options.middleware`, its `tracing` and `fiberMetrics` unless
 * `options` sets them, and its readiness down the moment the server's stop begins. Its
 * `routerConfig`, if any, must be given here too (the router is made before the app is built):
 * otherwise the start fails with a `StartupError`.
 *
 * On Strata's own server ({@link layerNode}) requests take a fast path: the route is found
 * before the request's fiber starts. With tracing on, or once platform middleware is added to
 * the router, requests go through the stock `HttpLayerRouter` dispatch instead.
 *
 * @since 0.1.0
 * @category server
 */
export const serve = <A, E, R>(
  appLayer: Layer.Layer<A, E, R>,
  options: ServeOptions = {},
): Layer.Layer<
  A,
  HttpLayerRouter.Request.Without<E> | StartupError,
  | HttpServer.HttpServer
  | Exclude<
      HttpLayerRouter.Request.Without<R> | Requires<R>,
      HttpLayerRouter.HttpRouter | HttpLayerRouter.Provided
    >
> => {
  // One Layer: the router, `appLayer` built with it, then served (a Layer of its own for each
  // step would cost ~1 ms of startup apiece).
  const served = Layer.scopedContext(
    serveApp(
      // Built in the memo map of the whole app, so a Layer also used elsewhere is built once.
      Effect.flatMap(Layer.CurrentMemoMap, (memoMap) =>
        Effect.flatMap(Effect.scope, (scope) => Layer.buildWithMemoMap(appLayer, memoMap, scope)),
      ),
      options,
    ),
  );
  return served as never;
};

/**
 * Where {@link layerNode} listens.
 *
 * @since 0.1.0
 * @category server
 */
export interface ListenOptions {
  readonly port: number;
  readonly host?: string;
  /**
   * Milliseconds in-flight requests get to finish when the server stops (its scope closes:
   * `app.close()`, or `NodeRuntime.runMain` on SIGTERM/SIGINT); default 10 000.
   */
  readonly shutdownTimeout?: number;
  /**
   * For Effect apps serving `Health.routes` on {@link layerNode}: marked shutting down the moment its stop
   * begins, so that `/ready` answers 503 while requests drain, and its handlers run once the
   * drain is over. (`StrataApp` does this with its own manager.)
   */
  readonly shutdown?: ShutdownManager;
  /**
   * Close every connection at once when the server stops (in-flight requests and server-sent
   * event streams interrupted) instead of draining them; default `false`.
   */
  readonly forceCloseConnections?: boolean;
  /**
   * Keep V8's allocation-site pretenuring (default `false`: the server turns it off for the
   * process when it starts, unless node's own flags say otherwise). See the performance guide,
   * "Garbage collection under load".
   */
  readonly allocationSitePretenuring?: boolean;
}

/**
 * Strata's node HTTP server on `port` (0 picks a free one): an `@effect/platform` `HttpServer`
 * with a fast path for apps served by {@link serve}. It offers no WebSocket upgrades and no
 * platform services; use {@link layerNodePlatform} for those.
 *
 * @since 0.1.0
 * @category server
 */
export const layerNode = (options: ListenOptions) => NodeServer.layer(options);

/**
 * `@effect/platform-node`'s own HTTP server on `port`, with WebSocket upgrades and the node
 * platform services (`HttpPlatform`, `FileSystem`, `Path`, `Etag.Generator`) file responses need.
 * Imported on demand, so apps that do not use it do not load it. Its stop is not graceful:
 * it does not answer requests arriving on connections still open, applies no
 * `shutdownTimeout`, and may cut short a response still being written; use {@link layerNode}
 * where shutdown must lose nothing.
 *
 * @since 0.1.0
 * @category server
 */
export const layerNodePlatform = (options: ListenOptions) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.promise(() => import("@effect/platform-node/NodeHttpServer")),
      (NodeHttpServer) =>
        NodeHttpServer.layer(createServer, { port: options.port, host: options.host }),
    ),
  );
