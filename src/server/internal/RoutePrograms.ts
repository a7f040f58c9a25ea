import * as HttpApp from "@effect/platform/HttpApp";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Scope from "effect/Scope";
import { causeToResponse } from "../../http/ErrorResponse.js";
import { type DirectBody, directRouteOf } from "./DirectRoutes.js";
import type { FastApp } from "./FastApp.js";
import type { FoundRoute } from "./FastRouter.js";
import type { RequestFiber } from "./InFlight.js";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import type { NodeServerRequest } from "./NodeServerRequest.js";
import { closeRequestScope } from "./RequestScope.js";
import { routeServicesOf } from "./RouteServices.js";

/** What the fast path runs for a route: its program, and the services its requests start with. */
export interface RouteProgram {
  readonly effect: Effect.Effect<void>;
  readonly services: ReadonlyArray<readonly [string, unknown]>;
}

/** The programs of one app's routes, made once per route. */
export interface RoutePrograms {
  /** A route's program, and the services it adds to its requests' context (see `RouteServices`). */
  readonly programOf: (route: FoundRoute["handler"]) => RouteProgram;
  /** The program of a request no route matches, when it runs on a fiber (see `FastApp.notFound`). */
  readonly unmatched: Effect.Effect<void> | undefined;
}

const requestKey = HttpServerRequest.HttpServerRequest.key;
const scopeKey = Scope.Scope.key;

/**
 * The response step of a request: the request from the fiber's context, the platform's
 * pre-response handlers (their failures answered like the handler's), the write, then the
 * request scope closed (at once when nothing was added to it). An interruption or defect before
 * that closes it from outside (see `FastDispatch`). Without pre-response handlers (the usual
 * case) it makes no closure: nothing is allocated for a response written at once.
 */
const respondOn = (fiber: RequestFiber, response: HttpServerResponse.HttpServerResponse) => {
  const context = fiber.currentContext.unsafeMap;
  const request = context.get(requestKey) as NodeServerRequest;
  const scope = context.get(scopeKey) as Scope.CloseableScope;
  const handlers = fiber.getFiberRef(HttpApp.currentPreResponseHandlers);
  const written =
    handlers._tag === "None"
      ? writeNodeResponse(request.response, request.method, response)
      : Effect.flatMap(
          Effect.catchAllCause(
            // Suspended: a handler that throws is answered like one that fails.
            Effect.suspend(() => handlers.value(request, response)),
            causeToResponse,
          ),
          (final) => writeNodeResponse(request.response, request.method, final),
        );
  return written === Effect.void
    ? closeRequestScope(scope, Exit.void)
    : Effect.zipRight(
        written,
        Effect.suspend(() => closeRequestScope(scope, Exit.void)),
      );
};

/**
 * Run as the handler's continuation, on the fiber running it: no step of its own. Effect 3
 * sets that fiber as the current one around every run of its loop (`Fiber.getCurrentFiber`);
 * the `withFiberRuntime` step is only there should a later version stop doing so.
 */
const respond = (response: HttpServerResponse.HttpServerResponse): Effect.Effect<void> => {
  const fiber = Fiber.getCurrentFiber();
  return fiber._tag === "Some"
    ? respondOn(fiber.value, response)
    : Effect.withFiberRuntime((current) => respondOn(current, response));
};

/**
 * The programs of `fast`'s routes: each runs the route's handler in the app's middleware and
 * answers in one step around it (its success written, its failure answered and written).
 * `baseKeys` are the services every request already has (the app's).
 */
export const routePrograms = (fast: FastApp, baseKeys: ReadonlySet<string>): RoutePrograms => {
  const recover = (cause: Cause.Cause<unknown>) => Effect.flatMap(fast.recover(cause), respond);
  const complete = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
    Effect.matchCauseEffect(handler, {
      onFailure: recover,
      onSuccess: respond,
    }) as Effect.Effect<void>;
  /**
   * The program of a route whose handler is `Effect.withFiberRuntime(body)` (see `DirectRoutes`),
   * without middleware: `body` called in the program's own step, and a response it gives at once
   * answered in that step too (two run-loop steps fewer than {@link complete}: the failure
   * continuation pushed and popped). Anything else it gives runs under {@link complete}; a throw
   * is a defect, answered as the run loop would have handed it to {@link recover}.
   */
  const completeDirect = (body: DirectBody): Effect.Effect<void> => {
    const directStep = (fiber: Fiber.RuntimeFiber<unknown, unknown>) => {
      let result: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>;
      try {
        result = body(fiber as RequestFiber);
      } catch (defect) {
        return recover(Cause.die(defect));
      }
      if (!Exit.isExit(result)) return complete(result);
      return Exit.isSuccess(result)
        ? respondOn(fiber as RequestFiber, result.value as HttpServerResponse.HttpServerResponse)
        : recover(result.cause);
    };
    return Effect.withFiberRuntime<void>(directStep);
  };
  const programs = new WeakMap<FoundRoute["handler"], RouteProgram>();
  const programOf = (route: FoundRoute["handler"]): RouteProgram => {
    let program = programs.get(route);
    if (program === undefined) {
      const added = routeServicesOf(route.handler);
      const routeHandler = (added?.handler ?? route.handler) as typeof route.handler;
      const direct = fast.bare && !route.uninterruptible ? directRouteOf(routeHandler) : undefined;
      const handler = route.uninterruptible ? Effect.uninterruptible(routeHandler) : routeHandler;
      program = {
        effect: direct !== undefined ? completeDirect(direct) : complete(fast.wrap(handler)),
        services:
          added === undefined
            ? []
            : [...added.services.unsafeMap].filter(([key]) => !baseKeys.has(key)),
      };
      programs.set(route, program);
    }
    return program;
  };
  const notFound = fast.notFound;
  return { programOf, unmatched: Effect.isEffect(notFound) ? complete(notFound) : undefined };
};
