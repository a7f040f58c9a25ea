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
import type { RedisOptions } from "ioredis";
import { randomToken } from "../crypto/SecureRandom.js";
import type { StartupError } from "../di/StartupError.js";
import { scopedRedisClient } from "../redis/RedisClient.js";
import { OAuthTransaction } from "./OAuthTransaction.js";
import {
  TransactionStore,
  TransactionStoreError,
  type TransactionStoreService,
} from "./TransactionStore.js";

/**
 * Options of {@link layer}: ioredis options (`host`, `port`, `password`, `db`, `tls`, ...), with
 * defaults suited to a login flow: `keyPrefix` `strata:oauth:tx:`, no offline queue (a command
 * fails at once while Redis is unreachable, instead of waiting), `commandTimeout` 500 ms,
 * `connectTimeout` 2 000 ms, reconnection forever with a backoff up to 2 s. Needs Redis 6.2 or
 * later (`GETDEL`).
 *
 * @since 0.1.0
 * @category transaction
 */
export type RedisTransactionStoreOptions = RedisOptions;

/** What the cookie carries: 32 random bytes as unpadded base64url. */
const ID = /^[A-Za-z0-9_-]{43}$/;

/** A transaction as the JSON text kept in Redis. */
const TransactionJson = Schema.parseJson(OAuthTransaction);
const encode = Schema.encode(TransactionJson);
const decode = Schema.decodeUnknownOption(TransactionJson);

const storeError = (command: string) => (cause: unknown) =>
  new TransactionStoreError({ message: `Redis transaction store: ${command} failed`, cause });

/** The operator's record of a failed command (the client gets a bare 503). */
const logged = <A, R>(effect: Effect.Effect<A, TransactionStoreError, R>) =>
  Effect.tapError(effect, (error) =>
    Effect.logWarning(error.message).pipe(Effect.annotateLogs({ error: error._tag })),
  );

/**
 * The store, on a Redis client it opens when the layer is built (waiting up to
 * `connectTimeout`; an unreachable Redis is logged, not fatal, and retried in the background)
 * and closes with the layer's scope. `save` is `SET id json PX <remaining life> NX`, `take` is
 * `GETDEL id`, so a transaction is single-use across every instance and gone at its expiry.
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
      const redis = yield* scopedRedisClient(
        "Redis transaction store",
        "strata:oauth:tx:",
        options,
      );
      return TransactionStore.of({
        save: Effect.fn("RedisTransactionStore.save")(function* (transaction) {
          const value = yield* Effect.mapError(encode(transaction), storeError("encode"));
          const ttl = Math.max(1, Math.ceil(transaction.expiry - (yield* Clock.currentTimeMillis)));
          const id = yield* randomToken(32);
          const reply = yield* Effect.tryPromise({
            try: () => redis.set(id, value, "PX", ttl, "NX"),
            catch: storeError("SET"),
          });
          // NX refused: the id is taken (never, with 256 random bits, unless randomness is broken).
          if (reply !== "OK") return yield* storeError("SET NX")("the id is taken");
          return id;
        }, logged),
        take: Effect.fn("RedisTransactionStore.take")(function* (cookieValue) {
          // Anything that is not an id this store made is unknown, without asking Redis.
          if (!ID.test(cookieValue)) return Option.none();
          const value = yield* Effect.tryPromise({
            try: () => redis.getdel(cookieValue),
            catch: storeError("GETDEL"),
          });
          return value === null ? Option.none() : decode(value);
        }, logged),
      } satisfies TransactionStoreService);
    }),
  );
