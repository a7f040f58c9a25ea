import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import { type EnhancerRefs, requestEnhancers } from "../pipeline/internal/enhancers.js";
import type { HttpExecution } from "../pipeline/internal/execution.js";
import type { ReceiveUpload } from "../pipeline/internal/uploadRoute.js";
import type { HandlerCall } from "./HandlerCall.js";
import type { Respond } from "./RouteResponse.js";
import { applyFilters } from "./runFilters.js";
import { runGuards } from "./runGuards.js";
import { intercept } from "./runInterceptors.js";

/**
 * One step of a route's per-request Effect, wrapped around the next. Each `*Step` below is
 * built once per route, and only when the route needs it.
 */
export type Step = (
  execution: HttpExecution,
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>;

/** The handler called and its result answered. */
export const callStep =
  (invoke: HandlerCall, respond: Respond): Step =>
  (execution) =>
    respond(invoke(execution), execution);

/** The handler called through the request's interceptors, their result answered. */
export const interceptedCallStep =
  (invoke: HandlerCall, respond: Respond): Step =>
  (execution) =>
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
    );

/** The multipart body received (files and fields) before `next`. */
export const uploadStep =
  (receive: ReceiveUpload, next: Step): Step =>
  (execution) =>
    Effect.flatMap(receive(execution), () => next(execution));

/** The request's guards asked before `next` (synchronous guards without an Effect). */
export const guardStep =
  (next: Step): Step =>
  (execution) => {
    const check = runGuards(execution.enhancers.guards, execution);
    return check === undefined
      ? next(execution)
      : Effect.zipRight(
          check,
          Effect.suspend(() => next(execution)),
        );
  };

/** What `next` fails with handed to the request's exception filters. */
export const filterStep =
  (next: Step): Step =>
  (execution) =>
    Effect.catchAllCause(
      Effect.suspend(() => next(execution)),
      (cause) => applyFilters(execution.enhancers.filters, execution, cause),
    );

/** The request's enhancers resolved (some are request-scoped) before `next`. */
export const enhancerStep =
  (refs: EnhancerRefs, next: Step): Step =>
  (execution) =>
    Effect.flatMap(requestEnhancers(refs, execution.requestStore()), (enhancers) => {
      execution.enhancers = enhancers;
      return next(execution);
    });
