import type * as Context from "effect/Context";
import type * as Effect from "effect/Effect";

/**
 * What a route adds to its request's context before its handler runs, told to the fast path:
 * `services` (under the request's own entries: those already in the context win), and
 * `handler`, the route's handler without that step. The fast path puts the services into the
 * request's context as it builds it and runs `handler`; any other server runs the route's own
 * handler, which adds them itself (`FiberRef.update` of the context: a copy of it a request).
 */
export interface RouteServices {
  readonly services: Context.Context<never>;
  readonly handler: Effect.Effect<unknown, unknown, unknown>;
}

const recorded = new WeakMap<object, RouteServices>();

/** Records that the route handler `routeHandler` adds `services` and is `handler` otherwise. */
export const recordRouteServices = (routeHandler: object, services: RouteServices): void => {
  recorded.set(routeHandler, services);
};

/** What {@link recordRouteServices} recorded for `routeHandler`, if anything. */
export const routeServicesOf = (routeHandler: object): RouteServices | undefined =>
  recorded.get(routeHandler);
