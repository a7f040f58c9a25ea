import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type { HttpServerResponse } from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { readList } from "../decorators/ClassOrMethodDecorator.js";
import type { ControllerMetadata } from "../decorators/Controller.js";
import { type HostMatcher, hostMatcher, requestHostname } from "../decorators/ControllerHost.js";
import type { ParamMetadata } from "../decorators/Params.js";
import type { RedirectMetadata } from "../decorators/ResponseDecorators.js";
import type { RouteMetadata } from "../decorators/Route.js";
import type { Injector } from "../di/Injector.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { Scope as ProviderScope } from "../di/Scope.js";
import { StartupError } from "../di/StartupError.js";
import { isHeaderName, isSafeHeaderValue, type ResponseSpec } from "../http/HandlerResponse.js";
import type { BodyLimit } from "../http/RequestBody.js";
import { joinRoutePath } from "../http/RoutePath.js";
import { NotFoundException } from "../nest/HttpExceptions.js";
import type { CanActivate, GuardLike } from "../pipeline/CanActivate.js";
import type { ExceptionFilter, FilterLike } from "../pipeline/ExceptionFilter.js";
import type { Interceptor, InterceptorLike } from "../pipeline/Interceptor.js";
import type { EnhancerRef, EnhancerResolver } from "../pipeline/internal/enhancers.js";
import type { ArgumentMetadata, PipeLike, PipeTransform } from "../pipeline/PipeTransform.js";
import type { UploadLimits } from "../pipeline/Uploads.js";
import { isSchema } from "../pipeline/Validation.js";
import { type VersionedEntry, type VersionValue, versionList } from "../pipeline/Versioning.js";
import { isPlainType, ValidationPipe } from "../pipes/ValidationPipe.js";
import { type CompiledParam, type RouteServices, routeHandler } from "./RouteHandler.js";

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

/** A `ValidationPipe` validating each argument against its declared DTO (no schema of its own). */
const validatesDeclaredType = (ref: EnhancerRef<PipeTransform>): boolean =>
  ref._tag === "Instance" &&
  ref.instance instanceof ValidationPipe &&
  ref.instance.options.schema === undefined &&
  ref.instance.options.expectedType === undefined;

/** The arguments global, controller and method pipes run on (NestJS's "pipeable" ones). */
const pipeable = new Set<ParamMetadata["source"]>([
  "body",
  "query",
  "param",
  "file",
  "files",
  "custom",
]);

/** The arguments whose declared type says what they must be (a DTO validates them). */
const declaredBySource = new Set<ParamMetadata["source"]>(["body", "query", "param"]);

/** What a pipe is told an argument's `type` is: NestJS's names, and Strata's for uploads. */
const argumentType = (source: ParamMetadata["source"]): ArgumentMetadata["type"] =>
  source === "body" ||
  source === "query" ||
  source === "param" ||
  source === "file" ||
  source === "files"
    ? source
    : "custom";

/** A parameter's TypeScript type that names a DTO: a class, not a primitive's wrapper or `Object`. */
const isDtoClass = (type: unknown): boolean => typeof type === "function" && !isPlainType(type);

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

/**
 * Compiles one controller into handlers, once, at startup: paths joined, guards, pipes,
 * interceptors and filters resolved and ordered, the response spec fixed, versions read.
 * Per request, a handler only runs what its route declares (see `routeHandler`).
 */
export const controllerRoutes = (
  node: ProviderNode,
  injector: Injector,
  options: ControllerCompileOptions,
): Effect.Effect<ReadonlyArray<ControllerHandler>, StartupError> =>
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
    const { globals, resolve } = options;
    // Transient enhancers are the controller's own (one per request for a request-scoped one).
    const consumer = { controller: cls, requestScoped: node.scope === ProviderScope.REQUEST };
    const resolveAll = <T>(items: ReadonlyArray<T | Function>, where: string) =>
      Effect.forEach(items, (item) => resolve(item as T, where, consumer));
    const classVersion = readMetadata<VersionValue>(MetadataKey.version, cls) ?? controller.version;
    const classGuards = yield* resolveAll<CanActivate>(
      readList<GuardLike>(MetadataKey.guards, cls),
      `a guard of ${cls.name}`,
    );
    const classInterceptors = yield* resolveAll<Interceptor>(
      readList<InterceptorLike>(MetadataKey.interceptors, cls),
      `an interceptor of ${cls.name}`,
    );
    const classFilters = yield* resolveAll<ExceptionFilter<unknown>>(
      readList<FilterLike>(MetadataKey.filters, cls),
      `a filter of ${cls.name}`,
    );
    const classPipes = yield* resolveAll<PipeTransform>(
      readList<PipeLike>(MetadataKey.pipes, cls),
      `a pipe of ${cls.name}`,
    );
    const host = controller.host === undefined ? undefined : hostMatcher(controller.host);
    const prefix = options.modulePrefix(node);
    const compiled: Array<ControllerHandler> = [];
    for (const route of routes) {
      const handlerName = String(route.handler);
      const where = `${cls.name}.${handlerName}`;
      const handlerFunction = prototype[route.handler];
      if (typeof handlerFunction !== "function") {
        return yield* new StartupError({
          message: `${where} is decorated as a route but is not a method.`,
        });
      }
      const methodGuards = yield* resolveAll<CanActivate>(
        readList<GuardLike>(MetadataKey.guards, cls, route.handler),
        `a guard of ${where}`,
      );
      const methodInterceptors = yield* resolveAll<Interceptor>(
        readList<InterceptorLike>(MetadataKey.interceptors, cls, route.handler),
        `an interceptor of ${where}`,
      );
      const methodFilters = yield* resolveAll<ExceptionFilter<unknown>>(
        readList<FilterLike>(MetadataKey.filters, cls, route.handler),
        `a filter of ${where}`,
      );
      const methodPipes = yield* resolveAll<PipeTransform>(
        readList<PipeLike>(MetadataKey.pipes, cls, route.handler),
        `a pipe of ${where}`,
      );
      const params = [
        ...(readMetadata<ReadonlyArray<ParamMetadata>>(
          MetadataKey.params,
          prototype,
          route.handler,
        ) ?? []),
      ].sort((a, b) => a.index - b.index);
      // The parameters' TypeScript types (NestJS's `metatype`), when the compiler emitted them.
      const designTypes = readMetadata<ReadonlyArray<unknown>>(
        MetadataKey.paramTypes,
        prototype,
        route.handler,
      );
      const compiledParams: Array<CompiledParam> = [];
      const paramPipes: Array<ReadonlyArray<EnhancerRef<PipeTransform>>> = [];
      for (const meta of params) {
        const own = yield* resolveAll<PipeTransform>(meta.pipes, `a pipe of ${where}`);
        const designType = designTypes?.[meta.index];
        const metatype = meta.dtoType ?? designType;
        const argument: ArgumentMetadata = {
          type: argumentType(meta.source),
          data: (meta.source === "custom" ? meta.data : meta.name) as string | undefined,
          metatype,
        };
        compiledParams.push({
          meta,
          argument,
          dtoType: meta.dtoType ?? (isDtoClass(designType) ? designType : undefined),
        });
        if (!pipeable.has(meta.source)) {
          paramPipes.push(own);
          continue;
        }
        const bound = [...globals.pipes, ...classPipes, ...methodPipes];
        const chain = [...bound, ...own];
        const last = chain.findLastIndex(validatesDeclaredType);
        const declared = meta.dtoType !== undefined || declaredBySource.has(meta.source);
        let pipes: ReadonlyArray<EnhancerRef<PipeTransform>> = chain;
        if (last !== -1) {
          pipes = chain.filter((ref, i) => i === last || !validatesDeclaredType(ref));
        } else if (declared && isSchema(metatype)) {
          pipes = [...bound, { _tag: "Instance", instance: options.validation }, ...own];
        }
        if (
          last !== -1 &&
          designTypes === undefined &&
          meta.dtoType === undefined &&
          declaredBySource.has(meta.source)
        ) {
          return yield* new StartupError({
            message: `${where} has no parameter type metadata ("design:paramtypes"), so the ValidationPipe of its parameter #${meta.index} cannot see the type it is declared with. esbuild (the default transform of vitest, Vite and tsx) never emits it: compile with tsc or swc and "emitDecoratorMetadata" (under vitest, the unplugin-swc plugin: see "Decorator metadata under vitest" in docs/testing.md), or give the DTO or Schema to the decorator (@Body(CreateCatDto)).`,
          });
        }
        for (const ref of pipes) {
          if (ref._tag !== "Instance" || !(ref.instance instanceof ValidationPipe)) continue;
          const problem = ref.instance.prepare(argument);
          if (problem !== undefined) {
            return yield* new StartupError({
              message: `${where}: the ValidationPipe of parameter #${meta.index} cannot validate it: ${problem}`,
            });
          }
        }
        paramPipes.push(pipes);
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
      const handler = routeHandler({
        node,
        singleton,
        method: route.handler,
        target: { controller: cls, handler: handlerFunction },
        params: compiledParams,
        spec,
        enhancers: {
          guards: [...globals.guards, ...classGuards, ...methodGuards],
          interceptors: [...globals.interceptors, ...classInterceptors, ...methodInterceptors],
          filters: [...methodFilters, ...classFilters, ...globals.filters],
          pipes: paramPipes,
        },
        injector,
        bodyLimit: options.bodyLimit,
        jsonDepthLimit: options.jsonDepthLimit,
        rawBody: options.rawBody,
        uploadLimits: options.uploadLimits,
      });
      const version =
        readMetadata<VersionValue>(MetadataKey.version, prototype, route.handler) ?? classVersion;
      compiled.push({
        method: route.method,
        path: joinRoutePath(prefix, controller.path, route.path),
        versions: versionList(version),
        handler: host === undefined ? handler : onHost(host, handler),
        label: where,
        controller: cls.name,
        handlerName,
      });
    }
    return compiled;
  });
