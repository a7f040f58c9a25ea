import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Scope from "effect/Scope";
import type { ControllerMetadata } from "../decorators/Controller.js";
import { MetadataKey, readMetadata } from "../decorators/metadata.js";
import type { ParamMetadata } from "../decorators/Params.js";
import type { RedirectMetadata } from "../decorators/ResponseDecorators.js";
import type { RouteMetadata } from "../decorators/Route.js";
import type { Injector } from "../di/Injector.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import { makeRequestStore } from "../di/RequestStore.js";
import { Scope as ProviderScope } from "../di/Scope.js";
import { StartupError } from "../di/StartupError.js";
import type { RequestContext } from "../http/RequestContext.js";
import { StrataResponse } from "../http/StrataResponse.js";
import type { PipeLike, PipeTransform } from "../pipes/PipeTransform.js";
import {
  handlerResponse,
  isHeaderName,
  isSafeHeaderValue,
  type ResponseSpec,
} from "./HandlerResponse.js";
import { readBody } from "./RequestBody.js";
import { joinRoutePath } from "./RoutePath.js";
import { fromResult, isThenable } from "./UserCode.js";

/** What the compiled routes need from the app. */
export interface RouteOptions {
  readonly bodyLimit: number;
}

/** A compiled route: the platform route plus what it was compiled from, for listings and tests. */
export interface CompiledRoute {
  readonly method: RouteMetadata["method"];
  readonly path: string;
  readonly controller: string;
  readonly handler: string;
  readonly route: HttpLayerRouter.Route<unknown, never>;
}

type RouteServices =
  | HttpServerRequest.HttpServerRequest
  | HttpServerRequest.ParsedSearchParams
  | HttpRouter.RouteContext
  | Scope.Scope;

interface CompiledParam {
  readonly meta: ParamMetadata;
  readonly pipes: ReadonlyArray<PipeTransform>;
}

const bodyless = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

const hasNoBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  bodyless.has(request.method) &&
  request.headers["content-length"] === undefined &&
  request.headers["transfer-encoding"] === undefined;

/** Instantiates a pipe once at startup: through DI when the root module provides it. */
const pipeInstance = (
  pipe: PipeLike,
  injector: Injector,
): Effect.Effect<PipeTransform, unknown> => {
  if (typeof pipe !== "function") return Effect.succeed(pipe);
  const node = injector.lookup(pipe);
  if (node !== undefined)
    return injector.instance(node, undefined) as Effect.Effect<PipeTransform, unknown>;
  const Pipe = pipe as unknown as new () => PipeTransform;
  return Effect.sync(() => new Pipe());
};

const isAsync = (value: unknown): boolean => Effect.isEffect(value) || isThenable(value);

/**
 * Applies pipes in order, synchronously while they answer synchronously: the result is the
 * piped value, or an Effect once a pipe throws or returns a Promise or an Effect.
 */
const applyPipes = (
  value: unknown,
  pipes: ReadonlyArray<PipeTransform>,
  context: RequestContext,
): unknown => {
  let current = value;
  for (let i = 0; i < pipes.length; i++) {
    let result: unknown;
    try {
      result = pipes[i].transform(current, context);
    } catch (error) {
      return Effect.fail(error);
    }
    if (isAsync(result)) {
      const rest = pipes.slice(i + 1);
      return Effect.flatMap(fromResult(result), (next) => {
        const piped = applyPipes(next, rest, context);
        return Effect.isEffect(piped) ? piped : Effect.succeed(piped);
      });
    }
    current = result;
  }
  return current;
};

const rawValue = (
  meta: ParamMetadata,
  context: RequestContext,
  response: StrataResponse | undefined,
): unknown => {
  switch (meta.source) {
    case "param":
      return meta.name === undefined ? context.params : context.params[meta.name];
    case "query":
      return meta.name === undefined ? context.query : context.query[meta.name];
    case "headers":
      return meta.name === undefined ? context.headers : context.headers[meta.name];
    case "body":
      return context.body;
    case "req":
      return context;
    case "res":
      return response;
  }
};

/**
 * Compiles one controller into platform routes, once, at startup: paths joined, pipes
 * instantiated, the response spec fixed. Per request, a route reads only what its handler's
 * parameters ask for (the body only with `@Body()`/`@Req()`), resolves the controller (a
 * captured singleton, or a fresh request-scoped instance), runs the handler and turns its
 * result (value, Promise or Effect) into a response.
 */
export const controllerRoutes = (
  node: ProviderNode,
  injector: Injector,
  options: RouteOptions,
): Effect.Effect<ReadonlyArray<CompiledRoute>, StartupError> =>
  Effect.gen(function* () {
    const cls = node.token as Function;
    const controller = readMetadata<ControllerMetadata>(MetadataKey.controller, cls) ?? {
      path: "",
    };
    const routes = readMetadata<ReadonlyArray<RouteMetadata>>(MetadataKey.routes, cls) ?? [];
    const prototype = cls.prototype as Record<string | symbol, unknown>;
    const singleton =
      node.scope === ProviderScope.REQUEST
        ? undefined
        : yield* Effect.orDie(injector.instance(node, undefined));
    const compiled: Array<CompiledRoute> = [];
    for (const route of routes) {
      const handlerName = String(route.handler);
      const where = `${cls.name}.${handlerName}`;
      if (typeof prototype[route.handler] !== "function") {
        return yield* new StartupError({
          message: `${where} is decorated as a route but is not a method.`,
        });
      }
      const params = [
        ...(readMetadata<ReadonlyArray<ParamMetadata>>(
          MetadataKey.params,
          prototype,
          route.handler,
        ) ?? []),
      ].sort((a, b) => a.index - b.index);
      const compiledParams: Array<CompiledParam> = [];
      for (const meta of params) {
        const pipes = yield* Effect.forEach(meta.pipes, (pipe) =>
          pipeInstance(pipe, injector),
        ).pipe(
          Effect.mapError(
            (cause) =>
              new StartupError({
                message: `Cannot create a pipe of ${where}: ${String(cause)}`,
                cause,
              }),
          ),
        );
        compiledParams.push({ meta, pipes });
      }
      const headerPairs = readMetadata<ReadonlyArray<readonly [string, string]>>(
        MetadataKey.headers,
        prototype,
        route.handler,
      );
      for (const [name, value] of headerPairs ?? []) {
        if (!isSafeHeaderValue(value) || !isHeaderName(name)) {
          return yield* new StartupError({
            message: `@Header(${JSON.stringify(name)}) of ${where} is not a valid header (bad name, or a control character in the value).`,
          });
        }
      }
      const spec: ResponseSpec = {
        status:
          readMetadata<number>(MetadataKey.httpCode, prototype, route.handler) ??
          (route.method === "POST" ? 201 : 200),
        headers:
          headerPairs === undefined
            ? undefined
            : Object.fromEntries(headerPairs.map(([n, v]) => [n.toLowerCase(), v])),
        redirect: readMetadata<RedirectMetadata>(MetadataKey.redirect, prototype, route.handler),
      };
      const path = joinRoutePath(controller.path, route.path);
      const handler = routeHandler(
        node,
        singleton,
        route.handler,
        compiledParams,
        spec,
        injector,
        options,
      );
      compiled.push({
        method: route.method,
        path,
        controller: cls.name,
        handler: handlerName,
        route: HttpLayerRouter.route(route.method, path, handler) as HttpLayerRouter.Route<
          unknown,
          never
        >,
      });
    }
    return compiled;
  });

const routeHandler = (
  node: ProviderNode,
  singleton: unknown,
  method: string | symbol,
  params: ReadonlyArray<CompiledParam>,
  spec: ResponseSpec,
  injector: Injector,
  options: RouteOptions,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices> => {
  const readsBody = params.some((p) => p.meta.source === "body" || p.meta.source === "req");
  const takesResponse = params.some((p) => p.meta.source === "res");
  const dtoType = params.find((p) => p.meta.source === "body")?.meta.dtoType;
  const arity = params.length === 0 ? 0 : params[params.length - 1].meta.index + 1;

  const invoke = (
    controller: unknown,
    context: RequestContext,
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
    const response = takesResponse ? new StrataResponse() : undefined;
    const args = new Array<unknown>(arity);
    let pending: Array<Effect.Effect<void, unknown>> | undefined;
    for (const { meta, pipes } of params) {
      const raw = rawValue(meta, context, response);
      const piped = pipes.length === 0 ? raw : applyPipes(raw, pipes, context);
      if (!Effect.isEffect(piped)) {
        args[meta.index] = piped;
        continue;
      }
      pending ??= [];
      pending.push(
        Effect.map(piped as Effect.Effect<unknown, unknown>, (value) => {
          args[meta.index] = value;
        }),
      );
    }
    const call = (): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
      let result: unknown;
      try {
        result = (controller as Record<string | symbol, (...a: Array<unknown>) => unknown>)[method](
          ...args,
        );
      } catch (error) {
        return Effect.fail(error);
      }
      if (response !== undefined) return Effect.zipRight(fromResult(result), response.response);
      if (!isAsync(result)) return Effect.succeed(handlerResponse(result, spec));
      return Effect.map(fromResult(result), (value) => handlerResponse(value, spec));
    };
    return pending === undefined
      ? call()
      : Effect.zipRight(Effect.all(pending, { discard: true }), Effect.suspend(call));
  };

  return Effect.contextWithEffect((services: Context.Context<RouteServices>) => {
    const request = Context.get(services, HttpServerRequest.HttpServerRequest);
    const route = Context.get(services, HttpRouter.RouteContext);
    const query = Context.get(services, HttpServerRequest.ParsedSearchParams);
    const withBody = (body: unknown): RequestContext => ({
      method: request.method,
      url: request.url,
      headers: request.headers,
      params: route.params,
      query,
      body,
      dtoType,
      req: request,
    });
    const handle = (context: RequestContext) => {
      if (singleton !== undefined) return invoke(singleton, context);
      const store = makeRequestStore(Context.get(services, Scope.Scope));
      return Effect.flatMap(injector.instance(node, store), (controller) =>
        invoke(controller, context),
      );
    };
    return readsBody && !hasNoBody(request)
      ? Effect.flatMap(readBody(request, options.bodyLimit), (body) => handle(withBody(body)))
      : handle(withBody(undefined));
  });
};
