import type * as RateLimiter from "@effect/experimental/RateLimiter";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type { Redis, RedisOptions } from "ioredis";
import type { StartupError } from "../di/StartupError.js";
import { scopedRedisClient } from "../redis/RedisClient.js";
import { loadRateLimiter } from "./internal/loadRateLimiter.js";

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

// The scripts follow @effect/experimental's RateLimiter/Redis (MIT), with whole-millisecond
// expiries, Redis's own clock (one time source for every instance) and expiring buckets.
const FIXED_WINDOW = `
local tokens = tonumber(ARGV[1])
local refill_ms = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local current = tonumber(redis.call("GET", KEYS[1]))
if not current then
  local ttl = math.ceil(refill_ms * tokens)
  redis.call("SET", KEYS[1], tokens, "PX", ttl)
  return { tokens, ttl }
end
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then ttl = 0 end
local next = current + tokens
if limit >= 0 and next > limit then
  return { next, ttl }
end
local next_ttl = math.ceil(ttl + refill_ms * tokens)
redis.call("SET", KEYS[1], next, "PX", next_ttl)
return { next, next_ttl }
`;

const TOKEN_BUCKET = `
local refill_key = KEYS[1] .. ":refill"
local tokens = tonumber(ARGV[1])
local refill_ms = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local overflow = ARGV[4] == "1"
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local current = tonumber(redis.call("GET", KEYS[1]))
local last_refill = tonumber(redis.call("GET", refill_key))
if not current or not last_refill then
  current = limit
  last_refill = now
end
local refilled = math.floor((now - last_refill) / refill_ms)
if refilled > 0 then
  current = math.min(current + refilled, limit)
  last_refill = last_refill + refilled * refill_ms
end
local next = current - tokens
if next >= 0 or overflow then current = next end
local ttl = math.max(1, math.ceil(last_refill - now + (limit - current) * refill_ms))
redis.call("SET", KEYS[1], current, "PX", ttl)
redis.call("SET", refill_key, last_refill, "PX", ttl)
return next
`;

interface RedisWithScripts extends Redis {
  strataFixedWindow(
    key: string,
    tokens: number,
    refillMillis: number,
    limit: number,
  ): Promise<[number, number]>;
  strataTokenBucket(
    key: string,
    tokens: number,
    refillMillis: number,
    limit: number,
    overflow: 0 | 1,
  ): Promise<number>;
}

const storeError =
  (RateLimitStoreError: typeof RateLimiter.RateLimitStoreError, command: string) =>
  (cause: unknown) =>
    new RateLimitStoreError({ message: `Redis rate limit store: ${command} failed`, cause });

/**
 * A Redis `@effect/experimental` `RateLimiterStore` (ioredis): every app instance pointed at
 * the same Redis (and `keyPrefix`) shares one count per key, updated atomically by a Lua script.
 * The connection is opened when the layer is built (waiting up to `connectTimeout`; an
 * unreachable Redis is logged, not fatal, and retried in the background) and closed with the
 * layer's scope. While Redis is unreachable every command fails with a `RateLimitStoreError`,
 * which the rate-limit middleware answers by failing open or closed, as configured.
 *
 * @since 0.1.0
 * @category middleware
 */
export const layer = (
  options: RedisRateLimitStoreOptions = {},
): Layer.Layer<RateLimiter.RateLimiterStore, StartupError> =>
  Layer.unwrapEffect(
    Effect.map(loadRateLimiter, ({ RateLimiterStore, RateLimitStoreError }) =>
      Layer.scoped(
        RateLimiterStore,
        Effect.gen(function* () {
          const redis = (yield* scopedRedisClient(
            "Redis rate limit store",
            "strata:ratelimit:",
            options,
          )) as RedisWithScripts;
          redis.defineCommand("strataFixedWindow", { numberOfKeys: 1, lua: FIXED_WINDOW });
          redis.defineCommand("strataTokenBucket", { numberOfKeys: 1, lua: TOKEN_BUCKET });
          return RateLimiterStore.of({
            fixedWindow: (request) =>
              Effect.tryPromise({
                try: () =>
                  redis.strataFixedWindow(
                    request.key,
                    request.tokens,
                    Duration.toMillis(request.refillRate),
                    request.limit ?? -1,
                  ),
                catch: storeError(RateLimitStoreError, "fixedWindow"),
              }),
            tokenBucket: (request) =>
              Effect.tryPromise({
                try: () =>
                  redis.strataTokenBucket(
                    request.key,
                    request.tokens,
                    Duration.toMillis(request.refillRate),
                    request.limit,
                    request.allowOverflow ? 1 : 0,
                  ),
                catch: storeError(RateLimitStoreError, "tokenBucket"),
              }),
          });
        }),
      ),
    ),
  );
