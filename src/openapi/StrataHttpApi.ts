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
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import { HttpApiDecodeError } from "@effect/platform/HttpApiError";
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpMethod from "@effect/platform/HttpMethod";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Multipart from "@effect/platform/Multipart";
import * as OpenApi from "@effect/platform/OpenApi";
import * as UrlParams from "@effect/platform/UrlParams";
import * as Chunk from "effect/Chunk";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import * as Layer from "effect/Layer";
import * as ParseResult from "effect/ParseResult";
import { pipeArguments } from "effect/Pipeable";
import * as Schema from "effect/Schema";
import { stringResponse } from "../http/TextResponse.js";
import { recordRouteServices } from "../server/internal/FastPath.js";
import { normalizeUrlParams } from "./NormalizeUrlParams.js";

type AnyEffect = Effect.Effect<unknown, unknown, unknown>;
type Response = HttpServerResponse.HttpServerResponse;

/** One `handle`/`handleRaw` call, as the stock builder records it, with the endpoint's name. */
interface Item {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps;
  readonly handler: (request: Record<string, unknown>) => AnyEffect;
  readonly withFullRequest: boolean;
  readonly uninterruptible: boolean;
}

interface Recorded {
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps;
  readonly handlers: Chunk.Chunk<Item>;
}

const record = (
  self: Recorded,
  name: string,
  handler: Item["handler"],
  withFullRequest: boolean,
  options: { readonly uninterruptible?: boolean | undefined } | undefined,
): Recorded =>
  makeHandlers(
    self.group,
    Chunk.append(self.handlers, {
      endpoint: self.group.endpoints[name] as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
      handler,
      withFullRequest,
      uninterruptible: options?.uninterruptible ?? false,
    }),
  );

/** The `Handlers` value passed to `build`: the stock one's shape and methods. */
const HandlersProto = {
  [HttpApiBuilder.HandlersTypeId]: { _Endpoints: (a: unknown) => a },
  pipe(this: Recorded) {
    // biome-ignore lint/complexity/noArguments: Pipeable's own convention.
    return pipeArguments(this, arguments);
  },
  handle(
    this: Recorded,
    name: string,
    handler: Item["handler"],
    options?: { uninterruptible?: boolean },
  ) {
    return record(this, name, handler, false, options);
  },
  handleRaw(
    this: Recorded,
    name: string,
    handler: Item["handler"],
    options?: { uninterruptible?: boolean },
  ) {
    return record(this, name, handler, true, options);
  },
};

const makeHandlers = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  handlers: Chunk.Chunk<Item>,
): Recorded => Object.assign(Object.create(HandlersProto), { group, handlers });

/** Adds `services` under the request's context (its own entries win), for the rest of the fiber. */
const addServices = (services: Context.Context<never>) =>
  FiberRef.update(FiberRef.currentContext, (input) => Context.merge(services, input));

/** The single success Schema of an endpoint, or `undefined` when it declares several. */
const singleSuccess = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
): Schema.Schema.Any | undefined => {
  const schemas = new Set<Schema.Schema.Any>();
  HttpApiSchema.deunionize(schemas, endpoint.successSchema);
  return schemas.size === 1 ? [...schemas][0] : undefined;
};

/** `true` when {@link compile} reproduces the stock route exactly for this item. */
const compilable = (item: Item, group: HttpApiGroup.HttpApiGroup.AnyWithProps): boolean =>
  !item.withFullRequest &&
  group.middlewares.size === 0 &&
  item.endpoint.middlewares.size === 0 &&
  (item.endpoint.payloadSchema._tag === "None" ||
    HttpApiSchema.getMultipartStream(item.endpoint.payloadSchema.value.ast) === undefined) &&
  singleSuccess(item.endpoint) !== undefined;

/** The response for an encoded success value, as the stock builder writes it. */
const successResponder = (schema: Schema.Schema.Any): ((encoded: unknown) => AnyEffect) => {
  const ast = schema.ast;
  const status = HttpApiSchema.getStatusSuccessAST(ast);
  if (HttpApiSchema.isVoid(ast)) {
    const empty = HttpServerResponse.empty({ status });
    return () => Effect.succeed(empty);
  }
  const encoding = HttpApiSchema.getEncoding(ast);
  const options = { status, contentType: encoding.contentType };
  switch (encoding.kind) {
    case "Json":
      // Written at once (`json`'s `Effect.try` is a step of its own); a value JSON cannot hold
      // is the same 400 `HttpApiDecodeError`.
      return (data) => {
        try {
          // The body stays a string until the socket write (no `TextEncoder` pass).
          const body = JSON.stringify(data);
          return Effect.succeed(
            body === undefined
              ? HttpServerResponse.unsafeJson(data, options)
              : stringResponse(body, encoding.contentType, status),
          );
        } catch (error) {
          return Effect.fail(
            new ParseResult.ParseError({
              issue: new ParseResult.Type(ast, error, "Could not encode to JSON"),
            }),
          );
        }
      };
    case "Text":
      return (data) => Effect.succeed(HttpServerResponse.text(data as string, options));
    case "Uint8Array":
      return (data) => Effect.succeed(HttpServerResponse.uint8Array(data as Uint8Array, options));
    case "UrlParams":
      return (data) =>
        Effect.succeed(HttpServerResponse.urlParams(data as UrlParams.Input, options));
  }
};

/** The request body as the stock builder reads it for a payload Schema. */
const requestPayload = (
  request: HttpServerRequest.HttpServerRequest,
  urlParams: unknown,
  multipartLimits: Multipart.withLimits.Options | undefined,
): AnyEffect => {
  if (!HttpMethod.hasBody(request.method)) return Effect.succeed(urlParams);
  const header = request.headers["content-type"];
  const contentType = header ? header.toLowerCase().trim() : "application/json";
  if (contentType.includes("application/json")) return Effect.orDie(request.json);
  if (contentType.includes("multipart/form-data")) {
    return Effect.orDie(
      multipartLimits === undefined
        ? request.multipart
        : Multipart.withLimits(request.multipart, multipartLimits),
    );
  }
  if (contentType.includes("x-www-form-urlencoded")) {
    return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord);
  }
  if (contentType.startsWith("text/")) return Effect.orDie(request.text);
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer));
};

/** A compiled handler: the group's services, and its steps without the one that adds them. */
interface Compiled {
  readonly services: Context.Context<never>;
  readonly steps: AnyEffect;
}

/**
 * The compiled handlers, by the Effect their route runs: {@link addHttpApi} rebuilds one with the
 * API's services added to the group's (the API's win, as with the two stock merges), so that a
 * request adds both in one step, and tells the fast path so that it adds them itself.
 */
const compiledHandlers = new WeakMap<object, Compiled>();

/** One decoding step of a request: the member of the handler's request it fills, and how. */
interface Step {
  readonly key: string;
  readonly decode: (
    httpRequest: HttpServerRequest.HttpServerRequest,
    context: Context.Context<never>,
  ) => AnyEffect;
}

/** The route of one handled endpoint: the stock route's steps, with the Schemas compiled once. */
const compile = (
  item: Item,
  services: Context.Context<never>,
): HttpRouter.Route<unknown, unknown> => {
  const endpoint = item.endpoint;
  const steps: Array<Step> = [];
  if (endpoint.pathSchema._tag === "Some") {
    const decode = Schema.decodeUnknown(endpoint.pathSchema.value);
    steps.push({
      key: "path",
      decode: (_, context) => decode(Context.unsafeGet(context, HttpRouter.RouteContext).params),
    });
  }
  const payload = endpoint.payloadSchema;
  if (payload._tag === "Some") {
    const decode = Schema.decodeUnknown(payload.value);
    const limits = HttpApiSchema.getMultipart(payload.value.ast);
    steps.push({
      key: "payload",
      decode: (httpRequest, context) =>
        Effect.flatMap(
          requestPayload(
            httpRequest,
            Context.unsafeGet(context, HttpServerRequest.ParsedSearchParams),
            limits,
          ),
          decode,
        ),
    });
  }
  if (endpoint.headersSchema._tag === "Some") {
    const decode = Schema.decodeUnknown(endpoint.headersSchema.value);
    steps.push({ key: "headers", decode: (httpRequest) => decode(httpRequest.headers) });
  }
  if (endpoint.urlParamsSchema._tag === "Some") {
    const schema = endpoint.urlParamsSchema.value;
    const decode = Schema.decodeUnknown(schema);
    steps.push({
      key: "urlParams",
      decode: (_, context) =>
        decode(
          normalizeUrlParams(
            Context.unsafeGet(context, HttpServerRequest.ParsedSearchParams),
            schema.ast,
          ),
        ),
    });
  }
  const success = singleSuccess(endpoint) as Schema.Schema<unknown, unknown>;
  const encodeSuccess = Schema.encode(success);
  const respond = successResponder(success);
  const answer = (value: unknown) =>
    HttpServerResponse.isServerResponse(value)
      ? Effect.succeed(value)
      : Effect.flatMap(encodeSuccess(value), respond);
  // The decoded members one step each, then the handler and its encoded success.
  const requestSteps = Effect.withFiberRuntime<unknown, unknown, unknown>((fiber) => {
    const context = fiber.currentContext;
    const httpRequest = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest);
    const request: Record<string, unknown> = { request: httpRequest };
    let index = 0;
    const next = (): AnyEffect => {
      if (index === steps.length) return Effect.flatMap(item.handler(request), answer);
      const step = steps[index++] as Step;
      return Effect.flatMap(step.decode(httpRequest, context), (value) => {
        request[step.key] = value;
        return next();
      });
    };
    return next();
  });
  const decodedSteps = Effect.catchIf(
    requestSteps,
    ParseResult.isParseError,
    HttpApiDecodeError.refailParseError,
  );
  const run = Effect.zipRight(addServices(services), decodedSteps);
  compiledHandlers.set(run, { services, steps: decodedSteps });
  return HttpRouter.makeRoute(endpoint.method, endpoint.path, run as Effect.Effect<Response>, {
    uninterruptible: item.uninterruptible,
  });
};

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
        let added = addedRoutes.get(router);
        if (added === undefined) {
          added = new Set();
          addedRoutes.set(router, added);
        }
        const apiMiddleware = yield* HttpApiBuilder.buildMiddleware(api);
        const services = yield* Effect.context<never>();
        const enter = addServices(services);
        /**
         * A compiled handler adds the group's and the API's services in one step (on Strata's
         * fast path none: the server puts them in the request's context).
         */
        const handlerOf = (route: HttpRouter.Route<unknown, unknown>): AnyEffect => {
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
        const endpoints = new Set<string>();
        for (const apiGroup of Object.values(api.groups)) {
          for (const endpoint of Object.values(
            (apiGroup as HttpApiGroup.HttpApiGroup.AnyWithProps).endpoints,
          )) {
            endpoints.add(`${endpoint.method} ${endpoint.path}`);
          }
        }
        const routes: Array<HttpLayerRouter.Route<unknown, unknown>> = [];
        for (const route of apiRouter.routes) {
          if (!endpoints.has(`${route.method} ${route.path}`) || added.has(route)) continue;
          added.add(route);
          routes.push(
            HttpLayerRouter.route(
              route.method as Parameters<typeof HttpLayerRouter.route>[0],
              route.path,
              handlerOf(route) as Effect.Effect<Response>,
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
