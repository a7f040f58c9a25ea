import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { RateLimitStore } from "./RateLimitStore.js";

/** How often windows and buckets that have run out are dropped, so memory follows the active clients. */
const SWEEP_EVERY = 60_000;

interface Window {
  count: number;
  endsAt: number;
}

interface Bucket {
  tokens: number;
  lastRefill: number;
  /** When the bucket is full again, so equivalent to no bucket at all. */
  fullAt: number;
}

const makeStore = Effect.gen(function* () {
  const windows = new Map<string, Window>();
  const buckets = new Map<string, Bucket>();
  const clock = yield* Effect.clock;
  const sweep = () => {
    const now = clock.unsafeCurrentTimeMillis();
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
    for (const [key, bucket] of buckets) if (bucket.fullAt <= now) buckets.delete(key);
  };
  // A plain timer, not a parked fiber: measured, such a fiber doubled the cost of the
  // per-request fiber `TimeoutMiddleware` starts (Effect keeps every root fiber in one set).
  yield* Effect.acquireRelease(
    Effect.sync(() => setInterval(sweep, SWEEP_EVERY).unref()),
    (timer) => Effect.sync(() => clearInterval(timer)),
  );
  return RateLimitStore.of({
    fixedWindow: (key, windowMs) =>
      Effect.sync(() => {
        const now = clock.unsafeCurrentTimeMillis();
        let window = windows.get(key);
        if (window === undefined || window.endsAt <= now) {
          window = { count: 0, endsAt: now + windowMs };
          windows.set(key, window);
        }
        window.count += 1;
        return { count: window.count, resetMs: window.endsAt - now };
      }),
    tokenBucket: (key, capacity, refillMs) =>
      Effect.sync(() => {
        const now = clock.unsafeCurrentTimeMillis();
        let bucket = buckets.get(key);
        if (bucket === undefined || bucket.fullAt <= now) {
          bucket = { tokens: capacity, lastRefill: now, fullAt: now };
          buckets.set(key, bucket);
        } else {
          const refilled = Math.floor((now - bucket.lastRefill) / refillMs);
          bucket.tokens = Math.min(capacity, bucket.tokens + refilled);
          bucket.lastRefill += refilled * refillMs;
        }
        const taken = bucket.tokens >= 1;
        if (taken) bucket.tokens -= 1;
        bucket.fullAt = bucket.lastRefill + (capacity - bucket.tokens) * refillMs;
        return {
          taken,
          remaining: bucket.tokens,
          nextMs: bucket.lastRefill + refillMs - now,
          fullMs: bucket.fullAt - now,
        };
      }),
  });
});

/**
 * The rate-limit store of one process: counts in memory, time from Effect's `Clock` (so
 * `TestClock` drives it in tests), and a sweep every minute (a timer cleared with the layer) of
 * the windows and buckets that have run out, so a flood of distinct client addresses cannot
 * grow it without bound.
 *
 * @since 0.1.0
 * @category middleware
 */
export const layer: Layer.Layer<RateLimitStore> = Layer.scoped(RateLimitStore, makeStore);
