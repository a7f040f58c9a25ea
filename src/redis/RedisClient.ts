/**
 * The ioredis client of a Redis-backed store (rate limits, OAuth transactions): loaded on
 * demand, opened with the store's layer and closed with its scope.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Redis, RedisOptions } from "ioredis";
import { StartupError } from "../di/StartupError.js";

/**
 * A client for `store` (named in messages) with defaults suited to a store on the request
 * path, under `options`: no offline queue (a command fails at once while Redis is unreachable,
 * instead of waiting), `commandTimeout` 500 ms, `connectTimeout` 2 000 ms, reconnection
 * forever with a backoff up to 2 s. It connects before it is returned, waiting up to
 * `connectTimeout`: an unreachable Redis is logged, not fatal, and retried in the background;
 * outages then surface as failed commands, not as log lines.
 *
 * @since 0.1.0
 * @category redis
 */
export const scopedRedisClient = (
  store: string,
  keyPrefix: string,
  options: RedisOptions,
): Effect.Effect<Redis, StartupError, Scope.Scope> =>
  Effect.gen(function* () {
    const { Redis } = yield* Effect.tryPromise({
      try: () => import("ioredis"),
      catch: (cause) => new StartupError({ message: `The ${store} needs ioredis`, cause }),
    });
    const redis = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = new Redis({
          keyPrefix,
          enableOfflineQueue: false,
          commandTimeout: 500,
          connectTimeout: 2_000,
          retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
          ...options,
          lazyConnect: true,
        });
        client.on("error", () => undefined);
        return client;
      }),
      (client) => Effect.sync(() => client.disconnect()),
    );
    yield* Effect.tryPromise(() => redis.connect()).pipe(
      Effect.timeout(Duration.millis(redis.options.connectTimeout ?? 2_000)),
      Effect.catchAll((cause) =>
        Effect.logWarning(
          `${store}: Redis is not reachable yet; retrying in the background`,
          cause,
        ),
      ),
    );
    return redis;
  });
