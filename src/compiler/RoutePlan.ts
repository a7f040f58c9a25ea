import type * as HttpRouter from "@effect/platform/HttpRouter";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as Scope from "effect/Scope";
import type { Injector } from "../di/Injector.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import type { ResponseSpec } from "../http/HandlerResponse.js";
import type { BodyLimit } from "../http/RequestBody.js";
import type { EnhancerRefs } from "../pipeline/internal/enhancers.js";
import type { RouteTarget } from "../pipeline/internal/execution.js";
import type { ArgumentMetadata } from "../pipeline/PipeTransform.js";
import type { UploadLimits } from "../pipeline/Uploads.js";
import type { ParamScan } from "./ControllerScan.js";

/** The services a compiled route reads from the router. */
export type RouteServices =
  | HttpServerRequest.HttpServerRequest
  | HttpServerRequest.ParsedSearchParams
  | HttpRouter.RouteContext
  | Scope.Scope;

/** A handler parameter, with what its pipes are told about it. */
export interface CompiledParam {
  readonly meta: ParamScan;
  readonly argument: ArgumentMetadata;
  /** The DTO it is declared with (given to its decorator, or a class as its type), if any. */
  readonly dtoType: unknown;
}

/** Everything a route needs per request, fixed at startup. */
export interface RoutePlan {
  readonly node: ProviderNode;
  /** The controller instance, or `undefined` when it is request-scoped. */
  readonly singleton: unknown;
  readonly method: string | symbol;
  readonly target: RouteTarget;
  readonly params: ReadonlyArray<CompiledParam>;
  readonly spec: ResponseSpec;
  /** `@Sse()`: the handler's Observable is sent as `text/event-stream`. */
  readonly sse: boolean;
  readonly enhancers: EnhancerRefs;
  readonly injector: Injector;
  readonly bodyLimit: BodyLimit;
  readonly jsonDepthLimit: number;
  /** Keep the body's bytes as `rawBody` (the app's `rawBody: true`). */
  readonly rawBody: boolean;
  readonly uploadLimits: Required<UploadLimits>;
}
