import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServer from "@effect/platform/HttpServer";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { withErrorResponses } from "./ErrorResponse.js";

/**
 * How {@link serve} runs routes.
 *
 * @since 0.1.0
 * @category server
 */
export interface ServeOptions {
  /** Trace every request with a span (off by default: a span per request costs ~35%). */
  readonly tracing?: boolean;
  /** find-my-way options; trailing slashes are ignored unless set otherwise. */
  readonly routerConfig?: Partial<HttpLayerRouter.FindMyWay.RouterConfig>;
}

type Requires<R> =
  | HttpLayerRouter.Request.Only<"Requires", R>
  | HttpLayerRouter.Request.Only<"GlobalRequires", R>;

/**
 * Serves a Layer of `HttpLayerRouter` routes (Strata's compiled controllers, routes written
 * directly on `@effect/platform`, or both merged) on the `HttpServer` in context. Every failure
 * becomes a response in Strata's standard error shape: `{ statusCode, message, errors? }`,
 * 404 for unknown routes, 500 with nothing leaked for defects.
 *
 * @since 0.1.0
 * @category server
 */
export const serve = <A, E, R>(
  appLayer: Layer.Layer<A, E, R>,
  options: ServeOptions = {},
): Layer.Layer<
  A,
  HttpLayerRouter.Request.Without<E>,
  | HttpServer.HttpServer
  | Exclude<
      HttpLayerRouter.Request.Without<R> | Requires<R>,
      HttpLayerRouter.HttpRouter | HttpLayerRouter.Provided
    >
> => {
  const routerLayer = Layer.provide(
    HttpLayerRouter.layer,
    Layer.succeed(HttpLayerRouter.RouterConfig, {
      ignoreTrailingSlash: true,
      ...options.routerConfig,
    }),
  );
  const served = Effect.gen(function* () {
    const router = yield* HttpLayerRouter.HttpRouter;
    return HttpServer.serve(withErrorResponses(router.asHttpEffect()));
  }).pipe(Layer.unwrapScoped, Layer.provideMerge(appLayer), Layer.provide(routerLayer));
  const layer =
    options.tracing === true ? served : HttpMiddleware.withTracerDisabledWhen(served, () => true);
  return layer as never;
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
}

/**
 * The node HTTP server, listening on `port` (0 picks a free one), with the node platform
 * services (`HttpPlatform`, `FileSystem`, `Path`, `Etag.Generator`) file responses need.
 *
 * @since 0.1.0
 * @category server
 */
export const layerNode = (options: ListenOptions) =>
  NodeHttpServer.layer(createServer, { port: options.port, host: options.host });
