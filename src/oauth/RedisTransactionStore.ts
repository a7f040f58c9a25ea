/**
 * A Redis `TransactionStore` (ioredis), shared by every app instance pointed at the same Redis:
 * the transaction cookie carries only a random 256-bit id, the transaction waits in Redis until
 * its expiry, and the first callback that presents the id takes it (`GETDEL`), on whichever
 * instance it lands.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import type { Redis, RedisOptions } from "ioredis";
import { randomToken } from "../crypto/SecureRandom.js";
import type { StartupError } from "../di/StartupError.js";
import { scopedRedisClient } from "../redis/RedisClient.js";
import { TooManyTransactions } from "./OAuthError.js";
import { OAuthTransaction } from "./OAuthTransaction.js";
import {
  DEFAULT_MAX_PER_CLIENT,
  TransactionStore,
  TransactionStoreError,
  type TransactionStoreService,
} from "./TransactionStore.js";

/**
 * Options of {@link layer}: ioredis options (`host`, `port`, `password`, `db`, `tls`, ...), with
 * defaults suited to a login flow: `keyPrefix` `strata:oauth:tx:`, no offline queue (a command
 * fails at once while Redis is unreachable, instead of waiting), `commandTimeout` 500 ms,
 * `connectTimeout` 2 000 ms, reconnection forever with a backoff up to 2 s. Needs Redis 6.2 or
 * later (`GETDEL`). Plus `maxPerClient`.
 *
 * @since 0.1.0
 * @category transaction
 */
export type RedisTransactionStoreOptions = RedisOptions & {
  /**
   * The most transactions one client may have waiting (started, neither completed nor
   * expired), across every instance; default 1 000. Past it, that client alone is refused
   * with `TooManyTransactions` (429 with `Retry-After`) until one of them expires or
   * completes, so no one client fills Redis with transactions (SECURITY.md 42).
   */
  readonly maxPerClient?: number;
};

// A client's waiting transactions are a sorted set (`client:<key>`: ids scored by their expiry
// on Redis's clock), emptied of expired ones at each start. The set expires with its newest id.
const SAVE = `
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call("ZREMRANGEBYSCORE", KEYS[2], "-inf", now)
if redis.call("ZCARD", KEYS[2]) >= tonumber(ARGV[3]) then
  local oldest = redis.call("ZRANGE", KEYS[2], 0, 0, "WITHSCORES")
  return { 0, tonumber(oldest[2]) - now }
end
if not redis.call("SET", KEYS[1], ARGV[1], "PX", ttl, "NX") then return { -1, 0 } end
redis.call("ZADD", KEYS[2], now + ttl, ARGV[4])
if redis.call("PTTL", KEYS[2]) < ttl then redis.call("PEXPIRE", KEYS[2], ttl) end
return { 1, 0 }
`;

// Taken: the transaction, and its place in its client's set (when the callback comes from
// the client that started it; otherwise the place frees up at its expiry).
const TAKE = `
local value = redis.call("GETDEL", KEYS[1])
if value then redis.call("ZREM", KEYS[2], ARGV[1]) end
return value
`;

interface RedisWithScripts extends Redis {
  strataOAuthSave(
    id: string,
    clientSet: string,
    value: string,
    ttl: number,
    maxPerClient: number,
    member: string,
  ): Promise<[1 | 0 | -1, number]>;
  strataOAuthTake(id: string, clientSet: string, member: string): Promise<string | null>;
}

const clientSet = (client: string) => `client:${client}`;

/** What the cookie carries: 32 random bytes as unpadded base64url. */
const ID = /^[A-Za-z0-9_-]{43}$/;

/** A transaction as the JSON text kept in Redis. */
const TransactionJson = Schema.parseJson(OAuthTransaction);
const encode = Schema.encode(TransactionJson);
const decode = Schema.decodeUnknownOption(TransactionJson);

const storeError = (command: string) => (cause: unknown) =>
  new TransactionStoreError({ message: `Redis transaction store: ${command} failed`, cause });

/** The operator's record of a failed command (the client gets a bare 503). */
const logged = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.tapError(effect, (error) =>
    error instanceof TransactionStoreError
      ? Effect.logWarning(error.message).pipe(Effect.annotateLogs({ error: error._tag }))
      : Effect.void,
  );

/**
 * The store, on a Redis client it opens when the layer is built (waiting up to
 * `connectTimeout`; an unreachable Redis is logged, not fatal, and retried in the background)
 * and closes with the layer's scope. `save` is `SET id json PX <remaining life> NX`, `take` is
 * `GETDEL id`, so a transaction is single-use across every instance and gone at its expiry.
 * Given a client key, each runs as one Lua script that also keeps the client's waiting ids
 * (`client:<key>`, a sorted set): a client holding `maxPerClient` is refused (429).
 * While Redis is unreachable both fail with a `TransactionStoreError` (a 503 from the built-in
 * routes, with nothing about Redis in the body).
 *
 * @since 0.1.0
 * @category transaction
 */
export const layer = (
  options: RedisTransactionStoreOptions = {},
): Layer.Layer<TransactionStore, StartupError> =>
  Layer.scoped(
    TransactionStore,
    Effect.gen(function* () {
      const { maxPerClient = DEFAULT_MAX_PER_CLIENT, ...redisOptions } = options;
      if (!(Number.isInteger(maxPerClient) && maxPerClient > 0)) {
        return yield* Effect.dieMessage(
          "RedisTransactionStore: maxPerClient must be a positive integer",
        );
      }
      const redis = (yield* scopedRedisClient(
        "Redis transaction store",
        "strata:oauth:tx:",
        redisOptions,
      )) as RedisWithScripts;
      redis.defineCommand("strataOAuthSave", { numberOfKeys: 2, lua: SAVE });
      redis.defineCommand("strataOAuthTake", { numberOfKeys: 2, lua: TAKE });
      return TransactionStore.of({
        save: Effect.fn("RedisTransactionStore.save")(function* (transaction, client) {
          const value = yield* Effect.mapError(encode(transaction), storeError("encode"));
          const ttl = Math.max(1, Math.ceil(transaction.expiry - (yield* Clock.currentTimeMillis)));
          const id = yield* randomToken(32);
          if (client === undefined) {
            const reply = yield* Effect.tryPromise({
              try: () => redis.set(id, value, "PX", ttl, "NX"),
              catch: storeError("SET"),
            });
            // NX refused: the id is taken (never, with 256 random bits, unless randomness is broken).
            if (reply !== "OK") return yield* storeError("SET NX")("the id is taken");
            return id;
          }
          const [saved, waitMs] = yield* Effect.tryPromise({
            try: () => redis.strataOAuthSave(id, clientSet(client), value, ttl, maxPerClient, id),
            catch: storeError("SET"),
          });
          if (saved === 0) {
            return yield* new TooManyTransactions({
              retryAfter: Math.max(1, Math.ceil(waitMs / 1_000)),
            });
          }
          if (saved !== 1) return yield* storeError("SET NX")("the id is taken");
          return id;
        }, logged),
        take: Effect.fn("RedisTransactionStore.take")(function* (cookieValue, client) {
          // Anything that is not an id this store made is unknown, without asking Redis.
          if (!ID.test(cookieValue)) return Option.none();
          const value = yield* Effect.tryPromise({
            try: () =>
              client === undefined
                ? redis.getdel(cookieValue)
                : redis.strataOAuthTake(cookieValue, clientSet(client), cookieValue),
            catch: storeError("GETDEL"),
          });
          return value === null ? Option.none() : decode(value);
        }, logged),
      } satisfies TransactionStoreService);
    }),
  );
