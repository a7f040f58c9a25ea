import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";

/**
 * What a route handler made as `Effect.withFiberRuntime(body)` runs: `body`, called with the
 * request's fiber, and its Effect of the response.
 */
export type DirectBody = (
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>;

const recorded = new WeakMap<object, DirectBody>();

/**
 * Records that the route handler `handler` is `Effect.withFiberRuntime(body)`. The fast path
 * then calls `body` in its own first step and answers a response it gives at once (an `Exit`)
 * in that same step: two steps of the fiber's run loop fewer a request (see `RoutePrograms`).
 */
export const recordDirectRoute = (handler: object, body: DirectBody): void => {
  recorded.set(handler, body);
};

/** What {@link recordDirectRoute} recorded for `handler`, if anything. */
export const directRouteOf = (handler: object): DirectBody | undefined => recorded.get(handler);
