import * as Effect from "effect/Effect";

/**
 * `@effect/experimental/RateLimiter`, imported the first time a rate limit or its store is
 * built: an app without one does not load it (measured: ~3 ms of startup).
 */
export const loadRateLimiter = Effect.promise(() => import("@effect/experimental/RateLimiter"));
