import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type { HttpServerResponse } from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { type HostMatcher, hostMatcher, requestHostname } from "../decorators/ControllerHost.js";
import type { Injector } from "../di/Injector.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import { Scope as ProviderScope } from "../di/Scope.js";
import { StartupError } from "../di/StartupError.js";
import { isHeaderName, isSafeHeaderValue, type ResponseSpec } from "../http/HandlerResponse.js";
import { NotFoundException } from "../http/HttpExceptions.js";
import type { BodyLimit } from "../http/RequestBody.js";
import { joinRoutePath } from "../http/RoutePath.js";
import type { CanActivate } from "../pipeline/CanActivate.js";
import type { ExceptionFilter } from "../pipeline/ExceptionFilter.js";
import type { Interceptor } from "../pipeline/Interceptor.js";
import type { EnhancerRef, EnhancerResolver } from "../pipeline/internal/enhancers.js";
import type { VersionedEntry } from "../pipeline/internal/versionedRoutes.js";
import type { PipeTransform } from "../pipeline/PipeTransform.js";
import type { UploadLimits } from "../pipeline/Uploads.js";
import type { ValidationPipe } from "../pipes/ValidationPipe.js";
import { type EnhancerScan, type RouteScan, scanController } from "./ControllerScan.js";
import { compileParam, paramPipes } from "./ParamPipes.js";
import { routeHandler } from "./RouteHandler.js";
import type { CompiledParam, RouteServices } from "./RoutePlan.js";

/** The app-wide guards, interceptors, filters and pipes, resolved once. */
export interface GlobalEnhancers {
  readonly guards: ReadonlyArray<EnhancerRef<CanActivate>>;
  readonly interceptors: ReadonlyArray<EnhancerRef<Interceptor>>;
  readonly filters: ReadonlyArray<EnhancerRef<ExceptionFilter<unknown>>>;
  readonly pipes: ReadonlyArray<EnhancerRef<PipeTransform>>;
}

/** What compiling a controller needs from the app. */
export interface ControllerCompileOptions {
  readonly bodyLimit: BodyLimit;
  readonly jsonDepthLimit: number;
  /** The path before the controller's of a module `RouterModule.register` routes (else `""`). */
  readonly modulePrefix: (node: ProviderNode) => string;
  /** Keep each body's bytes as `req.rawBody`. */
  readonly rawBody: boolean;
  readonly uploadLimits: Required<UploadLimits>;
  readonly globals: GlobalEnhancers;
  readonly resolve: EnhancerResolver;
  /** The pipe validating arguments declared with a Schema when no `ValidationPipe` is bound. */
  readonly validation: ValidationPipe;
}

/** One compiled handler of a controller, with the versions it answers. */
export interface ControllerHandler extends VersionedEntry<unknown, RouteServices> {
  readonly controller: string;
  readonly handlerName: string;
}

/**
 * A handler of a controller with a `host`: a request for another host is 404, with NestJS's
 * body (`Cannot GET /path`); only such controllers read the `Host` header.
 */
const onHost = <E, R>(
  matches: HostMatcher,
  handler: Effect.Effect<HttpServerResponse, E, R>,
): Effect.Effect<
  HttpServerResponse,
  E | NotFoundException,
  R | HttpServerRequest.HttpServerRequest
> =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request): Effect.Effect<HttpServerResponse, E | NotFoundException, R> =>
      matches(requestHostname(request.headers)) === undefined
        ? Effect.fail(
            new NotFoundException(`Cannot ${request.method} ${request.url.split("?")[0]}`),
          )
        : handler,
  );

/** Resolves the enhancers a scan lists, in the order they are declared (`of`: whose they are). */
const resolveEnhancers = (
  enhancers: EnhancerScan,
  of: string,
  resolve: <T>(
    items: ReadonlyArray<unknown>,
    where: string,
  ) => Effect.Effect<ReadonlyArray<EnhancerRef<T>>, StartupError>,
) =>
  Effect.all({
    guards: resolve<CanActivate>(enhancers.guards, `a guard of ${of}`),
    interceptors: resolve<Interceptor>(enhancers.interceptors, `an interceptor of ${of}`),
    filters: resolve<ExceptionFilter<unknown>>(enhancers.filters, `a filter of ${of}`),
    pipes: resolve<PipeTransform>(enhancers.pipes, `a pipe of ${of}`),
  });

/** The response a route declares, its `@Header`s checked (a bad one fails the start). */
const responseSpec = (route: RouteScan): Effect.Effect<ResponseSpec, StartupError> => {
  const { headers, status, redirect } = route.response;
  for (const [name, value] of headers) {
    if (!isSafeHeaderValue(value) || !isHeaderName(name)) {
      return Effect.fail(
        new StartupError({
          message: `@Header(${JSON.stringify(name)}) of ${route.where} is not a valid header (bad name, or a control character in the value).`,
        }),
      );
    }
  }
  return Effect.succeed({
    status,
    headers:
      headers.length === 0
        ? undefined
        : Object.fromEntries(headers.map(([n, v]) => [n.toLowerCase(), v])),
    redirect,
  });
};

/**
 * Compiles one controller into handlers, once, at startup, from its scan: paths joined, guards,
 * pipes, interceptors and filters resolved and ordered, the response spec fixed, versions read.
 * Per request, a handler only runs what its route declares (see `routeHandler`).
 */
export const controllerRoutes = (
  node: ProviderNode,
  injector: Injector,
  options: ControllerCompileOptions,
): Effect.Effect<ReadonlyArray<ControllerHandler>, StartupError> =>
  Effect.gen(function* () {
    const cls = node.token as Function;
    const scan = scanController(cls);
    const prototype = cls.prototype as Record<string | symbol, unknown>;
    const singleton =
      node.scope === ProviderScope.REQUEST
        ? undefined
        : yield* Effect.orDie(injector.instance(node, undefined));
    const { globals, resolve } = options;
    // Transient enhancers are the controller's own (one per request for a request-scoped one).
    const consumer = { controller: cls, requestScoped: node.scope === ProviderScope.REQUEST };
    const resolveAll = <T>(items: ReadonlyArray<unknown>, where: string) =>
      Effect.forEach(items, (item) => resolve(item as T, where, consumer));
    const own = yield* resolveEnhancers(scan.enhancers, cls.name, resolveAll);
    const host = scan.host === undefined ? undefined : hostMatcher(scan.host);
    const prefix = options.modulePrefix(node);
    const compiled: Array<ControllerHandler> = [];
    for (const route of scan.routes) {
      const handlerFunction = prototype[route.handler];
      if (typeof handlerFunction !== "function") {
        return yield* new StartupError({
          message: `${route.where} is decorated as a route but is not a method.`,
        });
      }
      const method = yield* resolveEnhancers(route.enhancers, route.where, resolveAll);
      const bound = [...globals.pipes, ...own.pipes, ...method.pipes];
      const params: Array<CompiledParam> = [];
      const pipes: Array<ReadonlyArray<EnhancerRef<PipeTransform>>> = [];
      for (const param of route.params) {
        const ownPipes = yield* resolveAll<PipeTransform>(param.pipes, `a pipe of ${route.where}`);
        const argument = compileParam(param);
        params.push(argument);
        pipes.push(yield* paramPipes(route, argument, ownPipes, bound, options.validation));
      }
      const handler = routeHandler({
        node,
        singleton,
        method: route.handler,
        target: { controller: cls, handler: handlerFunction },
        params,
        spec: yield* responseSpec(route),
        sse: route.response.sse,
        enhancers: {
          guards: [...globals.guards, ...own.guards, ...method.guards],
          interceptors: [...globals.interceptors, ...own.interceptors, ...method.interceptors],
          filters: [...method.filters, ...own.filters, ...globals.filters],
          pipes,
        },
        injector,
        bodyLimit: options.bodyLimit,
        jsonDepthLimit: options.jsonDepthLimit,
        rawBody: options.rawBody,
        uploadLimits: options.uploadLimits,
      });
      compiled.push({
        method: route.method,
        path: joinRoutePath(prefix, route.path),
        versions: route.versions,
        handler: host === undefined ? handler : onHost(host, handler),
        label: route.where,
        controller: cls.name,
        handlerName: String(route.handler),
      });
    }
    return compiled;
  });
