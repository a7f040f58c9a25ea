import { type ControllerScan, type RouteScan, scanController } from "../compiler/ControllerScan.js";
import type { SecurityMetadata } from "../decorators/OpenApiMetadata.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import { VERSION_NEUTRAL, type VersionId, type VersioningOptions } from "../pipeline/Versioning.js";
import { classDtoSchemas } from "./ClassSchema.js";
import type { DescribedRoute } from "./DescribedRoute.js";
import type { JsonSchema, MethodName, Operation, SecurityScheme } from "./OpenApiDocument.js";
import { openApiPath } from "./OpenApiPath.js";
import { type OperationInputs, operationInputs } from "./OperationInputs.js";
import { operationResponses } from "./OperationResponses.js";
import { operationSecurity } from "./OperationSecurity.js";
import {
  type ClassicOperation,
  combineVersions,
  placeOperation,
  routeVersions,
  type VersionedOperation,
  versionMediaTypes,
} from "./OperationVersions.js";
import type { SchemaRegistry } from "./SchemaJson.js";

/** What describing the controllers of an app needs besides the controllers. */
export interface ClassicOptions {
  readonly versioning?: VersioningOptions;
  readonly globalGuards?: ReadonlyArray<GuardLike>;
  readonly globalPipes?: ReadonlyArray<PipeLike>;
  /**
   * Where the app serves a route its metadata places at `path` (`/v1/books/:id`): the same
   * path, or another once the app moved it (a global prefix). Default: `path`.
   */
  readonly servedPath?: (route: ServedRoute) => string;
}

/** A classic route as its metadata places it, for one of the versions it answers. */
export interface ServedRoute {
  readonly controller: string;
  readonly handler: string;
  readonly method: string;
  readonly path: string;
  /** `undefined`: version-neutral. */
  readonly version?: string | undefined;
}

/** The classic routes of an app, described: operations, and the schemes they require. */
export interface ClassicDescription {
  readonly operations: ReadonlyArray<ClassicOperation>;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
}

/** What describing every route of a document shares. */
interface Describing {
  readonly options: ClassicOptions;
  readonly registry: SchemaRegistry;
  readonly dtoRef: (cls: Function) => JsonSchema;
  /** The schemes the routes define, filled in as they are described. */
  readonly securitySchemes: Record<string, SecurityScheme>;
  readonly knownSchemes: Readonly<Record<string, SecurityScheme>>;
}

const controllerTag = (cls: Function): string =>
  cls.name.endsWith("Controller") && cls.name !== "Controller"
    ? cls.name.slice(0, -"Controller".length)
    : cls.name;

/** The operation's own fields: its `@ApiOperation`, tags, inputs, responses and security. */
const operationOf = (
  scan: ControllerScan,
  route: RouteScan,
  inputs: OperationInputs,
  responses: Operation["responses"],
  security: ReadonlyArray<SecurityMetadata>,
): Operation => {
  const meta = route.operation;
  const tags = [...new Set([...scan.api.tags, ...route.api.tags, ...(meta.tags ?? [])])];
  return {
    operationId: meta.operationId ?? route.where,
    ...(meta.summary === undefined ? {} : { summary: meta.summary }),
    ...(meta.description === undefined ? {} : { description: meta.description }),
    tags: tags.length > 0 ? tags : [controllerTag(scan.controller)],
    ...(meta.deprecated === true ? { deprecated: true } : {}),
    ...(inputs.parameters.length === 0 ? {} : { parameters: inputs.parameters }),
    ...(inputs.requestBody === undefined ? {} : { requestBody: inputs.requestBody }),
    responses,
    ...(security.length === 0
      ? {}
      : { security: security.map((s) => ({ [s.name]: [...s.scopes] })) }),
  };
};

/** One route's operations: one, or one per version with URI versioning. */
const describeRoute = (
  describing: Describing,
  scan: ControllerScan,
  route: RouteScan,
): ReadonlyArray<VersionedOperation> => {
  const { options, registry, dtoRef } = describing;
  const described: DescribedRoute = { route, registry, dtoRef };
  const inputs = operationInputs(described, route.path, [
    ...(options.globalPipes ?? []),
    ...scan.enhancers.pipes,
    ...route.enhancers.pipes,
  ]);
  const guards = [
    ...(options.globalGuards ?? []),
    ...scan.enhancers.guards,
    ...route.enhancers.guards,
  ];
  const security = operationSecurity(
    scan,
    route,
    guards,
    describing.securitySchemes,
    describing.knownSchemes,
  );
  const versions = routeVersions(route, options.versioning);
  const responses = operationResponses(scan, described, {
    inputs,
    secured: security.length > 0,
    guarded: guards.length > 0,
    mediaTypes: versionMediaTypes(versions, options.versioning),
  });
  const operation = operationOf(scan, route, inputs, responses, security);
  const served = (path: string, version: VersionId) =>
    openApiPath(
      options.servedPath?.({
        controller: scan.controller.name,
        handler: String(route.handler),
        method: route.method,
        path,
        version: version === VERSION_NEUTRAL ? undefined : version,
      }) ?? path,
    );
  const entry = {
    path: route.path,
    method: route.method.toLowerCase() as MethodName,
    where: route.where,
  };
  return placeOperation(entry, operation, versions, options.versioning, served);
};

/**
 * Describes the routes of classic controllers from their scans, once, at startup: each route's
 * method and path (`:id` as `{id}`, with its URI version), parameters (path, query and headers,
 * typed by their Schemas or `ParseIntPipe`), body (`@Body(Dto)`, a `ValidationPipe({ schema })`,
 * or a Schema design type; `multipart/form-data` for uploads), version (URI path, header
 * parameter or vendor media type), security (`@ApiSecurity` on the route, its controller or its
 * guards), success response (`@HttpCode`, `@Redirect`, `@Header`) and error responses in the
 * standard shape, with what the `Api*` decorators add. A Schema JSON Schema cannot express fails
 * with a `StartupError` naming the route and the field.
 */
export const describeControllers = (
  controllers: ReadonlyArray<Function>,
  options: ClassicOptions,
  registry: SchemaRegistry,
  knownSchemes: Readonly<Record<string, SecurityScheme>>,
): ClassicDescription => {
  const describing: Describing = {
    options,
    registry,
    dtoRef: classDtoSchemas(registry.defs),
    securitySchemes: {},
    knownSchemes,
  };
  const placed = controllers
    .map(scanController)
    .filter((scan) => !scan.api.excluded)
    .flatMap((scan) =>
      scan.routes
        .filter((route) => !route.api.excluded)
        .flatMap((route) => describeRoute(describing, scan, route)),
    );
  return {
    operations: combineVersions(placed, options.versioning),
    securitySchemes: describing.securitySchemes,
  };
};
