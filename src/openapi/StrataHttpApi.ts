/**
 * `HttpApi` handlers without the per-request context switch: drop-in replacements for
 * `HttpApiBuilder.group` and `HttpLayerRouter.addHttpApi` (same signatures, same responses).
 *
 * The stock builders run every handler inside `Effect.mapInputContext` (once for the group's
 * services, once for the API's), a scoped swap of the fiber's context that costs more than the
 * rest of the request on Strata's fast path. Here the services are added to the request's context
 * with one `FiberRef.update` instead (the request's own services still win, as with the stock
 * merge), and the request is decoded and the success encoded with Schemas compiled when the
 * routes are built. Endpoints this module does not compile (`handleRaw`, endpoint or group
 * middleware, multipart streams, several success Schemas) are handed to the stock
 * `HttpApiBuilder.group` unchanged.
 *
 * @since 0.1.0
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder";
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as OpenApi from "@effect/platform/OpenApi";
import * as Chunk from "effect/Chunk";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { recordRouteServices } from "../server/internal/FastPath.js";
import { addServices, compilable, compile, compiledHandlers } from "./StrataHttpApiCompile.js";
import { type Item, makeHandlers, type Recorded } from "./StrataHttpApiHandlers.js";

type AnyEffect = Effect.Effect<unknown, unknown, unknown>;
type Response = HttpServerResponse.HttpServerResponse;

/**
 * `HttpApiBuilder.group` with the same signature and responses, for Strata's fast path: the
 * group's handlers run without a context swap per request, their Schemas compiled once. Use it
 * with {@link addHttpApi} (or the stock `HttpLayerRouter.addHttpApi`, `HttpApiBuilder.api`).
 *
 * @example
 * import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform";
 * import { Effect, Schema } from "effect";
 * import { StrataHttpApi } from "effect-strata/effect";
 *
 * const Api = HttpApi.make("api").add(
 *   HttpApiGroup.make("hello").add(
 *     HttpApiEndpoint.get("hello", "/hello").addSuccess(Schema.Struct({ hello: Schema.String })),
 *   ),
 * );
 * export const HelloLive = StrataHttpApi.group(Api, "hello", (handlers) =>
 *   handlers.handle("hello", () => Effect.succeed({ hello: "world" })),
 * );
 * @since 0.1.0
 */
export const group: typeof HttpApiBuilder.group = ((
  api: { readonly groups: Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps> },
  groupName: string,
  build: (handlers: Recorded) => Recorded | Effect.Effect<Recorded, unknown, unknown>,
) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const services = yield* Effect.context<never>();
      const apiGroup = api.groups[groupName] as HttpApiGroup.HttpApiGroup.AnyWithProps;
      const result = build(makeHandlers(apiGroup, Chunk.empty()));
      const handled = Effect.isEffect(result) ? yield* result : result;
      const fast: Array<HttpRouter.Route<unknown, unknown>> = [];
      const stock: Array<Item> = [];
      for (const item of handled.handlers) {
        if (compilable(item, apiGroup)) fast.push(compile(item, services));
        else stock.push(item);
      }
      const compiled = HttpApiBuilder.Router.use((router) =>
        router.concat(HttpRouter.fromIterable(fast) as HttpRouter.HttpRouter<unknown, never>),
      );
      if (stock.length === 0) return compiled;
      const rest = (HttpApiBuilder.group as unknown as typeof group)(
        api as never,
        groupName as never,
        (() => ({ handlers: Chunk.fromIterable(stock) })) as never,
      );
      return Layer.merge(compiled, rest as unknown as Layer.Layer<never>);
    }),
  )) as unknown as typeof HttpApiBuilder.group;

/** Routes already added per router, so that adding one API twice adds its routes once. */
const addedRoutes = new WeakMap<object, Set<HttpRouter.Route<unknown, unknown>>>();

/** The routes already added to `router` (an empty set the first time). */
const addedRoutesOf = (router: object): Set<HttpRouter.Route<unknown, unknown>> => {
  let added = addedRoutes.get(router);
  if (added === undefined) {
    added = new Set();
    addedRoutes.set(router, added);
  }
  return added;
};

/** `METHOD path` of every endpoint of `api`. */
const endpointKeys = (api: {
  readonly groups: Record<string, HttpApiGroup.HttpApiGroup.Any>;
}): Set<string> => {
  const endpoints = new Set<string>();
  for (const apiGroup of Object.values(api.groups)) {
    for (const endpoint of Object.values(
      (apiGroup as HttpApiGroup.HttpApiGroup.AnyWithProps).endpoints,
    )) {
      endpoints.add(`${endpoint.method} ${endpoint.path}`);
    }
  }
  return endpoints;
};

/** The API's middleware around a route's handler. */
type ApiMiddleware = Effect.Effect.Success<ReturnType<typeof HttpApiBuilder.buildMiddleware>>;

/**
 * The handler of one of the API's routes, the API's `services` added (`enter` adds them alone).
 * A compiled handler adds the group's and the API's services in one step (on Strata's fast path
 * none: the server puts them in the request's context).
 */
const apiRouteHandler = (
  route: HttpRouter.Route<unknown, unknown>,
  services: Context.Context<never>,
  enter: AnyEffect,
  apiMiddleware: ApiMiddleware,
): AnyEffect => {
  const compiled = compiledHandlers.get(route.handler);
  if (compiled === undefined)
    return apiMiddleware(Effect.zipRight(enter, route.handler) as Effect.Effect<Response>);
  const all = Context.merge(compiled.services, services);
  const handler = apiMiddleware(
    Effect.zipRight(addServices(all), compiled.steps) as Effect.Effect<Response>,
  );
  recordRouteServices(handler, {
    services: all,
    handler: apiMiddleware(compiled.steps as Effect.Effect<Response>),
  });
  return handler;
};

/**
 * `HttpLayerRouter.addHttpApi` with the same signature and responses, for Strata's fast path:
 * the API's services reach its handlers without a context swap per request. Its groups can come
 * from {@link group} or from `HttpApiBuilder.group`.
 *
 * @example
 * import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform";
 * import { Effect, Layer, Schema } from "effect";
 * import { StrataHttpApi, StrataServer } from "effect-strata/effect";
 *
 * const Api = HttpApi.make("api").add(
 *   HttpApiGroup.make("hello").add(
 *     HttpApiEndpoint.get("hello", "/hello").addSuccess(Schema.Struct({ hello: Schema.String })),
 *   ),
 * );
 * const HelloLive = StrataHttpApi.group(Api, "hello", (handlers) =>
 *   handlers.handle("hello", () => Effect.succeed({ hello: "world" })),
 * );
 * export const App = StrataServer.serve(
 *   StrataHttpApi.addHttpApi(Api).pipe(Layer.provide(HelloLive)),
 * ).pipe(Layer.provide(StrataServer.layerNode({ port: 3000 })));
 * @since 0.1.0
 */
export const addHttpApi: typeof HttpLayerRouter.addHttpApi = ((
  api: Parameters<typeof HttpLayerRouter.addHttpApi>[0],
  options?: Parameters<typeof HttpLayerRouter.addHttpApi>[1],
) =>
  HttpApiBuilder.Router.unwrap((apiRouter) =>
    Layer.effectDiscard(
      Effect.gen(function* () {
        const router = yield* HttpLayerRouter.HttpRouter;
        const added = addedRoutesOf(router);
        const apiMiddleware = yield* HttpApiBuilder.buildMiddleware(api);
        const services = yield* Effect.context<never>();
        const enter = addServices(services);
        const endpoints = endpointKeys(api);
        const routes: Array<HttpLayerRouter.Route<unknown, unknown>> = [];
        for (const route of apiRouter.routes) {
          if (!endpoints.has(`${route.method} ${route.path}`) || added.has(route)) continue;
          added.add(route);
          routes.push(
            HttpLayerRouter.route(
              route.method as Parameters<typeof HttpLayerRouter.route>[0],
              route.path,
              apiRouteHandler(route, services, enter, apiMiddleware) as Effect.Effect<Response>,
              { uninterruptible: route.uninterruptible },
            ),
          );
        }
        yield* router.addAll(routes);
        if (options?.openapiPath !== undefined) {
          const spec = OpenApi.fromApi(api);
          yield* router.add(
            "GET",
            options.openapiPath,
            Effect.succeed(HttpServerResponse.unsafeJson(spec)),
          );
        }
      }),
    ),
  )) as unknown as typeof HttpLayerRouter.addHttpApi;
