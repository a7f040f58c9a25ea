import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type { Redis, RedisOptions } from "ioredis";
import type { StartupError } from "../di/StartupError.js";
import { scopedRedisClient } from "../redis/RedisClient.js";
import { type BucketTake, RateLimitStore, RateLimitStoreError } from "./RateLimitStore.js";

/**
 * Options of {@link layer}: ioredis options (`host`, `port`, `password`, `db`, `tls`, ...), with
 * defaults suited to a rate limiter: `keyPrefix` `strata:ratelimit:`, no offline queue (a
 * command fails at once while Redis is unreachable, instead of waiting), `commandTimeout`
 * 500 ms, `connectTimeout` 2 000 ms, reconnection forever with a backoff up to 2 s.
 *
 * @since 0.1.0
 * @category middleware
 */
export type RedisRateLimitStoreOptions = RedisOptions;

// Both scripts run on Redis's clock (PTTL, TIME): one time source for every instance.
// The window's expiry is set by the request that opens it and never moved by later ones.
const FIXED_WINDOW = `
local count = redis.call("INCR", KEYS[1])
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call("PEXPIRE", KEYS[1], ttl)
end
return { count, ttl }
`;

// The bucket expires when it would be full again, which is the same as no bucket at all.
const TOKEN_BUCKET = `
local capacity = tonumber(ARGV[1])
local refill_ms = tonumber(ARGV[2])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call("HMGET", KEYS[1], "tokens", "refilled")
local tokens = tonumber(state[1])
local last_refill = tonumber(state[2])
if not tokens or not last_refill then
  tokens = capacity
  last_refill = now
else
  local refilled = math.floor((now - last_refill) / refill_ms)
  tokens = math.min(capacity, tokens + refilled)
  last_refill = last_refill + refilled * refill_ms
end
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
local full_ms = math.ceil(last_refill + (capacity - tokens) * refill_ms - now)
redis.call("HSET", KEYS[1], "tokens", tokens, "refilled", last_refill)
redis.call("PEXPIRE", KEYS[1], math.max(1, full_ms))
return { taken, tokens, math.ceil(last_refill + refill_ms - now), full_ms }
`;

interface RedisWithScripts extends Redis {
  strataFixedWindow(key: string, windowMs: number): Promise<[number, number]>;
  strataTokenBucket(
    key: string,
    capacity: number,
    refillMs: number,
  ): Promise<[0 | 1, number, number, number]>;
}

const storeError = (command: string) => (cause: unknown) =>
  new RateLimitStoreError({ message: `Redis rate limit store: ${command} failed`, cause });

const makeStore = (options: RedisRateLimitStoreOptions) =>
  Effect.gen(function* () {
    const redis = (yield* scopedRedisClient(
      "Redis rate limit store",
      "strata:ratelimit:",
      options,
    )) as RedisWithScripts;
    redis.defineCommand("strataFixedWindow", { numberOfKeys: 1, lua: FIXED_WINDOW });
    redis.defineCommand("strataTokenBucket", { numberOfKeys: 1, lua: TOKEN_BUCKET });
    return RateLimitStore.of({
      fixedWindow: (key, windowMs) =>
        Effect.tryPromise({
          try: () => redis.strataFixedWindow(`window:${key}`, Math.ceil(windowMs)),
          catch: storeError("fixedWindow"),
        }).pipe(Effect.map(([count, resetMs]) => ({ count, resetMs }))),
      tokenBucket: (key, capacity, refillMs) =>
        Effect.tryPromise({
          try: () => redis.strataTokenBucket(`bucket:${key}`, capacity, refillMs),
          catch: storeError("tokenBucket"),
        }).pipe(
          Effect.map(
            ([taken, remaining, nextMs, fullMs]): BucketTake => ({
              taken: taken === 1,
              remaining,
              nextMs,
              fullMs,
            }),
          ),
        ),
    });
  });

/**
 * The rate-limit store shared by every app instance pointed at the same Redis (and
 * `keyPrefix`), through ioredis: each count is one Lua script, so a window or a bucket is
 * atomic across instances, and time is Redis's own. The connection is opened when the layer
 * is built (waiting up to `connectTimeout`; an unreachable Redis is logged, not fatal, and
 * retried in the background) and closed with the layer's scope. While Redis is unreachable
 * every command fails with a `RateLimitStoreError`, which the rate-limit middleware answers by
 * failing open or closed, as configured.
 *
 * @since 0.1.0
 * @category middleware
 */
export const layer = (
  options: RedisRateLimitStoreOptions = {},
): Layer.Layer<RateLimitStore, StartupError> => Layer.scoped(RateLimitStore, makeStore(options));
