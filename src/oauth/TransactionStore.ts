/**
 * Where a transaction waits for its callback. The browser always holds a cookie (that binds
 * the transaction to it); the store decides what the cookie holds: the sealed transaction
 * itself (default), or the id of a server-side entry.
 *
 * A shared store (Redis, coming with the rate limiter's client) implements the same interface:
 * `save` as `SET key value PX ttl NX`, `take` as `GETDEL`, which makes a state single-use
 * across every instance.
 *
 * @since 0.1.0
 */
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import { randomToken } from "../crypto/SecureRandom.js";
import { makeExpiringEntries } from "../memory/ExpiringEntries.js";
import { TransactionStoreFull } from "./OAuthError.js";
import type { OAuthTransaction } from "./OAuthTransaction.js";
import { TransactionSealer } from "./TransactionSealer.js";

/**
 * A store that cannot answer (a remote store down): 503 `Service Unavailable` with the stable
 * code `transaction_store_unavailable`, on the built-in routes and on any `@effect/platform`
 * server. Its message and cause are for the log only.
 *
 * @since 0.1.0
 * @category transaction
 */
export class TransactionStoreError
  extends Data.TaggedError("TransactionStoreError")<{
    readonly message: string;
    readonly cause?: unknown;
  }>
  implements Respondable.Respondable
{
  /** The response this failure answers: 503 `transaction_store_unavailable`. */
  [Respondable.symbol]() {
    return Effect.succeed(storeUnavailable);
  }
}

/** The answer while the store cannot answer (prebuilt: it carries nothing of the failure). */
const storeUnavailable = HttpServerResponse.unsafeJson(
  { statusCode: 503, message: "Service Unavailable", error: "transaction_store_unavailable" },
  { status: 503 },
);

/**
 * Keeps transactions between `/auth/:provider` and its callback.
 *
 * @since 0.1.0
 * @category transaction
 */
export interface TransactionStoreService {
  /**
   * Keeps `transaction` until its expiry; returns the value the transaction cookie carries.
   * A store with no room for it refuses it with {@link TransactionStoreFull}.
   */
  readonly save: (
    transaction: OAuthTransaction,
  ) => Effect.Effect<string, TransactionStoreError | TransactionStoreFull>;
  /**
   * Takes the transaction a cookie value refers to and consumes it: any later `take` of the
   * same value finds nothing, whatever the callback's outcome. Unknown, tampered or consumed
   * values give `None`; expiry is checked by the caller. A store that could not remember the
   * value as consumed refuses with {@link TransactionStoreFull}.
   */
  readonly take: (
    cookieValue: string,
  ) => Effect.Effect<Option.Option<OAuthTransaction>, TransactionStoreError | TransactionStoreFull>;
}

/**
 * Options of the in-process stores (`layerCookieWith`, `layerMemoryWith`).
 *
 * @since 0.1.0
 * @category transaction
 */
export interface LocalTransactionStoreOptions {
  /**
   * The most live entries kept (default 100 000): the states taken (cookie store) or the
   * transactions waiting (memory store). An entry is forgotten only once it has expired; while
   * this many live ones fill the store, new transactions are refused with
   * {@link TransactionStoreFull} (503) rather than an unexpired one forgotten (SECURITY.md 41).
   */
  readonly maxEntries?: number;
}

/** The default {@link LocalTransactionStoreOptions.maxEntries}. */
const DEFAULT_MAX_ENTRIES = 100_000;

/** How often, at most, a full store says so in the log. */
const FULL_WARNING_INTERVAL = 60_000;

/** The capacity `options` ask for; a defect when it is not a positive integer. */
const capacity = (options: LocalTransactionStoreOptions): Effect.Effect<number> => {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  return Number.isInteger(maxEntries) && maxEntries > 0
    ? Effect.succeed(maxEntries)
    : Effect.dieMessage("TransactionStore: maxEntries must be a positive integer");
};

/** The refusal of a full store, warning the operator at most once a minute. */
const refusal = (store: "cookie" | "memory", maxEntries: number) => {
  let quietUntil = Number.NEGATIVE_INFINITY;
  const full = Effect.fail(new TransactionStoreFull());
  return (now: number): Effect.Effect<never, TransactionStoreFull> => {
    if (now < quietUntil) return full;
    quietUntil = now + FULL_WARNING_INTERVAL;
    return Effect.zipRight(
      Effect.logWarning(
        `TransactionStore (${store}): ${maxEntries} live entries; new transactions are refused (503) until some expire`,
      ),
      full,
    );
  };
};

/**
 * The transaction store.
 *
 * @since 0.1.0
 * @category transaction
 */
export class TransactionStore extends Context.Tag("effect-strata/oauth/TransactionStore")<
  TransactionStore,
  TransactionStoreService
>() {
  /**
   * The default: the cookie carries the sealed transaction, so nothing is stored per login.
   * The states taken are remembered in memory until their expiry, which makes a transaction
   * single-use within this process; behind several instances, use a shared store. While that
   * memory is full of live states, new transactions are refused (their callback could not be
   * accepted either).
   */
  static readonly layerCookieWith = (
    options: LocalTransactionStoreOptions = {},
  ): Layer.Layer<TransactionStore, never, TransactionSealer> =>
    Layer.effect(
      TransactionStore,
      Effect.gen(function* () {
        const sealer = yield* TransactionSealer;
        const maxEntries = yield* capacity(options);
        const taken = makeExpiringEntries<true>(maxEntries);
        const full = refusal("cookie", maxEntries);
        return {
          save: (transaction) =>
            Clock.clockWith((clock) => {
              const now = clock.unsafeCurrentTimeMillis();
              return taken.hasRoom(now) ? sealer.seal(transaction) : full(now);
            }),
          take: (cookieValue) =>
            Effect.gen(function* () {
              const opened = yield* sealer.unseal(cookieValue);
              if (Option.isNone(opened)) return opened;
              const { state, expiry } = opened.value;
              if (taken.get(state) !== undefined) return Option.none();
              const now = yield* Clock.currentTimeMillis;
              // Refused by the caller whatever comes next: nothing to remember.
              if (expiry <= now) return opened;
              if (!taken.hasRoom(now)) return yield* full(now);
              taken.set(state, true, expiry);
              return opened;
            }),
        } satisfies TransactionStoreService;
      }),
    );

  /** {@link TransactionStore.layerCookieWith} with the default options. */
  static readonly layerCookie: Layer.Layer<TransactionStore, never, TransactionSealer> =
    TransactionStore.layerCookieWith();

  /**
   * A server-side store in this process's memory: the cookie carries only a random 256-bit
   * id, the transaction stays on the server and is deleted when taken. While it is full of
   * live transactions, new ones are refused.
   */
  static readonly layerMemoryWith = (
    options: LocalTransactionStoreOptions = {},
  ): Layer.Layer<TransactionStore> =>
    Layer.effect(
      TransactionStore,
      Effect.gen(function* () {
        const maxEntries = yield* capacity(options);
        const entries = makeExpiringEntries<OAuthTransaction>(maxEntries);
        const full = refusal("memory", maxEntries);
        return {
          save: (transaction) =>
            Clock.clockWith((clock) => {
              const now = clock.unsafeCurrentTimeMillis();
              if (!entries.hasRoom(now)) return full(now);
              return Effect.map(randomToken(32), (id) => {
                entries.set(id, transaction, transaction.expiry);
                return id;
              });
            }),
          take: (cookieValue) =>
            Clock.clockWith((clock) => {
              entries.prune(clock.unsafeCurrentTimeMillis());
              const transaction = entries.get(cookieValue);
              if (transaction === undefined) return Effect.succeed(Option.none());
              entries.delete(cookieValue);
              return Effect.succeed(Option.some(transaction));
            }),
        } satisfies TransactionStoreService;
      }),
    );

  /** {@link TransactionStore.layerMemoryWith} with the default options. */
  static readonly layerMemory: Layer.Layer<TransactionStore> = TransactionStore.layerMemoryWith();
}
