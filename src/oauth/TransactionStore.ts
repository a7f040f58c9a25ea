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
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { randomToken } from "../crypto/SecureRandom.js";
import { CodedError } from "../http/CodedFailure.js";
import { makeExpiringEntries } from "../memory/ExpiringEntries.js";
import { makeClientQuota } from "./internal/ClientQuota.js";
import { TooManyTransactions, TransactionStoreFull } from "./OAuthError.js";
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
export class TransactionStoreError extends CodedError<TransactionStoreError>(
  "effect-strata/oauth/TransactionStoreError",
)(
  "TransactionStoreError",
  { message: Schema.String, cause: Schema.optional(Schema.Unknown) },
  { status: 503, code: "transaction_store_unavailable", message: "Service Unavailable" },
) {}

/**
 * How a store refuses to keep more: {@link TransactionStoreFull} (503, the whole store),
 * {@link TooManyTransactions} (429, one client).
 *
 * @since 0.1.0
 * @category transaction
 */
export type TransactionStoreRefusal = TransactionStoreFull | TooManyTransactions;

/**
 * Keeps transactions between `/auth/:provider` and its callback.
 *
 * `client` is the key of the client that asks (the built-in routes give its address, as the
 * rate limiter counts it: `trustProxy`-aware, an IPv6 client per /64). The built-in stores
 * count each client's entries against their `maxPerClient` (SECURITY.md 42); without a
 * `client`, an entry is counted against no client.
 *
 * @since 0.1.0
 * @category transaction
 */
export interface TransactionStoreService {
  /**
   * Keeps `transaction` until its expiry; returns the value the transaction cookie carries.
   * A store with no room for it refuses it with {@link TransactionStoreFull}; a `client` that
   * holds its maximum, with {@link TooManyTransactions}.
   */
  readonly save: (
    transaction: OAuthTransaction,
    client?: string,
  ) => Effect.Effect<string, TransactionStoreError | TransactionStoreRefusal>;
  /**
   * Takes the transaction a cookie value refers to and consumes it: any later `take` of the
   * same value finds nothing, whatever the callback's outcome. Unknown, tampered or consumed
   * values give `None`; expiry is checked by the caller. A store that could not remember the
   * value as consumed refuses with {@link TransactionStoreFull} (or, for a `client` that holds
   * its maximum of such memories, {@link TooManyTransactions}).
   */
  readonly take: (
    cookieValue: string,
    client?: string,
  ) => Effect.Effect<
    Option.Option<OAuthTransaction>,
    TransactionStoreError | TransactionStoreRefusal
  >;
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
  /**
   * The most live entries one client may hold (default 1 000, or a tenth of `maxEntries` when
   * that is less): the states it took in callbacks (cookie store) or the transactions it
   * started (memory store). Past it, that client alone is refused with
   * {@link TooManyTransactions} (429 with `Retry-After`) until one of its entries expires, so
   * no one client can fill the store and bring on the 503 of everybody (SECURITY.md 42). It
   * must be less than `maxEntries`.
   */
  readonly maxPerClient?: number;
}

/** The default {@link LocalTransactionStoreOptions.maxEntries}. */
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * The default most live entries per client: what one address can need (a large office
 * behind one NAT signing in within ten minutes), far below what fills a store.
 *
 * @since 0.1.0
 * @category transaction
 */
export const DEFAULT_MAX_PER_CLIENT = 1_000;

/** How often, at most, a full store says so in the log. */
const FULL_WARNING_INTERVAL = 60_000;

/**
 * The capacities `options` ask for; a defect when they are not positive integers, or when one
 * client could hold the whole store.
 */
const capacity = (
  options: LocalTransactionStoreOptions,
): Effect.Effect<{ readonly maxEntries: number; readonly maxPerClient: number }> => {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!(Number.isInteger(maxEntries) && maxEntries > 0)) {
    return Effect.dieMessage("TransactionStore: maxEntries must be a positive integer");
  }
  const maxPerClient =
    options.maxPerClient ??
    Math.max(1, Math.min(DEFAULT_MAX_PER_CLIENT, Math.floor(maxEntries / 10)));
  if (!(Number.isInteger(maxPerClient) && maxPerClient > 0)) {
    return Effect.dieMessage("TransactionStore: maxPerClient must be a positive integer");
  }
  if (maxPerClient >= maxEntries) {
    return Effect.dieMessage(
      `TransactionStore: maxPerClient (${maxPerClient}) must be less than maxEntries (${maxEntries}), or one client could fill the store`,
    );
  }
  return Effect.succeed({ maxEntries, maxPerClient });
};

/** The refusal of a client that holds its maximum, `waitMs` before a place frees up. */
const tooMany = (waitMs: number): Effect.Effect<never, TooManyTransactions> =>
  Effect.fail(new TooManyTransactions({ retryAfter: Math.max(1, Math.ceil(waitMs / 1_000)) }));

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

/** A transaction in the memory store, and the client it is counted against. */
interface Waiting {
  readonly transaction: OAuthTransaction;
  readonly counted: { readonly client: string; readonly forgetAt: number } | undefined;
}

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
   * accepted either). Each state is counted against the client whose callback took it: a
   * client holding `maxPerClient` of them is refused (429) at its next start or callback.
   */
  static readonly layerCookieWith = (
    options: LocalTransactionStoreOptions = {},
  ): Layer.Layer<TransactionStore, never, TransactionSealer> =>
    Layer.effect(
      TransactionStore,
      Effect.gen(function* () {
        const sealer = yield* TransactionSealer;
        const { maxEntries, maxPerClient } = yield* capacity(options);
        const taken = makeExpiringEntries<true>(maxEntries);
        // The states each client took: its callbacks are what fill this memory.
        const perClient = makeClientQuota(maxPerClient);
        const full = refusal("cookie", maxEntries);
        return {
          save: (transaction, client) =>
            Clock.clockWith((clock): Effect.Effect<string, TransactionStoreRefusal> => {
              const now = clock.unsafeCurrentTimeMillis();
              // Refused now when its callback could not be remembered either.
              const wait = client === undefined ? undefined : perClient.retryAfter(client, now);
              if (wait !== undefined) return tooMany(wait);
              return taken.hasRoom(now) ? sealer.seal(transaction) : full(now);
            }),
          take: (cookieValue, client) =>
            Effect.gen(function* () {
              const opened = yield* sealer.unseal(cookieValue);
              if (Option.isNone(opened)) return opened;
              const { state, expiry } = opened.value;
              if (taken.get(state) !== undefined) return Option.none();
              const now = yield* Clock.currentTimeMillis;
              // Refused by the caller whatever comes next: nothing to remember.
              if (expiry <= now) return opened;
              if (client !== undefined) {
                const wait = perClient.retryAfter(client, now);
                if (wait !== undefined) return yield* tooMany(wait);
              }
              if (!taken.hasRoom(now)) return yield* full(now);
              taken.set(state, true, expiry);
              if (client !== undefined) perClient.add(client, expiry);
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
   * live transactions, new ones are refused. Each is counted against the client that started
   * it until it is taken or expires: a client holding `maxPerClient` is refused (429).
   */
  static readonly layerMemoryWith = (
    options: LocalTransactionStoreOptions = {},
  ): Layer.Layer<TransactionStore> =>
    Layer.effect(
      TransactionStore,
      Effect.gen(function* () {
        const { maxEntries, maxPerClient } = yield* capacity(options);
        const entries = makeExpiringEntries<Waiting>(maxEntries);
        // The transactions each client started and has not completed.
        const perClient = makeClientQuota(maxPerClient);
        const full = refusal("memory", maxEntries);
        return {
          save: (transaction, client) =>
            Clock.clockWith((clock): Effect.Effect<string, TransactionStoreRefusal> => {
              const now = clock.unsafeCurrentTimeMillis();
              const wait = client === undefined ? undefined : perClient.retryAfter(client, now);
              if (wait !== undefined) return tooMany(wait);
              if (!entries.hasRoom(now)) return full(now);
              return Effect.map(randomToken(32), (id) => {
                const counted =
                  client === undefined
                    ? undefined
                    : { client, forgetAt: perClient.add(client, transaction.expiry) };
                entries.set(id, { transaction, counted }, transaction.expiry);
                return id;
              });
            }),
          take: (cookieValue) =>
            Clock.clockWith((clock) => {
              entries.prune(clock.unsafeCurrentTimeMillis());
              const waiting = entries.get(cookieValue);
              if (waiting === undefined) return Effect.succeed(Option.none());
              entries.delete(cookieValue);
              // Completed: its place is its client's again.
              if (waiting.counted !== undefined) {
                perClient.release(waiting.counted.client, waiting.counted.forgetAt);
              }
              return Effect.succeed(Option.some(waiting.transaction));
            }),
        } satisfies TransactionStoreService;
      }),
    );

  /** {@link TransactionStore.layerMemoryWith} with the default options. */
  static readonly layerMemory: Layer.Layer<TransactionStore> = TransactionStore.layerMemoryWith();
}
