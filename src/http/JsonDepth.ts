/**
 * The deepest nesting a JSON request body may have, checked right after parsing and before
 * anything recursive walks the value (SECURITY.md 44): the default, and `withJsonDepthLimit` to
 * set another on the Effect face.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import { dual } from "effect/Function";
import { currentJsonDepthLimit } from "./internal/jsonDepth.js";

export { DEFAULT_JSON_DEPTH_LIMIT } from "./internal/jsonDepth.js";

/**
 * Runs `effect` (a route, a router, a whole app) with another JSON depth limit for the bodies
 * it reads, as `HttpServerRequest.withMaxBodySize` sets their size limit.
 *
 * @since 0.1.0
 * @category body
 */
export const withJsonDepthLimit: {
  (limit: number): <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>;
  <A, E, R>(effect: Effect.Effect<A, E, R>, limit: number): Effect.Effect<A, E, R>;
} = dual(
  2,
  <A, E, R>(effect: Effect.Effect<A, E, R>, limit: number): Effect.Effect<A, E, R> =>
    Effect.locally(effect, currentJsonDepthLimit, limit),
);
