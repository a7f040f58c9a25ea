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
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import type { OAuthTransaction } from "./OAuthTransaction.js";
import { randomToken } from "./SecureRandom.js";
import { TransactionSealer } from "./TransactionSealer.js";

/**
 * A store that cannot answer (a remote store down). The built-in routes answer 500.
 *
 * @since 0.1.0
 * @category transaction
 */
export class TransactionStoreError extends Data.TaggedError("TransactionStoreError")<{
  readonly message: string;
  readonly cause?: unknown;
}> {}

/**
 * Keeps transactions between `/auth/:provider` and its callback.
 *
 * @since 0.1.0
 * @category transaction
 */
export interface TransactionStoreService {
  /** Keeps `transaction` until its expiry; returns the value the transaction cookie carries. */
  readonly save: (transaction: OAuthTransaction) => Effect.Effect<string, TransactionStoreError>;
  /**
   * Takes the transaction a cookie value refers to and consumes it: any later `take` of the
   * same value finds nothing, whatever the callback's outcome. Unknown, tampered or consumed
   * values give `None`; expiry is checked by the caller.
   */
  readonly take: (
    cookieValue: string,
  ) => Effect.Effect<Option.Option<OAuthTransaction>, TransactionStoreError>;
}

/** The most transactions a local store remembers; the oldest go first beyond it. */
const MAX_ENTRIES = 100_000;

/** Forgets entries whose expiry has passed, and the oldest ones beyond {@link MAX_ENTRIES}. */
const prune = <V extends { readonly expiry: number }>(entries: Map<string, V>, now: number) => {
  for (const [key, value] of entries) {
    if (value.expiry <= now || entries.size > MAX_ENTRIES) entries.delete(key);
    else break;
  }
};

/**
 * The transaction store.
 *
 * @since 0.1.0
 * @category transaction
 */
export class TransactionStore extends Context.Tag("strata/oauth/TransactionStore")<
  TransactionStore,
  TransactionStoreService
>() {
  /**
   * The default: the cookie carries the sealed transaction, so nothing is stored per login.
   * The states taken are remembered in memory until their expiry, which makes a transaction
   * single-use within this process; behind several instances, use a shared store.
   */
  static readonly layerCookie: Layer.Layer<TransactionStore, never, TransactionSealer> =
    Layer.effect(
      TransactionStore,
      Effect.gen(function* () {
        const sealer = yield* TransactionSealer;
        // Insertion order is expiry order (every transaction lives the same 10 minutes).
        const taken = new Map<string, { readonly expiry: number }>();
        return {
          save: (transaction) => sealer.seal(transaction),
          take: (cookieValue) =>
            Effect.gen(function* () {
              const now = yield* Clock.currentTimeMillis;
              prune(taken, now);
              const opened = yield* sealer.unseal(cookieValue);
              if (Option.isNone(opened)) return opened;
              const { state, expiry } = opened.value;
              if (taken.has(state)) return Option.none();
              taken.set(state, { expiry });
              return opened;
            }),
        } satisfies TransactionStoreService;
      }),
    );

  /**
   * A server-side store in this process's memory: the cookie carries only a random 256-bit
   * id, the transaction stays on the server and is deleted when taken.
   */
  static readonly layerMemory: Layer.Layer<TransactionStore> = Layer.sync(TransactionStore, () => {
    const entries = new Map<string, OAuthTransaction>();
    return {
      save: (transaction) =>
        Effect.gen(function* () {
          prune(entries, yield* Clock.currentTimeMillis);
          const id = yield* randomToken(32);
          entries.set(id, transaction);
          return id;
        }),
      take: (cookieValue) =>
        Effect.gen(function* () {
          prune(entries, yield* Clock.currentTimeMillis);
          const transaction = entries.get(cookieValue);
          if (transaction === undefined) return Option.none();
          entries.delete(cookieValue);
          return Option.some(transaction);
        }),
    } satisfies TransactionStoreService;
  });
}
