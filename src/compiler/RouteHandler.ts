import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import * as Scope from "effect/Scope";
import type { ParamMetadata } from "../decorators/Params.js";
import type { Injector } from "../di/Injector.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import { handlerResponse, type ResponseSpec } from "../http/HandlerResponse.js";
import { type BodyLimit, readBody, readBodyAndRaw } from "../http/RequestBody.js";
import { StreamableFile } from "../http/StreamableFile.js";
import { awaitResult, fromResult } from "../http/UserCode.js";
import {
  type EnhancerRefs,
  type Enhancers,
  fixedEnhancers,
  requestEnhancers,
} from "../pipeline/internal/enhancers.js";
import { HttpExecution, type RouteTarget } from "../pipeline/internal/execution.js";
import { uploadRoute } from "../pipeline/internal/uploadRoute.js";
import type { ArgumentMetadata } from "../pipeline/PipeTransform.js";
import type { UploadLimits } from "../pipeline/Uploads.js";
import type { ParamScan } from "./ControllerScan.js";
import { applyFilters } from "./runFilters.js";
import { runGuards } from "./runGuards.js";
import { intercept } from "./runInterceptors.js";
import { applyPipes, isAsync } from "./runPipes.js";
import { sseResponse } from "./SseResponse.js";

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

type Step = (
  execution: HttpExecution,
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>;

const bodyless = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

const hasNoBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  bodyless.has(request.method) &&
  request.headers["content-length"] === undefined &&
  request.headers["transfer-encoding"] === undefined;

const rawValue = (meta: ParamMetadata, execution: HttpExecution): unknown => {
  switch (meta.source) {
    case "param":
      return meta.name === undefined ? execution.params : execution.params[meta.name];
    case "query":
      return meta.name === undefined ? execution.query : execution.query[meta.name];
    case "headers":
      return meta.name === undefined ? execution.headers : execution.headers[meta.name];
    case "body":
      return meta.name === undefined ? execution.body : ownProperty(execution.body, meta.name);
    case "req":
      return execution;
    case "res":
      return execution.getResponse();
    case "file":
      return meta.name === undefined
        ? execution.files?.[0]
        : execution.files?.find((file) => file.fieldname === meta.name);
    case "files":
      return meta.name === undefined
        ? (execution.uploadedFiles ?? execution.files ?? [])
        : (execution.files ?? []).filter((file) => file.fieldname === meta.name);
    case "custom":
      return customValue(meta, execution);
  }
};

/** `@Body("key")`: the body's own property (never one of `Object.prototype`'s), else undefined. */
const ownProperty = (body: unknown, key: string): unknown =>
  typeof body === "object" && body !== null && Object.hasOwn(body, key)
    ? (body as Record<string, unknown>)[key]
    : undefined;

/** A `createParamDecorator` parameter: its factory's value, or an Effect when it is async or throws. */
const customValue = (meta: ParamMetadata, execution: HttpExecution): unknown => {
  let value: unknown;
  try {
    value = (meta.factory as NonNullable<ParamMetadata["factory"]>)(meta.data, execution);
  } catch (error) {
    return Effect.fail(error);
  }
  return isAsync(value) ? fromResult(value) : value;
};

const unresolved: Enhancers = { guards: [], interceptors: [], filters: [], pipes: [] };

/**
 * The per-request Effect of one classic route, assembled at startup from the steps its
 * decorators ask for, each an Effect combinator around the next:
 *
 * filters ( body ( guards ( upload ( interceptors ( pipes + handler ) ) ) ) )
 *
 * A step that is not configured is left out entirely, so a route without guards,
 * interceptors, filters or uploads runs exactly the bare path: read what the parameters ask
 * for, call the handler, turn its result into a response, with no Effect allocated for a
 * synchronous handler beyond the response itself.
 */
export const routeHandler = (
  plan: RoutePlan,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices> => {
  const { params, spec, sse, injector, node, method, target } = plan;
  const upload = uploadRoute(
    plan.enhancers,
    plan.uploadLimits,
    plan.bodyLimit,
    plan.jsonDepthLimit,
    `${target.controller.name}.${String(method)}`,
  );
  const refs = upload.refs;
  const fixed = fixedEnhancers(refs);
  const isUpload =
    upload.spec !== undefined ||
    params.some((p) => p.meta.source === "file" || p.meta.source === "files");
  const hasGuards = refs.guards.length > 0;
  const hasInterceptors = refs.interceptors.length > 0;
  const readsBody =
    !isUpload &&
    (hasGuards ||
      hasInterceptors ||
      params.some(
        (p) => p.meta.source === "body" || p.meta.source === "req" || p.meta.source === "custom",
      ));
  const takesResponse = params.some((p) => p.meta.source === "res");
  const dtoType = params.find((p) => p.meta.source === "body")?.dtoType;
  const arity = params.length === 0 ? 0 : params[params.length - 1].meta.index + 1;

  const call = (controller: unknown, args: ReadonlyArray<unknown>): unknown => {
    try {
      return (controller as Record<string | symbol, (...a: ReadonlyArray<unknown>) => unknown>)[
        method
      ](...args);
    } catch (error) {
      return Effect.fail(error);
    }
  };

  /**
   * Pipes the arguments from `from` on and calls the handler: its result, or an Effect of it.
   * One argument at a time: the next waits for an asynchronous one, so the argument a pipe reads
   * from its context (`execution.argument`) stays its own until its last pipe has answered.
   */
  const argumentsFrom = (
    from: number,
    controller: unknown,
    execution: HttpExecution,
    args: Array<unknown>,
  ): unknown => {
    const pipes = execution.enhancers.pipes;
    for (let i = from; i < params.length; i++) {
      const { meta, argument } = params[i];
      const raw = rawValue(meta, execution);
      const list = pipes[i];
      let piped = raw;
      if (list.length > 0) {
        execution.argument = argument;
        piped =
          meta.source === "custom" && Effect.isEffect(raw)
            ? Effect.flatMap(raw as Effect.Effect<unknown, unknown>, (value) =>
                fromResult(applyPipes(value, list, execution, argument)),
              )
            : applyPipes(raw, list, execution, argument);
      }
      if (!Effect.isEffect(piped)) {
        args[meta.index] = piped;
        continue;
      }
      return Effect.flatMap(piped as Effect.Effect<unknown, unknown>, (value) => {
        args[meta.index] = value;
        return fromResult(argumentsFrom(i + 1, controller, execution, args));
      });
    }
    return call(controller, args);
  };

  /** Pipes every argument and calls the handler: its result, or an Effect of it. */
  const invokeOn = (controller: unknown, execution: HttpExecution): unknown =>
    argumentsFrom(0, controller, execution, new Array<unknown>(arity));

  const singleton = plan.singleton;
  const invoke =
    singleton !== undefined
      ? (execution: HttpExecution) => invokeOn(singleton, execution)
      : (execution: HttpExecution) =>
          Effect.flatMap(injector.instance(node, execution.requestStore()), (controller) =>
            fromResult(invokeOn(controller, execution)),
          );

  const toResponse = (value: unknown, execution: HttpExecution) => {
    const response = handlerResponse(value, spec);
    const extra = execution.responseIfCreated;
    if (extra === undefined || extra.sent) return response;
    const headers = extra.getHeaders();
    const withHeaders =
      Object.keys(headers).length === 0
        ? response
        : HttpServerResponse.setHeaders(response, headers);
    return extra.statusSet
      ? HttpServerResponse.setStatus(withHeaders, extra.statusCode)
      : withHeaders;
  };

  /** The response of `value`; a file stream first opened (400 when it cannot be). */
  const answer = (value: unknown, execution: HttpExecution) =>
    value instanceof StreamableFile
      ? Effect.map(value.opened(), () => toResponse(value, execution))
      : Effect.succeed(toResponse(value, execution));

  const respond = sse
    ? (value: unknown, execution: HttpExecution) =>
        Effect.map(sseResponse(value, spec.headers), (response) => toResponse(response, execution))
    : takesResponse
      ? (value: unknown, execution: HttpExecution) =>
          Effect.zipRight(fromResult(value), execution.getResponse().response)
      : (value: unknown, execution: HttpExecution) =>
          isAsync(value)
            ? Effect.flatMap(awaitResult(value), (result) => answer(result, execution))
            : answer(value, execution);

  const core: Step = hasInterceptors
    ? (execution) =>
        Effect.withFiberRuntime((fiber) =>
          respond(
            intercept(
              execution.enhancers.interceptors,
              execution,
              () => invoke(execution),
              fiber as Fiber.RuntimeFiber<unknown, unknown>,
              execution.scope,
            ),
            execution,
          ),
        )
    : (execution) => respond(invoke(execution), execution);

  const uploaded: Step = isUpload
    ? (execution) => Effect.flatMap(upload.receive(execution), () => core(execution))
    : core;

  const guarded: Step = hasGuards
    ? (execution) => {
        const check = runGuards(execution.enhancers.guards, execution);
        return check === undefined
          ? uploaded(execution)
          : Effect.zipRight(
              check,
              Effect.suspend(() => uploaded(execution)),
            );
      }
    : uploaded;

  const withBody: Step = !readsBody
    ? guarded
    : plan.rawBody
      ? (execution) =>
          hasNoBody(execution.req)
            ? guarded(execution)
            : Effect.flatMap(
                readBodyAndRaw(execution.req, plan.bodyLimit, plan.jsonDepthLimit),
                ({ body, raw }) => {
                  execution.body = body;
                  execution.rawBody = raw;
                  return guarded(execution);
                },
              )
      : (execution) =>
          hasNoBody(execution.req)
            ? guarded(execution)
            : Effect.flatMap(
                readBody(execution.req, plan.bodyLimit, plan.jsonDepthLimit),
                (body) => {
                  execution.body = body;
                  return guarded(execution);
                },
              );

  const filtered: Step =
    refs.filters.length > 0
      ? (execution) =>
          Effect.catchAllCause(
            Effect.suspend(() => withBody(execution)),
            (cause) => applyFilters(execution.enhancers.filters, execution, cause),
          )
      : withBody;

  const run: Step =
    fixed !== undefined
      ? filtered
      : (execution) =>
          Effect.flatMap(requestEnhancers(refs, execution.requestStore()), (enhancers) => {
            execution.enhancers = enhancers;
            return filtered(execution);
          });

  // The request's services read in one step (`contextWithEffect` takes two).
  return Effect.withFiberRuntime((fiber) => {
    const services = fiber.currentContext as Context.Context<RouteServices>;
    return run(
      new HttpExecution(
        serviceOf(services, HttpServerRequest.HttpServerRequest, requestKey),
        serviceOf(services, HttpRouter.RouteContext, routeKey).params,
        serviceOf(services, HttpServerRequest.ParsedSearchParams, queryKey),
        dtoType,
        target,
        serviceOf(services, Scope.Scope, scopeKey),
        fixed ?? unresolved,
      ),
    );
  }) as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices>;
};

const requestKey = HttpServerRequest.HttpServerRequest.key;
const routeKey = HttpRouter.RouteContext.key;
const queryKey = HttpServerRequest.ParsedSearchParams.key;
const scopeKey = Scope.Scope.key;

/**
 * The service of `tag` (whose key is `key`) in a request's context: one Map lookup, the key
 * known in advance (`Context.get` makes two, through each tag's own `key`); `Context.get` and
 * its error when the service is absent.
 */
const serviceOf = <I, S>(
  services: Context.Context<RouteServices>,
  tag: Context.Tag<I, S>,
  key: string,
): S => {
  const value = services.unsafeMap.get(key);
  return value === undefined ? Context.get(services as Context.Context<I>, tag) : (value as S);
};
