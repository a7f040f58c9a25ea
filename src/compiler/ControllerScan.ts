import { readList } from "../decorators/ClassOrMethodDecorator.js";
import type { ControllerHost, ControllerMetadata } from "../decorators/Controller.js";
import {
  OpenApiKey,
  type OperationMetadata,
  type ResponseMetadata,
  type SecurityMetadata,
  securityOf,
} from "../decorators/OpenApiMetadata.js";
import type { ParamMetadata } from "../decorators/Params.js";
import type { RedirectMetadata } from "../decorators/ResponseDecorators.js";
import type { RouteMetadata, RouteMethod } from "../decorators/Route.js";
import { SSE_METADATA } from "../decorators/Sse.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { joinRoutePath } from "../http/RoutePath.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { FilterLike } from "../pipeline/ExceptionFilter.js";
import type { InterceptorLike } from "../pipeline/Interceptor.js";
import { versionList } from "../pipeline/internal/versionedRoutes.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { VersionId, VersionValue } from "../pipeline/Versioning.js";

/** The guards, interceptors, filters and pipes decorators bind to a controller or a handler. */
export interface EnhancerScan {
  readonly guards: ReadonlyArray<GuardLike>;
  readonly interceptors: ReadonlyArray<InterceptorLike>;
  readonly filters: ReadonlyArray<FilterLike>;
  readonly pipes: ReadonlyArray<PipeLike>;
}

/** What the API description decorators record on a controller or a handler. */
export interface ApiScan {
  /** `@ApiExcludeController()` / `@ApiExcludeEndpoint()`. */
  readonly excluded: boolean;
  /** `@ApiTags`. */
  readonly tags: ReadonlyArray<string>;
  /** `@ApiResponse` and its shorthands, in order. */
  readonly responses: ReadonlyArray<ResponseMetadata>;
  /** `@ApiSecurity` and `@ApiBearerAuth` (those of the guards are read from the guards). */
  readonly security: ReadonlyArray<SecurityMetadata>;
}

/** A handler parameter: what its decorator recorded, and the type TypeScript declared it with. */
export interface ParamScan extends ParamMetadata {
  /** Its TypeScript type (`design:paramtypes`), when the compiler emitted one. */
  readonly designType: unknown;
  /** What it is declared as (NestJS's `metatype`): the decorator's DTO or Schema, else `designType`. */
  readonly metatype: unknown;
}

/** What a handler's successful response is, as its decorators declare it. */
export interface ResponseScan {
  /** `@HttpCode`, else 201 for `POST` and 200 for the rest. */
  readonly status: number;
  /** `@Header`s, in order, as given. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** `@Redirect` (its status is the response's, unless the handler returns another). */
  readonly redirect: RedirectMetadata | undefined;
  /** `@Sse()`: a `text/event-stream` of the Observable the handler returns. */
  readonly sse: boolean;
}

/** One route of a controller, as its decorators declare it. */
export interface RouteScan {
  /** The handler method's key. */
  readonly handler: string | symbol;
  /** Names the route in messages: `BooksController.find`. */
  readonly where: string;
  readonly method: RouteMethod;
  /** The controller's path joined with the route's (before a module or global prefix). */
  readonly path: `/${string}`;
  /** The versions declared: the method's `@Version`, else the controller's (empty: none). */
  readonly versions: ReadonlyArray<VersionId>;
  /** The method's own enhancers (the controller's are on {@link ControllerScan}). */
  readonly enhancers: EnhancerScan;
  /** The parameters, by position. */
  readonly params: ReadonlyArray<ParamScan>;
  /** `false` when the compiler emitted no `design:paramtypes` for the handler (esbuild). */
  readonly hasDesignTypes: boolean;
  readonly response: ResponseScan;
  /** `@ApiOperation`. */
  readonly operation: OperationMetadata;
  readonly api: ApiScan;
}

/**
 * A controller as its decorators describe it: read once, plain, typed and frozen. The route
 * compiler and the API description both read it, and nothing else of the decorators' metadata,
 * so a served route and its description come from one reading.
 */
export interface ControllerScan {
  readonly controller: Function;
  /** `@Controller`'s path. */
  readonly path: string;
  readonly host: ControllerHost | undefined;
  readonly enhancers: EnhancerScan;
  readonly api: ApiScan;
  readonly routes: ReadonlyArray<RouteScan>;
}

/** A frozen copy of a list of metadata (the recorded one stays the decorators'). */
const listOf = <T>(
  key: Parameters<typeof readList>[0],
  cls: Function,
  handler?: string | symbol,
): ReadonlyArray<T> => Object.freeze([...readList<T>(key, cls, handler)]);

const enhancersOf = (cls: Function, handler?: string | symbol): EnhancerScan =>
  Object.freeze({
    guards: listOf<GuardLike>(MetadataKey.guards, cls, handler),
    interceptors: listOf<InterceptorLike>(MetadataKey.interceptors, cls, handler),
    filters: listOf<FilterLike>(MetadataKey.filters, cls, handler),
    pipes: listOf<PipeLike>(MetadataKey.pipes, cls, handler),
  });

const apiOf = (cls: Function, handler?: string | symbol): ApiScan => {
  const target = handler === undefined ? cls : (cls.prototype as object);
  return Object.freeze({
    excluded: readMetadata<boolean>(OpenApiKey.exclude, target, handler) === true,
    tags: listOf<string>(OpenApiKey.tags, cls, handler),
    responses: listOf<ResponseMetadata>(OpenApiKey.responses, cls, handler),
    security: Object.freeze([...securityOf(cls, handler)]),
  });
};

const paramsOf = (
  prototype: object,
  handler: string | symbol,
  designTypes: ReadonlyArray<unknown> | undefined,
): ReadonlyArray<ParamScan> =>
  Object.freeze(
    [...(readMetadata<ReadonlyArray<ParamMetadata>>(MetadataKey.params, prototype, handler) ?? [])]
      .sort((a, b) => a.index - b.index)
      .map((meta): ParamScan => {
        const designType = designTypes?.[meta.index];
        const pipes = Object.freeze([...meta.pipes]);
        return Object.freeze({ ...meta, pipes, designType, metatype: meta.dtoType ?? designType });
      }),
  );

const responseOf = (prototype: object, route: RouteMetadata): ResponseScan =>
  Object.freeze({
    status:
      readMetadata<number>(MetadataKey.httpCode, prototype, route.handler) ??
      (route.method === "POST" ? 201 : 200),
    headers: Object.freeze([
      ...(readMetadata<ReadonlyArray<readonly [string, string]>>(
        MetadataKey.headers,
        prototype,
        route.handler,
      ) ?? []),
    ]),
    redirect: readMetadata<RedirectMetadata>(MetadataKey.redirect, prototype, route.handler),
    sse: readMetadata<boolean>(SSE_METADATA, prototype, route.handler) === true,
  });

const routeOf = (
  cls: Function,
  controller: ControllerMetadata,
  classVersion: VersionValue | undefined,
  route: RouteMetadata,
): RouteScan => {
  const prototype = cls.prototype as object;
  const { handler } = route;
  const designTypes = readMetadata<ReadonlyArray<unknown>>(
    MetadataKey.paramTypes,
    prototype,
    handler,
  );
  return Object.freeze({
    handler,
    where: `${cls.name}.${String(handler)}`,
    method: route.method,
    path: joinRoutePath(controller.path, route.path),
    versions: versionList(
      readMetadata<VersionValue>(MetadataKey.version, prototype, handler) ?? classVersion,
    ),
    enhancers: enhancersOf(cls, handler),
    params: paramsOf(prototype, handler, designTypes),
    hasDesignTypes: designTypes !== undefined,
    response: responseOf(prototype, route),
    operation: readMetadata<OperationMetadata>(OpenApiKey.operation, prototype, handler) ?? {},
    api: apiOf(cls, handler),
  });
};

const read = (cls: Function): ControllerScan => {
  const controller = readMetadata<ControllerMetadata>(MetadataKey.controller, cls) ?? { path: "" };
  const classVersion = readMetadata<VersionValue>(MetadataKey.version, cls) ?? controller.version;
  const routes = readMetadata<ReadonlyArray<RouteMetadata>>(MetadataKey.routes, cls) ?? [];
  return Object.freeze({
    controller: cls,
    path: controller.path,
    host: controller.host,
    enhancers: enhancersOf(cls),
    api: apiOf(cls),
    routes: Object.freeze(routes.map((route) => routeOf(cls, controller, classVersion, route))),
  });
};

const scans = new WeakMap<Function, ControllerScan>();

/**
 * The scan of a controller class: its decorators' metadata read the first time it is asked
 * for (at startup), then the same frozen value for the process's life (a class's decorators
 * run once, when it is defined).
 */
export const scanController = (cls: Function): ControllerScan => {
  let scan = scans.get(cls);
  if (scan === undefined) {
    scan = read(cls);
    scans.set(cls, scan);
  }
  return scan;
};
