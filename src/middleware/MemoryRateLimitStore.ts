import type * as RateLimiter from "@effect/experimental/RateLimiter";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { loadRateLimiter } from "./internal/loadRateLimiter.js";

/** How often counters that have run out are dropped, so memory follows the active clients. */
const SWEEP_EVERY = 60_000;

interface Counter {
  count: number;
  expiresAt: number;
}

interface Bucket {
  tokens: number;
  lastRefill: number;
  /** When the bucket is full again, so equivalent to no bucket at all. */
  fullAt: number;
}

/** The store itself, under the tag of the loaded `RateLimiter` module. */
const memoryStore = (RateLimiterStore: typeof RateLimiter.RateLimiterStore) =>
  Effect.gen(function* () {
    const counters = new Map<string, Counter>();
    const buckets = new Map<string, Bucket>();
    const clock = yield* Effect.clock;
    const sweep = () => {
      const now = clock.unsafeCurrentTimeMillis();
      for (const [key, counter] of counters) if (counter.expiresAt <= now) counters.delete(key);
      for (const [key, bucket] of buckets) if (bucket.fullAt <= now) buckets.delete(key);
    };
    // A plain timer, not a parked fiber: measured, such a fiber doubled the cost of the
    // per-request fiber `TimeoutMiddleware` starts (Effect keeps every root fiber in one set).
    yield* Effect.acquireRelease(
      Effect.sync(() => setInterval(sweep, SWEEP_EVERY).unref()),
      (timer) => Effect.sync(() => clearInterval(timer)),
    );
    return RateLimiterStore.of({
      fixedWindow: (options) =>
        Effect.sync(() => {
          const refillMillis = Duration.toMillis(options.refillRate);
          const now = clock.unsafeCurrentTimeMillis();
          let counter = counters.get(options.key);
          if (counter === undefined || counter.expiresAt <= now) {
            counter = { count: 0, expiresAt: now };
            counters.set(options.key, counter);
          }
          if (options.limit !== undefined && counter.count + options.tokens > options.limit) {
            return [counter.count + options.tokens, counter.expiresAt - now] as const;
          }
          counter.count += options.tokens;
          counter.expiresAt += refillMillis * options.tokens;
          return [counter.count, counter.expiresAt - now] as const;
        }),
      tokenBucket: (options) =>
        Effect.sync(() => {
          const refillMillis = Duration.toMillis(options.refillRate);
          const now = clock.unsafeCurrentTimeMillis();
          let bucket = buckets.get(options.key);
          if (bucket === undefined || bucket.fullAt <= now) {
            bucket = { tokens: options.limit, lastRefill: now, fullAt: now };
            buckets.set(options.key, bucket);
          } else {
            const refilled = Math.floor((now - bucket.lastRefill) / refillMillis);
            if (refilled > 0) {
              bucket.tokens = Math.min(options.limit, bucket.tokens + refilled);
              bucket.lastRefill += refilled * refillMillis;
            }
          }
          const next = bucket.tokens - options.tokens;
          if (options.allowOverflow || next >= 0) bucket.tokens = next;
          bucket.fullAt = bucket.lastRefill + (options.limit - bucket.tokens) * refillMillis;
          return next;
        }),
    });
  });

/**
 * An in-memory `@effect/experimental` `RateLimiterStore` for one process: the same algorithms
 * as the experimental memory store (`fixed-window` and `token-bucket`), plus a sweep every
 * minute (a timer cleared with the layer) of the counters that have expired, so a flood of
 * distinct client addresses cannot grow it without bound. Time comes from Effect's `Clock` as the layer is built.
 *
 * @since 0.1.0
 * @category middleware
 */
export const layer: Layer.Layer<RateLimiter.RateLimiterStore> = Layer.unwrapEffect(
  Effect.map(loadRateLimiter, ({ RateLimiterStore }) =>
    Layer.scoped(RateLimiterStore, memoryStore(RateLimiterStore)),
  ),
);
